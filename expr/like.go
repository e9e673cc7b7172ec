package expr

import (
	"bytes"
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
)

// LIKE and ILIKE, as arrow-rs evaluates them for DataFusion: % matches
// any run of code points (newlines included), _ exactly one code point,
// a backslash makes the next code point literal (a trailing backslash is
// itself literal). ILIKE compares code points under Unicode simple case
// folding (É matches é, K matches the Kelvin sign), as the regex crate's
// case-insensitive mode does. ESCAPE '\' is accepted; another escape
// character is refused, as Lance refuses it. A constant pattern is
// compiled once at bind time into the cheapest matcher that fits it:
// equality, prefix, suffix, substring, a byte-level chain of substrings,
// or a code-point matcher for patterns with _ (or with case folding).
// Matching is linear in the pattern times the text, never exponential.

// bindLike binds x [NOT] LIKE|ILIKE pattern.
func (b *binder) bindLike(x *Like, xn, pn node) (node, error) {
	if x.Escape != 0 && x.Escape != '\\' {
		return nil, fmt.Errorf("%w: LIKE does not support escape_char other than the backslash (\\) (at %d)", ErrBind, x.At)
	}
	xt, pt := xn.dataType(), pn.dataType()
	if !likeOperand(xt) || !likeOperand(pt) || isBinary(xt) && isBinary(pt) {
		return nil, fmt.Errorf("%w: there isn't a common type to coerce %s and %s in LIKE expression (at %d)", ErrBind, xt, pt, x.At)
	}
	if xt.ID() == arrow.NULL || pt.ID() == arrow.NULL {
		return nullBool(b.mem), nil
	}
	var err error
	if isBinary(xt) {
		if xn, err = b.fold(&utf8Node{x: xn}, nil); err != nil {
			return nil, err
		}
	}
	if isBinary(pt) {
		if pn, err = b.fold(&utf8Node{x: pn}, nil); err != nil {
			return nil, err
		}
	}
	n := &likeNode{x: xn, pat: pn, not: x.Not, fold: x.CaseInsensitive}
	if c, ok := asConst(pn); ok {
		col := newStrCol(c.val, 1)
		p, valid := col.get(0)
		if !valid {
			return nullBool(b.mem), nil
		}
		n.m = compileLike(p, n.fold)
	}
	return n, nil
}

// likeOperand reports whether t can be an operand of LIKE (strings, and
// binaries read as UTF-8, as DataFusion's coercion allows).
func likeOperand(t arrow.DataType) bool {
	return isStringOrNull(t) || t.ID() == arrow.BINARY || t.ID() == arrow.LARGE_BINARY
}

// likeNode is x [NOT] LIKE|ILIKE pat. m is the compiled constant
// pattern (nil when the pattern comes from a column: it is compiled per
// row, reusing the last one).
type likeNode struct {
	x, pat node
	not    bool
	fold   bool // ILIKE
	m      *likeMatcher
}

func (n *likeNode) dataType() arrow.DataType { return arrow.FixedWidthTypes.Boolean }
func (n *likeNode) inputs() []node           { return []node{n.x, n.pat} }

// likePrefix returns the literal prefix every matching value starts
// with, when the node is a non-negated LIKE (or an ILIKE whose pattern
// has no cased letter) with a constant pattern of the form `prefix%` or
// an exact string (escapes resolved). Pruning uses it as a range.
func (n *likeNode) likePrefix() (prefix string, ok bool) {
	if n.not || n.m == nil || n.m.fold {
		return "", false
	}
	switch n.m.kind {
	case likeExact, likeStartsWith:
		return string(n.m.lit), true
	case likeAll:
		return "", true
	}
	return "", false
}

