package expr

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Lance evaluates regular expressions with Rust's regex crate; this
// engine with Go's regexp (RE2). The syntaxes nearly agree; rustRegex
// translates a Rust pattern into Go's where they differ and refuses what
// Go cannot do:
//   - \d \s \w (and \D \S \W) are Unicode-aware in Rust, ASCII in Go:
//     they become Unicode classes (Rust's definitions);
//   - \p{…} accepts Rust's loose names (\p{greek}, \p{Letter},
//     \p{gc=Lu}, \p{sc=Greek}, \p{Alphabetic}, \p{Any}, …);
//   - \uHHHH, \u{…}, \UHHHHHHHH become \x{…};
//   - the x flag (verbose) is applied here (Go lacks it);
//   - named groups with names Go rejects (a.b, é) are numbered here;
//   - a { that is not a repetition, \1 … (backreferences and octal),
//     \Q…\E, look-around and unknown flags are errors, as in Rust;
//   - refused with ErrUnsupported: nested classes and class set
//     operations ([a[b]], &&, --, ~~), \< \> \b{…}, the R flag, turning
//     off u, repetition counts above 1000; and \b \B on text with
//     non-ASCII characters (Go's word boundary is ASCII-only; Rust's is
//     Unicode), which fails the evaluation rather than answer wrongly.

// rustRegex is a compiled pattern of Rust's syntax.
type rustRegex struct {
	re *regexp.Regexp
	// asciiBoundary: the pattern has \b or \B, whose Go meaning equals
	// Rust's only on ASCII text.
	asciiBoundary bool
	// names maps capture group names to their numbers (for ${name}).
	names map[string]int
	// groups is the number of capture groups.
	groups int
}

// compileRustRegex translates and compiles a Rust regex pattern.
func compileRustRegex(pat string) (*rustRegex, error) {
	t := reTranslator{src: pat}
	if err := t.run(); err != nil {
		return nil, err
	}
	re, err := regexp.Compile(t.out.String())
	if err != nil {
		if strings.Contains(err.Error(), "invalid repeat count") {
			return nil, fmt.Errorf("%w: regex %q: %v", ErrUnsupported, pat, err)
		}
		return nil, fmt.Errorf("%w: regex parse error in %q: %v", ErrBind, pat, err)
	}
	return &rustRegex{re: re, asciiBoundary: t.boundary, names: t.names, groups: t.groups}, nil
}

// checkText refuses text the translation cannot match as Rust would.
func (r *rustRegex) checkText(v []byte) error {
	if r.asciiBoundary {
		for _, c := range v {
			if c >= utf8.RuneSelf {
				return fmt.Errorf("%w: regex %s: \\b and \\B on non-ASCII text (Go's word boundary is ASCII-only)", ErrUnsupported, r.re)
			}
		}
	}
	return nil
}

// reTranslator rewrites a Rust pattern into Go syntax.
type reTranslator struct {
	src      string
	i        int
	out      strings.Builder
	verbose  bool      // the x flag, in the current group
	stack    []reGroup // the enclosing groups
	atom     int       // output offset of the last atom, -1: none
	rep      bool      // the last token was a repetition
	boundary bool
	groups   int
	names    map[string]int
}

func (t *reTranslator) errf(format string, args ...any) error {
	return fmt.Errorf("%w: regex parse error in %q at %d: %s", ErrBind, t.src, t.i, fmt.Sprintf(format, args...))
}

func (t *reTranslator) unsupported(what string) error {
	return fmt.Errorf("%w: regex %q: %s (at %d)", ErrUnsupported, t.src, what, t.i)
}

