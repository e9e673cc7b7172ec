package expr

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokKind is the kind of a token of the filter dialect.
type tokKind uint8

const (
	tkEOF      tokKind = iota // end of input (or the first ';')
	tkWord                    // bare identifier or keyword, text as written
	tkIdent                   // `quoted` identifier, text without the backticks
	tkNumber                  // 12, 1.5, .5, 1e3, as written
	tkString                  // '…', text unescaped
	tkDString                 // "…" (a string literal in Lance), text unescaped
	tkHex                     // X'…' or 0x…, text = the hex digits
	tkPrefixed                // b'…', r'…', n'…' (refused), text = the prefix
	tkOp                      // operator or punctuation, text as written
)

// token is one lexeme: its kind, byte offset in the source and text.
type token struct {
	kind tokKind
	pos  int
	text string
}

// operators lists the multi-character operators the lexer recognizes,
// longest first; any other non-word character is a one-character tkOp.
// Most of them are refused by the parser with a message naming them.
var operators = [...]string{
	"!~~*",
	"<=>", "!~~", "!~*", "~~*", "->>", "#>>",
	"<=", ">=", "<>", "!=", "==", "<<", ">>", "||", "::", ":=", "=>", "~*", "~~", "!~",
	"->", "#>", "//", "&&", "@>", "<@", "^@", "@@", "!!",
}

