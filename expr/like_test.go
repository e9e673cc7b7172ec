package expr

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// TestLike checks LIKE and ILIKE against pylance 14.0.2.
func TestLike(t *testing.T) {
	runStrCases(t, likeCases, nil)
}

// likeCases: pylance's answers on strBatch.
var likeCases = []strCase{
	{"s LIKE 'a%'", "[true,false,false,true,null,false]"},                                                                                    // bool
	{"s NOT LIKE 'a%'", "[false,true,true,false,null,true]"},                                                                                 // bool
	{"s LIKE '_pple'", "[true,false,false,false,null,false]"},                                                                                // bool
	{"s ILIKE 'b%'", "[false,true,false,false,null,false]"},                                                                                  // bool
	{"s NOT ILIKE 'b%'", "[true,false,true,true,null,true]"},                                                                                 // bool
	{"s LIKE 'a\\%%'", "[false,false,false,true,null,false]"},                                                                                // bool
	{"s LIKE 'a\\_%'", "[false,false,false,false,null,false]"},                                                                               // bool
	{"s LIKE 'a\\\\%'", "[false,false,false,false,null,false]"},                                                                              // bool
	{"s LIKE '%'", "[true,true,true,true,null,true]"},                                                                                        // bool
	{"s LIKE '%%'", "[true,true,true,true,null,true]"},                                                                                       // bool
	{"s LIKE ''", "[false,false,false,false,null,false]"},                                                                                    // bool
	{"s LIKE '%a%'", "[true,true,false,true,null,true]"},                                                                                     // bool
	{"s LIKE '%an%a'", "[false,true,false,false,null,false]"},                                                                                // bool
	{"s LIKE 'a%b'", "[false,false,false,true,null,false]"},                                                                                  // bool
	{"s LIKE '%e'", "[true,false,false,false,null,false]"},                                                                                   // bool
	{"s LIKE '%_'", "[true,true,true,true,null,true]"},                                                                                       // bool
	{"s LIKE '______'", "[false,true,true,false,null,true]"},                                                                                 // bool
	{"s LIKE '_____'", "[true,false,false,false,null,false]"},                                                                                // bool
	{"s LIKE '%a_a%'", "[false,true,false,false,null,false]"},                                                                                // bool
	{"s LIKE 'c%r%y'", "[false,false,true,false,null,false]"},                                                                                // bool
	{"s LIKE 'a\\'", "[false,false,false,false,null,false]"},                                                                                 // bool
	{"s LIKE 'a\\b'", "[false,false,false,false,null,false]"},                                                                                // bool
	{"s LIKE '\\a\\p\\p\\l\\e'", "[true,false,false,false,null,false]"},                                                                      // bool
	{"s ILIKE '%AN%'", "[false,true,false,false,null,false]"},                                                                                // bool
	{"s ILIKE 'A%' ESCAPE '\\'", "[true,false,false,true,null,false]"},                                                                       // bool
	{"s ILIKE '_ANANA'", "[false,true,false,false,null,false]"},                                                                              // bool
	{"s ILIKE 'CHERRY'", "[false,false,true,false,null,false]"},                                                                              // bool
	{"s LIKE s", "[true,true,true,true,null,true]"},                                                                                          // bool
	{"s LIKE p", "[true,true,true,null,null,true]"},                                                                                          // bool
	{"s ILIKE p", "[true,true,true,null,null,true]"},                                                                                         // bool
	{"s NOT LIKE p", "[false,false,false,null,null,false]"},                                                                                  // bool
	{"ls LIKE 'a%'", "[true,false,false,true,null,false]"},                                                                                   // bool
	{"ls ILIKE '%A%'", "[true,true,false,true,null,true]"},                                                                                   // bool
	{"s LIKE ls", "[true,true,true,true,null,true]"},                                                                                         // bool
	{"u ILIKE 'é%'", "[true,true,false,false,false,false]"},                                                                                  // bool
	{"u ILIKE 'ÉMILE'", "[true,false,false,false,false,false]"},                                                                              // bool
	{"u ILIKE 'ß'", "[false,false,true,false,false,false]"},                                                                                  // bool
	{"u ILIKE 'σας'", "[false,false,false,false,false,true]"},                                                                                // bool
	{"u ILIKE 'σασ'", "[false,false,false,false,false,true]"},                                                                                // bool
	{"u ILIKE 'ǆ'", "[false,false,false,false,true,false]"},                                                                                  // bool
	{"u ILIKE 'ǲ'", "[false,false,false,false,false,false]"},                                                                                 // bool
	{"u LIKE '_a'", "[false,true,false,false,false,false]"},                                                                                  // bool
	{"u LIKE '_'", "[false,false,true,false,true,false]"},                                                                                    // bool
	{"u ILIKE '%_%'", "[true,true,true,true,true,true]"},                                                                                     // bool
	{"u ILIKE '_X'", "[false,false,false,true,false,false]"},                                                                                 // bool
	{"u ILIKE 'i%'", "[false,false,false,false,false,false]"},                                                                                // bool
	{"w LIKE 'x_y'", "[false,false,false,false,true,false]"},                                                                                 // bool
	{"w LIKE 'x%y'", "[false,false,false,false,true,false]"},                                                                                 // bool
	{"w LIKE '%a%a%a%'", "[false,true,true,false,false,false]"},                                                                              // bool
	{"w ILIKE '%world%'", "[true,false,false,false,false,false]"},                                                                            // bool
	{"w ILIKE '%CAFÉ%'", "[false,false,true,false,false,false]"},                                                                             // bool
	{"w ILIKE 'σας%'", "[false,false,false,true,false,false]"},                                                                               // bool
	{"w LIKE ''", "[false,false,false,false,false,true]"},                                                                                    // bool
	{"w NOT LIKE '%'", "[false,false,false,false,false,false]"},                                                                              // bool
	{"NULL LIKE 'a'", "[null,null,null,null,null,null]"},                                                                                     // bool
	{"s LIKE NULL", "[null,null,null,null,null,null]"},                                                                                       // bool
	{"'abc' LIKE 'a%'", "[true,true,true,true,true,true]"},                                                                                   // bool
	{"'abc' LIKE s", "[false,false,false,false,null,false]"},                                                                                 // bool
	{"bin LIKE '%'", "ERR External error: LanceError(Arrow): Invalid argument error: Encountered non UTF-8 data: invalid utf-8"},             //
	{"i LIKE '1%'", "ERR Invalid user input: Error during planning: There isn't a common type to coerce Int32 and Utf8 in LIK"},              //
	{"s LIKE 'a!%%' ESCAPE '!'", "ERR Query Execution error: Execution error: LIKE does not support escape_char other than the backslash ("}, //
}

