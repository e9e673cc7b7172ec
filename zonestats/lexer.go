package zonestats

import (
	"encoding/hex"
	"fmt"
	"strings"
)

// tokKind is the kind of a filter token.
type tokKind uint8

const (
	tokEOF tokKind = iota
	tokIdent
	tokKeyword // upper-cased in text
	tokNumber
	tokString
	tokBytes
	tokOp
	tokLParen
	tokRParen
	tokComma
	tokMinus
)

// token is one lexeme of a filter string.
type token struct {
	kind tokKind
	text string // identifier, keyword, number text, op, or decoded string
	pos  int
}

var keywords = map[string]bool{
	"AND": true, "OR": true, "NOT": true, "IN": true, "IS": true, "NULL": true,
	"TRUE": true, "FALSE": true, "NAN": true, "INF": true, "INFINITY": true,
}

// isKeyword reports whether s is a keyword (case-insensitive).
func isKeyword(s string) bool { return keywords[strings.ToUpper(s)] }

// isPlainIdent reports whether s is a non-empty identifier
// [A-Za-z_][A-Za-z0-9_]*.
func isPlainIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentByte(s[i], i == 0) {
			return false
		}
	}
	return true
}

// isIdentByte reports whether c may appear in an identifier.
func isIdentByte(c byte, first bool) bool {
	switch {
	case c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'):
		return true
	case c >= '0' && c <= '9':
		return !first
	}
	return false
}

// lex splits a filter string into tokens.
func lex(s string) ([]token, error) {
	var out []token
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		case (c == 'x' || c == 'X') && i+1 < len(s) && s[i+1] == '\'':
			t, n, err := lexQuoted(s, i+1, '\'')
			if err != nil {
				return nil, err
			}
			b, err := hex.DecodeString(t)
			if err != nil {
				return nil, fmt.Errorf("%w: bad hex literal at %d", ErrSyntax, i)
			}
			out, i = append(out, token{tokBytes, string(b), i}), n
			continue
		}
		t, n, err := lexOne(s, i)
		if err != nil {
			return nil, err
		}
		out, i = append(out, t), n
	}
	return append(out, token{kind: tokEOF, pos: len(s)}), nil
}

// lexOne reads the token at s[i:] and returns it and the next position.
func lexOne(s string, i int) (token, int, error) {
	c := s[i]
	switch {
	case isIdentByte(c, true):
		j := i + 1
		for j < len(s) && isIdentByte(s[j], false) {
			j++
		}
		if w := strings.ToUpper(s[i:j]); keywords[w] {
			return token{tokKeyword, w, i}, j, nil
		}
		return token{tokIdent, s[i:j], i}, j, nil
	case c >= '0' && c <= '9' || c == '.':
		j := lexNumber(s, i)
		return token{tokNumber, s[i:j], i}, j, nil
	case c == '\'' || c == '"':
		t, n, err := lexQuoted(s, i, c)
		kind := tokString
		if c == '"' {
			kind = tokIdent
		}
		return token{kind, t, i}, n, err
	}
	return lexPunct(s, i)
}

// lexPunct reads operators and punctuation.
func lexPunct(s string, i int) (token, int, error) {
	for _, op := range []string{"<=", ">=", "!=", "<>", "=", "<", ">"} {
		if strings.HasPrefix(s[i:], op) {
			if op == "<>" {
				op = "!="
			}
			return token{tokOp, op, i}, i + len(op), nil
		}
	}
	switch s[i] {
	case '(':
		return token{tokLParen, "(", i}, i + 1, nil
	case ')':
		return token{tokRParen, ")", i}, i + 1, nil
	case ',':
		return token{tokComma, ",", i}, i + 1, nil
	case '-':
		return token{tokMinus, "-", i}, i + 1, nil
	}
	return token{}, 0, fmt.Errorf("%w: unexpected %q at %d", ErrSyntax, s[i], i)
}

// lexNumber returns the end of the number starting at s[i]: digits, an
// optional fraction and an optional exponent.
func lexNumber(s string, i int) int {
	digits := func(j int) int {
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		return j
	}
	j := digits(i)
	if j < len(s) && s[j] == '.' {
		j = digits(j + 1)
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if e := digits(k); e > k {
			j = e
		}
	}
	return j
}

// lexQuoted reads a quoted string starting at s[i] == q, where a doubled q
// stands for one q. It returns the unquoted text and the next position.
func lexQuoted(s string, i int, q byte) (string, int, error) {
	var b strings.Builder
	for j := i + 1; j < len(s); j++ {
		if s[j] != q {
			b.WriteByte(s[j])
			continue
		}
		if j+1 < len(s) && s[j+1] == q {
			b.WriteByte(q)
			j++
			continue
		}
		return b.String(), j + 1, nil
	}
	return "", 0, fmt.Errorf("%w: unterminated quote at %d", ErrSyntax, i)
}