func (n *likeNode) eval(ec *evalCtx) (arrow.Array, error) {
	args := []node{n.x}
	if n.m == nil {
		args = append(args, n.pat)
	}
	in, err := evalArgsUnbroadcast(ec, args)
	if err != nil {
		return nil, err
	}
	defer releaseArrays(in)
	xs := newStrCol(in[0], ec.n)
	out := newBoolOut(ec.n)
	var buf likeScratch
	if n.m != nil {
		for i := 0; i < ec.n; i++ {
			v, ok := xs.get(i)
			if !ok {
				out.null(i)
				continue
			}
			out.set(i, n.m.match(v, &buf) != n.not)
		}
		return out.finish(ec.mem), nil
	}
	ps := newStrCol(in[1], ec.n)
	var m *likeMatcher
	var last []byte
	for i := 0; i < ec.n; i++ {
		v, ok1 := xs.get(i)
		p, ok2 := ps.get(i)
		if !ok1 || !ok2 {
			out.null(i)
			continue
		}
		if m == nil || !bytes.Equal(p, last) {
			m, last = compileLike(p, n.fold), p
		}
		out.set(i, m.match(v, &buf) != n.not)
	}
	return out.finish(ec.mem), nil
}

// likeKind is the shape of a compiled pattern.
type likeKind uint8

const (
	likeAll        likeKind = iota // only %: any value
	likeExact                      // no wildcard
	likeStartsWith                 // lit%
	likeEndsWith                   // %lit
	likeContains                   // %lit%
	likeBytes                      // parts without _, compared as bytes
	likeRunes                      // parts with _ (or folded), compared as code points
)

// anyRune stands for _ in a part.
const anyRune rune = -1

// likeMatcher is a compiled LIKE pattern.
type likeMatcher struct {
	kind   likeKind
	fold   bool     // compare case-folded code points
	lit    []byte   // likeExact … likeContains
	bparts [][]byte // likeBytes: the pattern split at %
	parts  [][]rune // likeRunes: the pattern split at %, _ as anyRune, folded when fold
	// ascii matches ASCII text for a folded ASCII pattern: the pattern
	// lower-cased, compared exactly with the text lower-cased (on ASCII
	// text, simple case folding is ASCII case folding).
	ascii *likeMatcher
}

