package expr

import "testing"

// TestRegexpFuncs checks regexp_like, regexp_match, regexp_replace and
// regexp_count against pylance 14.0.2.
func TestRegexpFuncs(t *testing.T) {
	runStrCases(t, regexpCases, regexpRefused)
}

// regexpRefused are patterns Rust accepts that this engine refuses
// (ErrUnsupported): see regex.go.
var regexpRefused = map[string]bool{
	`regexp_like(w, '[a[b]]')`:          true,
	`regexp_like(w, '[a-z&&b]')`:        true,
	`regexp_like(w, '\<a')`:             true,
	`regexp_like(w, 'a{1001}')`:         true,
	`regexp_like(w, '(?R)a')`:           true,
	`regexp_like(w, '(?-u)a')`:          true,
	`regexp_like(w, 'é\b')`:             true,
	`regexp_like(w, '\bcafé\b')`:        true,
	`regexp_like(w, '\ba\b')`:           true,
	`regexp_replace(w, '\b', '|', 'g')`: true,
}

// regexpCases: pylance's answers on strBatch.
var regexpCases = []strCase{
	{"regexp_like(s, '^[ab]')", "[true,false,false,true,null,false]"},                                                                                                      // bool
	{"regexp_like(s, 'AN', 'i')", "[false,true,false,false,null,false]"},                                                                                                   // bool
	{"regexp_like(s, 'an', '')", "[false,true,false,false,null,false]"},                                                                                                    // bool
	{"regexp_like(s, 'an', NULL)", "[false,true,false,false,null,false]"},                                                                                                  // bool
	{"regexp_like(s, NULL)", "[null,null,null,null,null,null]"},                                                                                                            // bool
	{"regexp_like(s, '')", "[true,true,true,true,null,true]"},                                                                                                              // bool
	{"regexp_like(s, 'AN', 'g')", "ERR External error: Invalid user input: Error during planning: regexp_like() does not support the \"globa"},                             //
	{"regexp_like(s, 'AN', 'c')", "ERR External error: LanceError(Arrow): Compute error: Regular expression did not compile: Syntax("},                                     //
	{"regexp_like(s, 'AN', 'ii')", "ERR External error: LanceError(Arrow): Compute error: Regular expression did not compile: Syntax("},                                    //
	{"regexp_like(s, p)", "[false,false,false,null,null,false]"},                                                                                                           // bool
	{"regexp_like(ls, 'a')", "[true,true,false,true,null,true]"},                                                                                                           // bool
	{"regexp_like(i, '1')", "ERR LanceError(IO): Internal error: Function 'regexp_like' failed to match any signature, errors: Error "},                                    //
	{"regexp_like(s, '(?i)^b')", "[false,true,false,false,null,false]"},                                                                                                    // bool
	{"regexp_like(w, '\\w+ \\w+')", "[false,true,true,true,false,false]"},                                                                                                  // bool
	{"regexp_like(w, '^\\w+$')", "[false,false,false,false,false,false]"},                                                                                                  // bool
	{"regexp_like(w, 'é\\b')", "[false,false,true,false,false,false]"},                                                                                                     // bool
	{"regexp_like(w, 'x.y')", "[false,false,false,false,false,false]"},                                                                                                     // bool
	{"regexp_like(w, '(?s)x.y')", "[false,false,false,false,true,false]"},                                                                                                  // bool
	{"regexp_like(w, '^y', 'm')", "[false,false,false,false,true,false]"},                                                                                                  // bool
	{"regexp_like(w, '^y')", "[false,false,false,false,false,false]"},                                                                                                      // bool
	{"regexp_like(w, 'y$')", "[false,false,false,false,true,false]"},                                                                                                       // bool
	{"regexp_like(w, '\\s')", "[true,true,true,true,true,false]"},                                                                                                          // bool
	{"regexp_like(w, '[\\s,]')", "[true,true,true,true,true,false]"},                                                                                                       // bool
	{"regexp_like(w, '[^\\w\\s]')", "[true,false,false,false,false,false]"},                                                                                                // bool
	{"regexp_like(w, '\\W')", "[true,true,true,true,true,false]"},                                                                                                          // bool
	{"regexp_like(w, '[\\W]')", "[true,true,true,true,true,false]"},                                                                                                        // bool
	{"regexp_like(w, '\\d')", "[false,false,false,false,false,false]"},                                                                                                     // bool
	{"regexp_like(w, '\\p{Greek}')", "[false,false,false,true,false,false]"},                                                                                               // bool
	{"regexp_like(w, '\\p{greek}')", "[false,false,false,true,false,false]"},                                                                                               // bool
	{"regexp_like(w, '\\pL')", "[true,true,true,true,true,false]"},                                                                                                         // bool
	{"regexp_like(w, '\\p{Lu}')", "[true,false,false,true,false,false]"},                                                                                                   // bool
	{"regexp_like(w, '\\p{Uppercase_Letter}')", "[true,false,false,true,false,false]"},                                                                                     // bool
	{"regexp_like(w, '\\p{gc=Lu}')", "[true,false,false,true,false,false]"},                                                                                                // bool
	{"regexp_like(w, '\\p{sc=Greek}')", "[false,false,false,true,false,false]"},                                                                                            // bool
	{"regexp_like(w, '\\p{Alphabetic}')", "[true,true,true,true,true,false]"},                                                                                              // bool
	{"regexp_like(w, '\\P{L}')", "[true,true,true,true,true,false]"},                                                                                                       // bool
	{"regexp_like(w, '[\\P{L}]')", "[true,true,true,true,true,false]"},                                                                                                     // bool
	{"regexp_like(w, '\\p{Any}')", "[true,true,true,true,true,false]"},                                                                                                     // bool
	{"regexp_like(w, '[[:upper:]]')", "[true,false,false,false,false,false]"},                                                                                              // bool
	{"regexp_like(w, '[[:^alpha:]]')", "[true,true,true,true,true,false]"},                                                                                                 // bool
	{"regexp_like(w, '\\x48')", "[true,false,false,false,false,false]"},                                                                                                    // bool
	{"regexp_like(w, '\\x{48}')", "[true,false,false,false,false,false]"},                                                                                                  // bool
	{"regexp_like(w, '\\u0048')", "[true,false,false,false,false,false]"},                                                                                                  // bool
	{"regexp_like(w, '\\u{48}')", "[true,false,false,false,false,false]"},                                                                                                  // bool
	{"regexp_like(w, '\\U00000048')", "[true,false,false,false,false,false]"},                                                                                              // bool
	{"regexp_like(w, '\\x4')", "ERR regex parse error:"},                                                                                                                   //
	{"regexp_like(w, '(?x) c a f é  # comment')", "[false,false,true,false,false,false]"},                                                                                  // bool
	{"regexp_like(w, '(?x)[ c ]a t')", "[false,true,false,false,false,false]"},                                                                                             // bool
	{"regexp_like(w, 'c a t', 'x')", "[false,true,false,false,false,false]"},                                                                                               // bool
	{"regexp_like(w, '(?i:HELLO)')", "[true,false,false,false,false,false]"},                                                                                               // bool
	{"regexp_like(w, '(?P<a>H)(?<b>e)')", "[true,false,false,false,false,false]"},                                                                                          // bool
	{"regexp_like(w, '(?P<a.b>H)')", "[true,false,false,false,false,false]"},                                                                                               // bool
	{"regexp_like(w, '(?P<1a>H)')", "ERR regex parse error:"},                                                                                                              //
	{"regexp_like(w, 'a{2}')", "[false,false,false,false,false,false]"},                                                                                                    // bool
	{"regexp_like(w, 'a{1,}')", "[false,true,true,false,false,false]"},                                                                                                     // bool
	{"regexp_like(w, 'a{,2}')", "ERR regex parse error:"},                                                                                                                  //
	{"regexp_like(w, 'a{')", "ERR regex parse error:"},                                                                                                                     //
	{"regexp_like(w, 'a{2,1}')", "ERR regex parse error:"},                                                                                                                 //
	{"regexp_like(w, 'a]')", "[false,false,false,false,false,false]"},                                                                                                      // bool
	{"regexp_like(w, 'a}')", "[false,false,false,false,false,false]"},                                                                                                      // bool
	{"regexp_like(w, '(')", "ERR regex parse error:"},                                                                                                                      //
	{"regexp_like(w, '[a')", "ERR regex parse error:"},                                                                                                                     //
	{"regexp_like(w, '\\1')", "ERR regex parse error:"},                                                                                                                    //
	{"regexp_like(w, '\\e')", "ERR regex parse error:"},                                                                                                                    //
	{"regexp_like(w, '\\Qa\\E')", "ERR regex parse error:"},                                                                                                                //
	{"regexp_like(w, '(?=a)')", "ERR regex parse error:"},                                                                                                                  //
	{"regexp_like(w, '(?<=a)b')", "ERR regex parse error:"},                                                                                                                //
	{"regexp_like(w, '(?)a')", "ERR regex parse error:"},                                                                                                                   //
	{"regexp_like(w, '(?i-)a')", "ERR regex parse error:"},                                                                                                                 //
	{"regexp_like(w, '(?-)a')", "ERR regex parse error:"},                                                                                                                  //
	{"regexp_like(w, '(?i-i)a')", "ERR regex parse error:"},                                                                                                                //
	{"regexp_like(w, '(?:)a')", "[false,true,true,false,false,false]"},                                                                                                     // bool
	{"regexp_like(w, 'a**')", "[true,true,true,true,true,true]"},                                                                                                           // bool
	{"regexp_like(w, '\\ba\\b')", "[false,true,false,false,false,false]"},                                                                                                  // bool
	{"regexp_like(w, '\\bcafé\\b')", "[false,false,true,false,false,false]"},                                                                                               // bool
	{"regexp_like(w, '[a[b]]')", "[false,true,true,false,false,false]"},                                                                                                    // bool
	{"regexp_like(w, '[a-z&&b]')", "[false,false,false,false,false,false]"},                                                                                                // bool
	{"regexp_like(w, '\\<a')", "[false,true,true,false,false,false]"},                                                                                                      // bool
	{"regexp_like(w, 'a{1001}')", "[false,false,false,false,false,false]"},                                                                                                 // bool
	{"regexp_like(w, '(?R)a')", "[false,true,true,false,false,false]"},                                                                                                     // bool
	{"regexp_like(w, '(?-u)a')", "[false,true,true,false,false,false]"},                                                                                                    // bool
	{"regexp_like(w, '[\\]]')", "[false,false,false,false,false,false]"},                                                                                                   // bool
	{"regexp_like(w, '[]a]')", "[false,true,true,false,false,false]"},                                                                                                      // bool
	{"regexp_like(w, '[^]a]')", "[true,true,true,true,true,false]"},                                                                                                        // bool
	{"regexp_like(w, '\\ ')", "[true,true,true,true,false,false]"},                                                                                                         // bool
	{"regexp_like(w, '\\,')", "[true,false,false,false,false,false]"},                                                                                                      // bool
	{"regexp_match(s, '^[ab]')", "[[\"a\"],null,null,[\"a\"],null,null]"},                                                                                                  // list<item: string>
	{"regexp_match(s, '(a)(n)')", "[null,[\"a\",\"n\"],null,null,null,null]"},                                                                                              // list<item: string>
	{"regexp_match(s, '(x)?(n)')", "[null,[\"n\"],null,null,null,null]"},                                                                                                   // list<item: string>
	{"regexp_match(s, '(x)?n')", "[null,[],null,null,null,null]"},                                                                                                          // list<item: string>
	{"regexp_match(s, 'AN', 'i')", "[null,[\"an\"],null,null,null,null]"},                                                                                                  // list<item: string>
	{"regexp_match(s, 'an', '')", "ERR External error: LanceError(Arrow): Compute error: Regular expression did not compile: Syntax("},                                     //
	{"regexp_match(s, 'an', NULL)", "[null,[\"an\"],null,null,null,null]"},                                                                                                 // list<item: string_view>
	{"regexp_match(s, 'an', 'g')", "ERR External error: Invalid user input: Error during planning: regexp_match() does not support the \"glob"},                            //
	{"regexp_match(s, '')", "[[\"\"],[\"\"],[\"\"],[\"\"],null,[\"\"]]"},                                                                                                   // list<item: string>
	{"regexp_match(s, '()')", "[[\"\"],[\"\"],[\"\"],[\"\"],null,[\"\"]]"},                                                                                                 // list<item: string>
	{"regexp_match(s, NULL)", "[null,null,null,null,null,null]"},                                                                                                           // list<item: string_view>
	{"regexp_match(s, p)", "[null,null,null,null,null,null]"},                                                                                                              // list<item: string>
	{"regexp_match(i, '1')", "[[\"1\"],null,null,null,null,null]"},                                                                                                         // list<item: string>
	{"regexp_match(w, '(\\w+), (\\w+)')", "[[\"Hello\",\"World\"],null,null,null,null,null]"},                                                                              // list<item: string>
	{"regexp_match(w, '(?P<first>\\w+) (\\w+)')", "[null,[\"a\",\"cat\"],[\"café\",\"au\"],[\"ΣΑΣ\",\"ΑΣ\"],null,null]"},                                                   // list<item: string>
	{"regexp_match(ls, 'a.')", "[[\"ap\"],[\"an\"],null,[\"a%\"],null,[\"at\"]]"},                                                                                          // list<item: string_view>
	{"regexp_replace(s, 'a', 'o')", "[\"opple\",\"Bonana\",\"cherry\",\"o%b\",null,\"dote_x\"]"},                                                                           // string
	{"regexp_replace(s, 'a', 'o', 'g')", "[\"opple\",\"Bonono\",\"cherry\",\"o%b\",null,\"dote_x\"]"},                                                                      // string
	{"regexp_replace(s, 'A', 'o', 'gi')", "[\"opple\",\"Bonono\",\"cherry\",\"o%b\",null,\"dote_x\"]"},                                                                     // string
	{"regexp_replace(s, 'A', 'o', 'ig')", "[\"opple\",\"Bonono\",\"cherry\",\"o%b\",null,\"dote_x\"]"},                                                                     // string
	{"regexp_replace(s, 'A', 'o', 'i')", "[\"opple\",\"Bonana\",\"cherry\",\"o%b\",null,\"dote_x\"]"},                                                                      // string
	{"regexp_replace(s, 'a', 'o', 'gg')", "ERR External error: regex parse error:"},                                                                                        //
	{"regexp_replace(s, 'a', 'o', '')", "ERR External error: regex parse error:"},                                                                                          //
	{"regexp_replace(s, 'a', 'o', NULL)", "[null,null,null,null,null,null]"},                                                                                               // string_view
	{"regexp_replace(s, 'a', 'o', 'c')", "ERR External error: regex parse error:"},                                                                                         //
	{"regexp_replace(s, 'a', 'o', 'x')", "[\"opple\",\"Bonana\",\"cherry\",\"o%b\",null,\"dote_x\"]"},                                                                      // string
	{"regexp_replace(s, '(a)(n)', '\\2\\1', 'g')", "[\"apple\",\"Bnanaa\",\"cherry\",\"a%b\",null,\"date_x\"]"},                                                            // string
	{"regexp_replace(s, '(a)(n)', '$2$1', 'g')", "[\"apple\",\"Bnanaa\",\"cherry\",\"a%b\",null,\"date_x\"]"},                                                              // string
	{"regexp_replace(s, '(a)(n)', '${2}x', 'g')", "[\"apple\",\"Bnxnxa\",\"cherry\",\"a%b\",null,\"date_x\"]"},                                                             // string
	{"regexp_replace(s, '(a)(n)', '$2x', 'g')", "[\"apple\",\"Ba\",\"cherry\",\"a%b\",null,\"date_x\"]"},                                                                   // string
	{"regexp_replace(s, '(?P<v>a)', '[$v]', 'g')", "[\"[a]pple\",\"B[a]n[a]n[a]\",\"cherry\",\"[a]%b\",null,\"d[a]te_x\"]"},                                                // string
	{"regexp_replace(s, '(?P<v.w>a)', '[${v.w}]', 'g')", "[\"[a]pple\",\"B[a]n[a]n[a]\",\"cherry\",\"[a]%b\",null,\"d[a]te_x\"]"},                                          // string
	{"regexp_replace(s, 'a', '$$', 'g')", "[\"$pple\",\"B$n$n$\",\"cherry\",\"$%b\",null,\"d$te_x\"]"},                                                                     // string
	{"regexp_replace(s, 'a', '\\', 'g')", "[\"\\\\pple\",\"B\\\\n\\\\n\\\\\",\"cherry\",\"\\\\%b\",null,\"d\\\\te_x\"]"},                                                   // string
	{"regexp_replace(s, 'a', '\\\\', 'g')", "[\"\\\\\\\\pple\",\"B\\\\\\\\n\\\\\\\\n\\\\\\\\\",\"cherry\",\"\\\\\\\\%b\",null,\"d\\\\\\\\te_x\"]"},                         // string
	{"regexp_replace(s, 'a', '\\x', 'g')", "[\"\\\\xpple\",\"B\\\\xn\\\\xn\\\\x\",\"cherry\",\"\\\\x%b\",null,\"d\\\\xte_x\"]"},                                            // string
	{"regexp_replace(s, 'a', '${foo bar}', 'g')", "[\"pple\",\"Bnn\",\"cherry\",\"%b\",null,\"dte_x\"]"},                                                                   // string
	{"regexp_replace(s, 'a', '$', 'g')", "[\"$pple\",\"B$n$n$\",\"cherry\",\"$%b\",null,\"d$te_x\"]"},                                                                      // string
	{"regexp_replace(s, 'a', '${1', 'g')", "[\"${1pple\",\"B${1n${1n${1\",\"cherry\",\"${1%b\",null,\"d${1te_x\"]"},                                                        // string
	{"regexp_replace(s, '(a)', '\\0\\1', 'g')", "[\"aapple\",\"Baanaanaa\",\"cherry\",\"aa%b\",null,\"daate_x\"]"},                                                         // string
	{"regexp_replace(s, '(a)', '\\12', 'g')", "[\"pple\",\"Bnn\",\"cherry\",\"%b\",null,\"dte_x\"]"},                                                                       // string
	{"regexp_replace(s, '(a)', '\\\\1', 'g')", "[\"apple\",\"Banana\",\"cherry\",\"a%b\",null,\"date_x\"]"},                                                                // string
	{"regexp_replace(s, '(a)', '\\\\\\1', 'g')", "[\"\\\\apple\",\"B\\\\an\\\\an\\\\a\",\"cherry\",\"\\\\a%b\",null,\"d\\\\ate_x\"]"},                                      // string
	{"regexp_replace(s, '(a)', '$\\1', 'g')", "[\"${1}pple\",\"B${1}n${1}n${1}\",\"cherry\",\"${1}%b\",null,\"d${1}te_x\"]"},                                               // string
	{"regexp_replace(s, '(a)', '$1$', 'g')", "[\"a$pple\",\"Ba$na$na$\",\"cherry\",\"a$%b\",null,\"da$te_x\"]"},                                                            // string
	{"regexp_replace(s, '(a)', '$01', 'g')", "[\"apple\",\"Banana\",\"cherry\",\"a%b\",null,\"date_x\"]"},                                                                  // string
	{"regexp_replace(s, '(a)', '$99999999999999999999999', 'g')", "[\"pple\",\"Bnn\",\"cherry\",\"%b\",null,\"dte_x\"]"},                                                   // string
	{"regexp_replace(s, '(a)', '$é', 'g')", "[\"$épple\",\"B$én$én$é\",\"cherry\",\"$é%b\",null,\"d$éte_x\"]"},                                                             // string
	{"regexp_replace(s, '(a)', '\\1x', 'g')", "[\"axpple\",\"Baxnaxnax\",\"cherry\",\"ax%b\",null,\"daxte_x\"]"},                                                           // string
	{"regexp_replace(s, '', '-', 'g')", "[\"-a-p-p-l-e-\",\"-B-a-n-a-n-a-\",\"-c-h-e-r-r-y-\",\"-a-%-b-\",null,\"-d-a-t-e-_-x-\"]"},                                        // string
	{"regexp_replace(s, '', '-')", "[\"-apple\",\"-Banana\",\"-cherry\",\"-a%b\",null,\"-date_x\"]"},                                                                       // string
	{"regexp_replace(s, 'a*', '-', 'g')", "[\"-p-p-l-e-\",\"-B-n-n-\",\"-c-h-e-r-r-y-\",\"-%-b-\",null,\"-d-t-e-_-x-\"]"},                                                  // string
	{"regexp_replace(s, NULL, 'o')", "[null,null,null,null,null,null]"},                                                                                                    // string_view
	{"regexp_replace(s, 'a', NULL)", "[null,null,null,null,null,null]"},                                                                                                    // string_view
	{"regexp_replace(s, '(', 'o')", "ERR External error: regex parse error:"},                                                                                              //
	{"regexp_replace(s, 'a', p, 'g')", "[\"a%pple\",\"BB_%nB_%nB_%\",\"cherry\",null,null,\"d%\\\\_xte_x\"]"},                                                              // string
	{"regexp_replace(s, p, 'X', 'g')", "[\"apple\",\"Banana\",\"cherry\",null,null,\"date_x\"]"},                                                                           // string
	{"regexp_replace(ls, 'a', 'o', 'g')", "[\"opple\",\"Bonono\",\"cherry\",\"o%b\",null,\"dote_x\"]"},                                                                     // string_view
	{"regexp_replace(i, '1', 'o')", "[\"o\",\"2\",\"3\",\"4\",\"5\",null]"},                                                                                                // large_string
	{"regexp_replace(w, '\\s+', '_', 'g')", "[\"Hello,_World!\",\"a_cat_catch_a_fish\",\"café_au_lait\",\"ΣΑΣ_ΑΣ\",\"x_y\",\"\"]"},                                         // string
	{"regexp_replace(w, '(?m)^', '>', 'g')", "[\">Hello, World!\",\">a cat catch a fish\",\">café au lait\",\">ΣΑΣ ΑΣ\",\">x\\n>y\",\">\"]"},                               // string
	{"regexp_count(s, 'a')", "[1,3,0,1,0,1]"},                                                                                                                              // int64
	{"regexp_count(s, 'an')", "[0,2,0,0,0,0]"},                                                                                                                             // int64
	{"regexp_count(s, '')", "[6,7,7,4,0,7]"},                                                                                                                               // int64
	{"regexp_count(s, 'a*')", "[5,4,7,3,0,6]"},                                                                                                                             // int64
	{"regexp_count(s, 'a', 3)", "[0,2,0,0,0,0]"},                                                                                                                           // int64
	{"regexp_count(s, 'a', 0)", "ERR External error: LanceError(Arrow): Compute error: regexp_count() requires start to be 1 based"},                                       //
	{"regexp_count(s, 'a', 100)", "[0,0,0,0,0,0]"},                                                                                                                         // int64
	{"regexp_count(s, 'A', 1, 'i')", "[1,3,0,1,0,1]"},                                                                                                                      // int64
	{"regexp_count(s, 'A', 1, 'g')", "ERR External error: LanceError(Arrow): Compute error: regexp_count()/regexp_instr() does not support the"},                           //
	{"regexp_count(s, 'A', 1, 'c')", "ERR External error: LanceError(Arrow): Compute error: Regular expression did not compile: (?c)A"},                                    //
	{"regexp_count(s, 'A', 1, '')", "[0,0,0,0,0,0]"},                                                                                                                       // int64
	{"regexp_count(s, 'A', 1, NULL)", "[0,0,0,0,0,0]"},                                                                                                                     // int64
	{"regexp_count(s, 'a', NULL)", "[1,3,0,1,0,1]"},                                                                                                                        // int64
	{"regexp_count(s, NULL)", "[0,0,0,0,0,0]"},                                                                                                                             // int64
	{"regexp_count(s, p)", "[0,0,0,0,0,0]"},                                                                                                                                // int64
	{"regexp_count(u, 'a', 2)", "[0,1,0,0,0,0]"},                                                                                                                           // int64
	{"regexp_count(s, '^a', 2)", "[0,1,0,0,0,1]"},                                                                                                                          // int64
	{"regexp_count(i, '1')", "[1,0,0,0,0,0]"},                                                                                                                              // int64
	{"regexp_count(w, '\\w+')", "[2,5,3,2,2,0]"},                                                                                                                           // int64
	{"regexp_like(w, 'a{ 2 }')", "[false,false,false,false,false,false]"},                                                                                                  // bool
	{"regexp_match(w, 'a{ 1 , 2 }')", "[null,[\"a\"],[\"a\"],null,null,null]"},                                                                                             // list<item: string>
	{"regexp_match(w, 'a+?')", "[null,[\"a\"],[\"a\"],null,null,null]"},                                                                                                    // list<item: string>
	{"regexp_match(w, 'a*?c')", "[null,[\"c\"],[\"c\"],null,null,null]"},                                                                                                   // list<item: string>
	{"regexp_match(w, '(?U)a+')", "[null,[\"a\"],[\"a\"],null,null,null]"},                                                                                                 // list<item: string>
	{"regexp_match(w, '(?U)a+?')", "[null,[\"a\"],[\"a\"],null,null,null]"},                                                                                                // list<item: string>
	{"regexp_match(w, 'a+*')", "[[\"\"],[\"a\"],[\"\"],[\"\"],[\"\"],[\"\"]]"},                                                                                             // list<item: string>
	{"regexp_match(w, '(a)**')", "[[],[\"a\"],[],[],[],[]]"},                                                                                                               // list<item: string>
	{"regexp_match(w, '[a-c]+')", "[null,[\"a\"],[\"ca\"],null,null,null]"},                                                                                                // list<item: string>
	{"regexp_match(w, '[-a]+')", "[null,[\"a\"],[\"a\"],null,null,null]"},                                                                                                  // list<item: string>
	{"regexp_match(w, '[a-]+')", "[null,[\"a\"],[\"a\"],null,null,null]"},                                                                                                  // list<item: string>
	{"regexp_match(w, '[\\-a]+')", "[null,[\"a\"],[\"a\"],null,null,null]"},                                                                                                // list<item: string>
	{"regexp_match(w, '(?x) a \\  c')", "[null,[\"a c\"],null,null,null,null]"},                                                                                            // list<item: string>
	{"regexp_match(w, '(?x)[a ]+')", "[null,[\"a\"],[\"a\"],null,null,null]"},                                                                                              // list<item: string>
	{"regexp_match(w, '[[:alpha:]]+')", "[[\"Hello\"],[\"a\"],[\"caf\"],null,[\"x\"],null]"},                                                                               // list<item: string>
	{"regexp_match(w, '[^[:alpha:] ]+')", "[[\",\"],null,[\"é\"],[\"ΣΑΣ\"],[\"\\n\"],null]"},                                                                               // list<item: string>
	{"regexp_match(w, '\\p{Lu}\\p{Ll}+')", "[[\"Hello\"],null,null,null,null,null]"},                                                                                       // list<item: string>
	{"regexp_match(w, '(?i)σας')", "[null,null,null,[\"ΣΑΣ\"],null,null]"},                                                                                                 // list<item: string>
	{"regexp_match(w, '(?i)ΣΑΣ')", "[null,null,null,[\"ΣΑΣ\"],null,null]"},                                                                                                 // list<item: string>
	{"regexp_match(w, '.+')", "[[\"Hello, World!\"],[\"a cat catch a fish\"],[\"café au lait\"],[\"ΣΑΣ ΑΣ\"],[\"x\"],null]"},                                               // list<item: string>
	{"regexp_match(w, '(?s).+')", "[[\"Hello, World!\"],[\"a cat catch a fish\"],[\"café au lait\"],[\"ΣΑΣ ΑΣ\"],[\"x\\ny\"],null]"},                                       // list<item: string>
	{"regexp_match(w, '(?m)^.$')", "[null,null,null,null,[\"x\"],null]"},                                                                                                   // list<item: string>
	{"regexp_match(w, '\\d*')", "[[\"\"],[\"\"],[\"\"],[\"\"],[\"\"],[\"\"]]"},                                                                                             // list<item: string>
	{"regexp_match(w, '(\\w)(\\w)?')", "[[\"H\",\"e\"],[\"a\"],[\"c\",\"a\"],[\"Σ\",\"Α\"],[\"x\"],null]"},                                                                 // list<item: string>
	{"regexp_match(w, 'a|b|c')", "[null,[\"a\"],[\"c\"],null,null,null]"},                                                                                                  // list<item: string>
	{"regexp_match(w, '(?:ca|a)t')", "[null,[\"cat\"],null,null,null,null]"},                                                                                               // list<item: string>
	{"regexp_match(w, '((a)|b)+')", "[null,[\"a\",\"a\"],[\"a\",\"a\"],null,null,null]"},                                                                                   // list<item: string>
	{"regexp_replace(w, '(?<first>\\w+) (?<second>\\w+)', '${second} ${first}')", "[\"Hello, World!\",\"cat a catch a fish\",\"au café lait\",\"ΑΣ ΣΑΣ\",\"x\\ny\",\"\"]"}, // string
	{"regexp_replace(w, '\\w', '*', 'g')", "[\"*****, *****!\",\"* *** ***** * ****\",\"**** ** ****\",\"*** **\",\"*\\n*\",\"\"]"},                                        // string
	{"regexp_replace(w, '(?i)[aeiou]', '', 'g')", "[\"Hll, Wrld!\",\" ct ctch  fsh\",\"cfé  lt\",\"ΣΑΣ ΑΣ\",\"x\\ny\",\"\"]"},                                              // string
	{"regexp_replace(w, 'Σ', 'S', 'g')", "[\"Hello, World!\",\"a cat catch a fish\",\"café au lait\",\"SΑS ΑS\",\"x\\ny\",\"\"]"},                                          // string
	{"regexp_replace(w, '^', '>')", "[\">Hello, World!\",\">a cat catch a fish\",\">café au lait\",\">ΣΑΣ ΑΣ\",\">x\\ny\",\">\"]"},                                         // string
	{"regexp_replace(w, '$', '<', 'g')", "[\"Hello, World!<\",\"a cat catch a fish<\",\"café au lait<\",\"ΣΑΣ ΑΣ<\",\"x\\ny<\",\"<\"]"},                                    // string
	{"regexp_replace(w, '\\b', '|', 'g')", "[\"|Hello|, |World|!\",\"|a| |cat| |catch| |a| |fish|\",\"|café| |au| |lait|\",\"|ΣΑΣ| |ΑΣ|\",\"|x|\\n|y|\",\"\"]"},            // string
	{"regexp_count(w, '\\s')", "[1,4,2,1,1,0]"},                                                                                                                            // int64
	{"regexp_count(w, '[[:space:]]')", "[1,4,2,1,1,0]"},                                                                                                                    // int64
	{"regexp_count(w, '(?i)a')", "[0,4,3,0,0,0]"},                                                                                                                          // int64
	{"regexp_count(w, 'a', 5)", "[0,2,2,0,0,0]"},                                                                                                                           // int64
	{"regexp_count(w, '.', 1, 's')", "[13,18,12,6,3,0]"},                                                                                                                   // int64
}