func (t *reTranslator) run() error {
	t.atom = -1
	for t.i < len(t.src) {
		if t.verbose && t.skipSpace() {
			continue
		}
		var err error
		start, rep := t.out.Len(), false
		switch c := t.src[t.i]; c {
		case '\\':
			err = t.escape(false)
		case '[':
			err = t.class()
		case '(':
			err = t.group()
			start = -1 // an atom once closed
		case ')':
			t.i++
			start = -1
			if n := len(t.stack); n > 0 {
				f := t.stack[n-1]
				t.verbose, t.stack, start = f.verbose, t.stack[:n-1], f.start
			}
			t.out.WriteByte(')')
		case '|':
			t.i++
			start = -1
			t.out.WriteByte('|')
		case '*', '+', '?', '{':
			rep = true
			if t.rep && t.atom >= 0 { // a repeated repetition: Go wants a group
				s := t.out.String()
				t.out.Reset()
				t.out.WriteString(s[:t.atom] + "(?:" + s[t.atom:] + ")")
			}
			if c == '{' {
				err = t.repetition()
			} else {
				t.out.WriteByte(c)
				t.i++
			}
			if err == nil && t.i < len(t.src) && t.src[t.i] == '?' {
				t.out.WriteByte('?') // lazy
				t.i++
			}
		default:
			_, w := utf8.DecodeRuneInString(t.src[t.i:])
			t.out.WriteString(t.src[t.i : t.i+w])
			t.i += w
		}
		if err != nil {
			return err
		}
		if !rep {
			t.atom = start
		}
		t.rep = rep
	}
	return nil
}

// skipSpace skips white space and a # comment (verbose mode).
func (t *reTranslator) skipSpace() bool {
	r, w := utf8.DecodeRuneInString(t.src[t.i:])
	switch {
	case r == '#':
		if k := strings.IndexByte(t.src[t.i:], '\n'); k >= 0 {
			t.i += k + 1
		} else {
			t.i = len(t.src)
		}
		return true
	case unicode.Is(unicode.White_Space, r):
		t.i += w
		return true
	}
	return false
}

// group translates what follows a '('.
func (t *reTranslator) group() error {
	rest := t.src[t.i+1:]
	if !strings.HasPrefix(rest, "?") {
		t.i++
		t.push(t.verbose)
		t.groups++
		t.out.WriteByte('(')
		return nil
	}
	rest = rest[1:]
	switch {
	case strings.HasPrefix(rest, "P<"), strings.HasPrefix(rest, "<") && !strings.HasPrefix(rest, "<=") && !strings.HasPrefix(rest, "<!"):
		start := strings.IndexByte(rest, '<') + 1
		end := strings.IndexByte(rest, '>')
		if end < 0 {
			return t.errf("unclosed capture group name")
		}
		name := rest[start:end]
		if !validGroupName(name) {
			return t.errf("invalid capture group name %q", name)
		}
		t.groups++
		if t.names == nil {
			t.names = map[string]int{}
		}
		if _, dup := t.names[name]; dup {
			return t.errf("duplicate capture group name %q", name)
		}
		t.names[name] = t.groups
		t.i += 2 + end + 1
		t.push(t.verbose)
		t.out.WriteByte('(')
		return nil
	case strings.HasPrefix(rest, "="), strings.HasPrefix(rest, "!"), strings.HasPrefix(rest, "<"),
		strings.HasPrefix(rest, "P="), strings.HasPrefix(rest, "P>"):
		return t.errf("look-around, including look-ahead and look-behind, is not supported")
	}
	// Flags: (?flags) or (?flags:…).
	t.i += 2
	var on, off strings.Builder
	seen := map[byte]bool{}
	neg, any, verbose := false, false, t.verbose
	for {
		if t.i >= len(t.src) {
			return t.errf("unclosed group")
		}
		c := t.src[t.i]
		if c == ')' || c == ':' {
			break
		}
		t.i++
		switch c {
		case '-':
			if neg {
				return t.errf("repeated negation in flags")
			}
			neg, any = true, false
			continue
		case 'i', 'm', 's', 'U':
			if neg {
				off.WriteByte(c)
			} else {
				on.WriteByte(c)
			}
		case 'x':
			verbose = !neg
		case 'u':
			if neg {
				return t.unsupported("turning off Unicode mode (?-u)")
			}
		case 'R':
			return t.unsupported("CRLF mode (the R flag)")
		default:
			return t.errf("unrecognized flag %q", c)
		}
		if seen[c] {
			return t.errf("duplicate flag %q", c)
		}
		seen[c], any = true, true
	}
	if !any && (t.src[t.i] == ')' || neg) {
		return t.errf("expected flag")
	}
	flags := on.String()
	if off.Len() > 0 {
		flags += "-" + off.String()
	}
	if t.src[t.i] == ')' {
		t.i++
		t.verbose = verbose
		if flags != "" {
			t.out.WriteString("(?" + flags + ")")
		}
		return nil
	}
	t.i++
	t.push(t.verbose)
	t.verbose = verbose
	t.out.WriteString("(?" + flags + ":")
	return nil
}