// TestLikePrefix checks the prefix LIKE offers to pruning.
func TestLikePrefix(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	cases := []struct {
		pat    string
		not    bool
		ci     bool
		prefix string
		ok     bool
	}{
		{"abc%", false, false, "abc", true},
		{"abc%%", false, false, "abc", true},
		{"abc", false, false, "abc", true},
		{`a\%%`, false, false, "a%", true},
		{`a\_b`, false, false, "a_b", true},
		{"%", false, false, "", true},
		{"abc%", true, false, "", false},
		{"abc%", false, true, "", false},
		{"123%", false, true, "123", true}, // no cased letter: ILIKE is LIKE
		{"a_c%", false, false, "", false},
		{"%abc", false, false, "", false},
		{"a%c", false, false, "", false},
		{"%abc%", false, false, "", false},
	}
	for _, c := range cases {
		e := &Like{X: &Column{Name: "s"}, Pattern: &Literal{Kind: LitString, Str: c.pat}, Not: c.not, CaseInsensitive: c.ci}
		b := newBinder(schema, Options{})
		n, err := b.bind(e)
		if err != nil {
			t.Fatalf("%s: %v", e, err)
		}
		ln, isLike := n.(*likeNode)
		if !isLike {
			t.Fatalf("%s: bound to %T", e, n)
		}
		prefix, ok := ln.likePrefix()
		if prefix != c.prefix || ok != c.ok {
			t.Errorf("%s: likePrefix() = %q, %v; want %q, %v", e, prefix, ok, c.prefix, c.ok)
		}
	}
}

// TestLikePerRow checks patterns read from a column (compiled per row)
// and a constant text against a pattern column.
func TestLikePerRow(t *testing.T) {
	cases := []strCase{
		{"s LIKE p", "[true,true,true,null,null,true]"},
		{"'Banana' LIKE p", "[false,true,false,null,false,false]"},
		{"u ILIKE upper(u)", "[true,true,false,true,true,true]"},
		{"u LIKE upper(u)", "[false,false,false,false,false,true]"},
		{"w LIKE concat('%', s, '%')", "[false,false,false,false,true,false]"},
		{"w ILIKE concat('%', left(s, 1), '%')", "[false,false,true,false,true,false]"},
	}
	runStrCases(t, cases, nil)
}