// lex splits src into tokens, ending with a tkEOF at len(src) or at the
// first ';' outside a string, identifier or comment (the tokens after it
// are dropped, as Lance ignores a second statement). It fails on invalid
// UTF-8 and on unterminated strings, quoted identifiers and block
// comments, anywhere in src.
func lex(src string) ([]token, error) {
	if !utf8.ValidString(src) {
		i := 0
		for i < len(src) {
			r, n := utf8.DecodeRuneInString(src[i:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			i += n
		}
		return nil, syntaxErr(i, "the filter is not valid UTF-8")
	}
	toks := make([]token, 0, len(src)/3+1)
	i := 0
	semi, kept := -1, 0 // the offset of the first ';' and the number of tokens before it
	for {
		// Whitespace and comments.
		for i < len(src) {
			c := src[i]
			switch {
			case c == ' ' || c == '\t' || c == '\n' || c == '\r':
				i++
				continue
			case c == '-' && strings.HasPrefix(src[i:], "--"):
				if j := strings.IndexByte(src[i:], '\n'); j >= 0 {
					i += j + 1
				} else {
					i = len(src)
				}
				continue
			case c == '/' && strings.HasPrefix(src[i:], "/*"):
				j := strings.Index(src[i+2:], "*/")
				if j < 0 {
					return nil, syntaxErr(i, "unterminated /* comment")
				}
				i += j + 4
				continue
			}
			break
		}
		if i >= len(src) {
			if semi < 0 {
				semi, kept = i, len(toks)
			}
			return append(toks[:kept], token{kind: tkEOF, pos: semi}), nil
		}
		if src[i] == ';' && semi < 0 {
			// The rest is ignored, but still lexed: sqlparser fails on an
			// unterminated string there.
			semi, kept = i, len(toks)
		}
		start := i
		c := src[i]
		r, size := utf8.DecodeRuneInString(src[i:])
		switch {
		case c == '\'' || c == '"':
			s, end, err := lexQuoted(src, i, c)
			if err != nil {
				return nil, err
			}
			kind := tkString
			if c == '"' {
				kind = tkDString
			}
			toks = append(toks, token{kind: kind, pos: start, text: s})
			i = end
		case c == '`':
			j := strings.IndexByte(src[i+1:], '`')
			if j < 0 {
				return nil, syntaxErr(i, "unterminated quoted identifier")
			}
			name := src[i+1 : i+1+j]
			i += j + 2
			if i < len(src) && src[i] == '`' {
				return nil, syntaxErr(start, "a backtick inside a quoted identifier is not supported")
			}
			if name == "" {
				return nil, syntaxErr(start, "empty quoted identifier")
			}
			toks = append(toks, token{kind: tkIdent, pos: start, text: name})
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			t, end := lexNumber(src, i)
			toks = append(toks, t)
			i = end
		case c == '_' || unicode.IsLetter(r):
			j := i + size
			for j < len(src) {
				r2, n := utf8.DecodeRuneInString(src[j:])
				if r2 != '_' && r2 != '$' && !unicode.IsLetter(r2) && !(r2 >= '0' && r2 <= '9') {
					break
				}
				j += n
			}
			word := src[i:j]
			if j-i == 1 && j < len(src) && (src[j] == '\'' || src[j] == '"') {
				switch c {
				case 'x', 'X':
					if src[j] == '\'' {
						s, end, err := lexQuoted(src, j, '\'')
						if err != nil {
							return nil, err
						}
						toks = append(toks, token{kind: tkHex, pos: start, text: s})
						i = end
						continue
					}
				case 'b', 'B', 'r', 'R', 'n', 'N':
					if src[j] == '\'' || c != 'n' && c != 'N' {
						_, end, err := lexQuoted(src, j, src[j])
						if err != nil {
							return nil, err
						}
						toks = append(toks, token{kind: tkPrefixed, pos: start, text: word})
						i = end
						continue
					}
				}
			}
			toks = append(toks, token{kind: tkWord, pos: start, text: word})
			i = j
		default:
			op := src[i : i+size]
			if strings.IndexByte("!<>=|:~-#/&@^", c) >= 0 {
				for _, o := range operators {
					if o[0] == c && strings.HasPrefix(src[i:], o) {
						op = o
						break
					}
				}
			}
			toks = append(toks, token{kind: tkOp, pos: start, text: op})
			i += len(op)
		}
	}
}

// lexQuoted reads the string quoted by q starting at src[i] == q; a
// doubled quote stands for one quote, a backslash is an ordinary
// character. It returns the unescaped text and the offset after it.
func lexQuoted(src string, i int, q byte) (string, int, error) {
	var b strings.Builder
	j := i + 1
	for {
		k := strings.IndexByte(src[j:], q)
		if k < 0 {
			what := "string literal"
			if q == '"' {
				what = "double-quoted string"
			}
			return "", 0, syntaxErr(i, "unterminated %s", what)
		}
		b.WriteString(src[j : j+k])
		j += k + 1
		if j < len(src) && src[j] == q {
			b.WriteByte(q)
			j++
			continue
		}
		return b.String(), j, nil
	}
}

// lexNumber reads a number at src[i] as sqlparser does: digits, an
// optional '.', fraction digits, an optional exponent e[+-]digits; "0x"
// followed by hex digits is a hex string literal.
func lexNumber(src string, i int) (token, int) {
	start := i
	digits := func() {
		for i < len(src) && src[i] >= '0' && src[i] <= '9' {
			i++
		}
	}
	digits()
	if i-start == 1 && src[start] == '0' && i < len(src) && src[i] == 'x' {
		i++
		h := i
		for i < len(src) && isHexDigit(src[i]) {
			i++
		}
		return token{kind: tkHex, pos: start, text: src[h:i]}, i
	}
	if i < len(src) && src[i] == '.' {
		i++
		digits()
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		j := i + 1
		if j < len(src) && (src[j] == '+' || src[j] == '-') {
			j++
		}
		if j < len(src) && src[j] >= '0' && src[j] <= '9' {
			i = j
			digits()
		}
	}
	return token{kind: tkNumber, pos: start, text: src[start:i]}, i
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// decodeHex decodes the digits of a hex literal as DataFusion does: an odd
// count makes the first digit a byte of its own.
func decodeHex(s string) (string, bool) {
	b := make([]byte, 0, (len(s)+1)/2)
	i := 0
	if len(s)%2 == 1 {
		v, err := strconv.ParseUint(s[:1], 16, 8)
		if err != nil {
			return "", false
		}
		b = append(b, byte(v))
		i = 1
	}
	for ; i < len(s); i += 2 {
		if !isHexDigit(s[i]) || !isHexDigit(s[i+1]) {
			return "", false
		}
		v, _ := strconv.ParseUint(s[i:i+2], 16, 8)
		b = append(b, byte(v))
	}
	return string(b), true
}

// describe names a token for an error message.
func describe(t token) string {
	switch t.kind {
	case tkEOF:
		return "end of input"
	case tkIdent:
		return "`" + t.text + "`"
	case tkNumber:
		return "number " + t.text
	case tkString:
		return "string '" + strings.ReplaceAll(t.text, "'", "''") + "'"
	case tkDString:
		return "string \"" + strings.ReplaceAll(t.text, `"`, `""`) + "\""
	case tkHex:
		return "binary literal"
	case tkPrefixed:
		return t.text + "'…' string"
	}
	return strconv.Quote(t.text)
}

// syntaxErr is an error wrapping ErrSyntax: "expr: syntax error at POS: MSG".
func syntaxErr(pos int, format string, args ...any) error {
	return fmt.Errorf("%w at %d: %s", ErrSyntax, pos, fmt.Sprintf(format, args...))
}

// numberLit makes the literal of a number as written (with an optional
// leading '-'): LitInt when its digits fit int64 (Lance parses the digits,
// then negates), else LitFloat.
func numberLit(text string, pos int) (*Literal, error) {
	digits := strings.TrimPrefix(text, "-")
	neg := len(digits) != len(text)
	if strings.IndexFunc(digits, func(r rune) bool { return r < '0' || r > '9' }) < 0 {
		if v, err := strconv.ParseInt(digits, 10, 64); err == nil {
			if neg {
				v = -v
			}
			return &Literal{Kind: LitInt, Int: v, Text: text, At: pos}, nil
		}
	}
	f, err := strconv.ParseFloat(digits, 64)
	if err != nil && !isRangeErr(err) {
		return nil, syntaxErr(pos, "'%s' is not a supported number", text)
	}
	if neg {
		f = -f
	}
	return &Literal{Kind: LitFloat, Float: f, Text: text, At: pos}, nil
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}