// isASCII reports whether v has only ASCII bytes.
func isASCII(v []byte) bool {
	for _, c := range v {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// compileLike compiles a LIKE pattern (fold: ILIKE).
func compileLike(p []byte, fold bool) *likeMatcher {
	var parts [][]rune
	cur := []rune{}
	underscore := false
	for i := 0; i < len(p); {
		r, w := utf8.DecodeRune(p[i:])
		i += w
		switch r {
		case '\\':
			if i < len(p) {
				r, w = utf8.DecodeRune(p[i:])
				i += w
			}
			cur = append(cur, r)
		case '%':
			parts = append(parts, cur)
			cur = []rune{}
		case '_':
			cur = append(cur, anyRune)
			underscore = true
		default:
			cur = append(cur, r)
		}
	}
	parts = append(parts, cur)
	if len(parts) > 2 { // %% and empty middles match what % does
		kept := parts[:1]
		for _, part := range parts[1 : len(parts)-1] {
			if len(part) > 0 {
				kept = append(kept, part)
			}
		}
		parts = append(kept, parts[len(parts)-1])
	}
	if fold && !hasCasedRune(parts) {
		fold = false // folding changes nothing: compare exactly
	}
	m := &likeMatcher{fold: fold}
	if fold && isASCII(p) {
		m.ascii = compileLike(bytes.ToLower(p), false)
	}
	if fold || underscore {
		m.kind = likeRunes
		if fold {
			for _, part := range parts {
				for k, r := range part {
					if r != anyRune {
						part[k] = foldCanon(r)
					}
				}
			}
		}
		m.parts = parts
		if len(parts) >= 2 && allEmpty(parts) {
			m.kind = likeAll
		}
		return m
	}
	bparts := make([][]byte, len(parts))
	for k, part := range parts {
		bparts[k] = []byte(string(part))
	}
	switch {
	case len(parts) == 1:
		m.kind, m.lit = likeExact, bparts[0]
	case allEmpty(parts):
		m.kind = likeAll
	case len(parts) == 2 && len(parts[1]) == 0:
		m.kind, m.lit = likeStartsWith, bparts[0]
	case len(parts) == 2 && len(parts[0]) == 0:
		m.kind, m.lit = likeEndsWith, bparts[1]
	case len(parts) == 3 && len(parts[0]) == 0 && len(parts[2]) == 0:
		m.kind, m.lit = likeContains, bparts[1]
	default:
		m.kind, m.bparts = likeBytes, bparts
	}
	return m
}

func allEmpty(parts [][]rune) bool {
	for _, p := range parts {
		if len(p) > 0 {
			return false
		}
	}
	return true
}

// hasCasedRune reports whether a literal code point of the parts has
// other case variants (so folding matters).
func hasCasedRune(parts [][]rune) bool {
	for _, part := range parts {
		for _, r := range part {
			if r != anyRune && unicode.SimpleFold(r) != r {
				return true
			}
		}
	}
	return false
}

// foldCanon returns the smallest code point of r's simple case folding
// orbit: two code points are equal ignoring case when their foldCanon
// are equal.
func foldCanon(r rune) rune {
	if r < utf8.RuneSelf {
		if 'a' <= r && r <= 'z' {
			return r - ('a' - 'A')
		}
		return r
	}
	m := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f < m {
			m = f
		}
	}
	return m
}

// likeScratch is scratch space reused between matches.
type likeScratch struct {
	runes []rune
	lower []byte
}

// match reports whether v matches.
func (m *likeMatcher) match(v []byte, buf *likeScratch) bool {
	if m.ascii != nil && isASCII(v) {
		lower := buf.lower[:0]
		for _, c := range v {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			lower = append(lower, c)
		}
		buf.lower = lower
		return m.ascii.match(lower, buf)
	}
	switch m.kind {
	case likeAll:
		return true
	case likeExact:
		return bytes.Equal(v, m.lit)
	case likeStartsWith:
		return bytes.HasPrefix(v, m.lit)
	case likeEndsWith:
		return bytes.HasSuffix(v, m.lit)
	case likeContains:
		return bytes.Contains(v, m.lit)
	case likeBytes:
		return matchBytes(v, m.bparts)
	}
	if !m.fold && isASCII(v) { // a code point is a byte
		return matchRunes(v, m.parts)
	}
	t := buf.runes[:0]
	for len(v) > 0 {
		r, w := utf8.DecodeRune(v)
		if m.fold {
			r = foldCanon(r)
		}
		t = append(t, r)
		v = v[w:]
	}
	buf.runes = t
	return matchRunes(t, m.parts)
}

// matchBytes matches parts (the pattern split at %, at least two) as
// bytes: the first is a prefix, the last a suffix, the middle ones
// found left to right in between.
func matchBytes(t []byte, parts [][]byte) bool {
	p0, pl := parts[0], parts[len(parts)-1]
	if len(t) < len(p0)+len(pl) || !bytes.HasPrefix(t, p0) || !bytes.HasSuffix(t, pl) {
		return false
	}
	mid := t[len(p0) : len(t)-len(pl)]
	for _, part := range parts[1 : len(parts)-1] {
		k := bytes.Index(mid, part)
		if k < 0 {
			return false
		}
		mid = mid[k+len(part):]
	}
	return true
}

// matchRunes is matchBytes over code points (or ASCII bytes), where
// anyRune matches any.
func matchRunes[T byte | rune](t []T, parts [][]rune) bool {
	p0 := parts[0]
	if len(parts) == 1 {
		return len(t) == len(p0) && runesAt(t, 0, p0)
	}
	pl := parts[len(parts)-1]
	if len(t) < len(p0)+len(pl) || !runesAt(t, 0, p0) || !runesAt(t, len(t)-len(pl), pl) {
		return false
	}
	pos, end := len(p0), len(t)-len(pl)
	for _, part := range parts[1 : len(parts)-1] {
		k := indexRunes(t[pos:end], part)
		if k < 0 {
			return false
		}
		pos += k + len(part)
	}
	return true
}

// runesAt reports whether part matches t at i (t has room for it).
func runesAt[T byte | rune](t []T, i int, part []rune) bool {
	for k, r := range part {
		if r != anyRune && rune(t[i+k]) != r {
			return false
		}
	}
	return true
}

// indexRunes returns the first position of part in t, or -1.
func indexRunes[T byte | rune](t []T, part []rune) int {
	for i := 0; i+len(part) <= len(t); i++ {
		if runesAt(t, i, part) {
			return i
		}
	}
	return -1
}