// reGroup is an open group: the x flag outside it and its output offset.
type reGroup struct {
	verbose bool
	start   int
}

// push opens a group (before its '(' is written).
func (t *reTranslator) push(v bool) {
	t.stack = append(t.stack, reGroup{verbose: v, start: t.out.Len()})
}

// validGroupName is Rust's rule for capture group names.
func validGroupName(name string) bool {
	for i, r := range name {
		switch {
		case r == '_' || isAlphabetic(r):
		case i > 0 && (unicode.IsDigit(r) || r == '.' || r == '[' || r == ']'):
		default:
			return false
		}
	}
	return name != ""
}

// repetition checks and copies a {n}, {n,} or {n,m} counted repetition.
func (t *reTranslator) repetition() error {
	end := strings.IndexByte(t.src[t.i:], '}')
	if end < 0 {
		return t.errf("unclosed counted repetition")
	}
	body := strings.Map(func(r rune) rune {
		if unicode.Is(unicode.White_Space, r) {
			return -1
		}
		return r
	}, t.src[t.i+1:t.i+end])
	lo, hi, comma := body, "", false
	if k := strings.IndexByte(body, ','); k >= 0 {
		lo, hi, comma = body[:k], body[k+1:], true
	}
	for _, s := range []string{lo, hi} {
		for _, c := range s {
			if c < '0' || c > '9' {
				return t.errf("repetition quantifier expects a valid decimal")
			}
		}
	}
	if lo == "" {
		return t.errf("repetition quantifier expects a valid decimal")
	}
	n, err1 := strconv.Atoi(lo)
	m, err2 := strconv.Atoi(hi)
	if err1 != nil || n > 1000 || hi != "" && (err2 != nil || m > 1000) {
		return t.unsupported("a repetition count above 1000")
	}
	if hi != "" && m < n {
		return t.errf("invalid repetition range {%s}", body)
	}
	t.out.WriteString("{" + lo)
	if comma {
		t.out.WriteString("," + hi)
	}
	t.out.WriteByte('}')
	t.i += end + 1
	return nil
}

// class translates a bracketed character class.
func (t *reTranslator) class() error {
	t.i++
	t.out.WriteByte('[')
	if t.i < len(t.src) && t.src[t.i] == '^' {
		t.out.WriteByte('^')
		t.i++
	}
	first := true
	for {
		if t.i >= len(t.src) {
			return t.errf("unclosed character class")
		}
		if t.verbose && t.skipSpace() {
			continue
		}
		c := t.src[t.i]
		next := byte(0)
		if t.i+1 < len(t.src) {
			next = t.src[t.i+1]
		}
		switch {
		case c == ']' && !first:
			t.out.WriteByte(']')
			t.i++
			return nil
		case c == ']':
			t.out.WriteString(`\]`)
			t.i++
		case c == '[' && next == ':':
			end := strings.Index(t.src[t.i:], ":]")
			name := ""
			if end > 0 {
				name = strings.TrimPrefix(t.src[t.i+2:t.i+end], "^")
			}
			if !posixClass(name) {
				return t.unsupported("nested character classes")
			}
			t.out.WriteString(t.src[t.i : t.i+end+2])
			t.i += end + 2
		case c == '[':
			return t.unsupported("nested character classes")
		case !first && (c == '&' && next == '&' || c == '-' && next == '-' || c == '~' && next == '~'):
			return t.unsupported("character class set operations (&&, --, ~~)")
		case c == '\\':
			if err := t.escape(true); err != nil {
				return err
			}
		default:
			_, w := utf8.DecodeRuneInString(t.src[t.i:])
			t.out.WriteString(t.src[t.i : t.i+w])
			t.i += w
		}
		first = false
	}
}

func posixClass(name string) bool {
	switch name {
	case "alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space", "upper", "word", "xdigit":
		return true
	}
	return false
}

// escape translates a backslash escape (inClass: inside brackets).
func (t *reTranslator) escape(inClass bool) error {
	if t.i+1 >= len(t.src) {
		return t.errf("incomplete escape sequence")
	}
	c := t.src[t.i+1]
	switch c {
	case 'd', 'D':
		t.i += 2
		t.out.WriteString(`\` + string(c-'d'+'p') + `{Nd}`)
		return nil
	case 's', 'S', 'w', 'W':
		t.i += 2
		set := whiteSpaceRanges()
		if c == 'w' || c == 'W' {
			set = wordRanges()
		}
		t.writeSet(set, c == 'S' || c == 'W', inClass)
		return nil
	case 'b', 'B':
		if inClass {
			return t.errf("unrecognized escape sequence in a class")
		}
		if c == 'b' && t.i+2 < len(t.src) && t.src[t.i+2] == '{' {
			return t.unsupported(`\b{…} word boundary assertions`)
		}
		t.i += 2
		t.boundary = true
		t.out.WriteString(`\` + string(c))
		return nil
	case '<', '>':
		return t.unsupported(`\< and \> word boundary assertions`)
	case 'A', 'z':
		if inClass {
			return t.errf("unrecognized escape sequence in a class")
		}
		t.i += 2
		t.out.WriteString(`\` + string(c))
		return nil
	case 'p', 'P':
		return t.property(c == 'P', inClass)
	case 'x', 'u', 'U':
		return t.hexEscape(c)
	case 'a', 'f', 'n', 'r', 't', 'v':
		t.i += 2
		t.out.WriteString(`\` + string(c))
		return nil
	}
	switch {
	case c >= '0' && c <= '9':
		return t.errf("backreferences and octal escapes are not supported")
	case c < utf8.RuneSelf && !isASCIIAlnum(c):
		t.i += 2
		if c == '\n' || c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' {
			t.out.WriteString(fmt.Sprintf(`\x{%X}`, c))
		} else {
			t.out.WriteString(`\` + string(c))
		}
		return nil
	}
	return t.errf("unrecognized escape sequence")
}

func isASCIIAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// hexEscape translates \xHH, \x{…}, \uHHHH, \u{…}, \UHHHHHHHH, \U{…}.
func (t *reTranslator) hexEscape(c byte) error {
	j := t.i + 2
	var digits string
	if j < len(t.src) && t.src[j] == '{' {
		end := strings.IndexByte(t.src[j:], '}')
		if end < 0 {
			return t.errf("unclosed hexadecimal escape")
		}
		digits = t.src[j+1 : j+end]
		j += end + 1
	} else {
		n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
		if j+n > len(t.src) {
			return t.errf("incomplete hexadecimal escape")
		}
		digits = t.src[j : j+n]
		j += n
	}
	v, err := strconv.ParseUint(digits, 16, 32)
	if err != nil || digits == "" || strings.ContainsAny(digits, "+-_") {
		return t.errf("invalid hexadecimal digits %q", digits)
	}
	if v > unicode.MaxRune || v >= 0xD800 && v <= 0xDFFF {
		return t.errf("hexadecimal literal is not a Unicode scalar value")
	}
	t.i = j
	fmt.Fprintf(&t.out, `\x{%X}`, v)
	return nil
}

// property translates \pX, \p{…}, \PX, \P{…}.
func (t *reTranslator) property(neg, inClass bool) error {
	j := t.i + 2
	if j >= len(t.src) {
		return t.errf("incomplete Unicode class")
	}
	var name string
	if t.src[j] == '{' {
		end := strings.IndexByte(t.src[j:], '}')
		if end < 0 {
			return t.errf("unclosed Unicode class")
		}
		name = t.src[j+1 : j+end]
		j += end + 1
	} else {
		_, w := utf8.DecodeRuneInString(t.src[j:])
		name = t.src[j : j+w]
		j += w
	}
	native, set, ok := unicodeProperty(name)
	if !ok {
		return t.unsupported(fmt.Sprintf("the Unicode property %q", name))
	}
	t.i = j
	if native != "" {
		p := "p"
		if neg {
			p = "P"
		}
		t.out.WriteString(`\` + p + "{" + native + "}")
		return nil
	}
	t.writeSet(set, neg, inClass)
	return nil
}

// writeSet writes a set of code points as a class (or inside one).
func (t *reTranslator) writeSet(set []runeRange, neg, inClass bool) {
	if inClass && neg {
		set = complementRanges(set)
		neg = false
	}
	if !inClass {
		t.out.WriteByte('[')
		if neg {
			t.out.WriteByte('^')
		}
	}
	for _, r := range set {
		if r.lo == r.hi {
			fmt.Fprintf(&t.out, `\x{%X}`, r.lo)
		} else {
			fmt.Fprintf(&t.out, `\x{%X}-\x{%X}`, r.lo, r.hi)
		}
	}
	if !inClass {
		t.out.WriteByte(']')
	}
}
