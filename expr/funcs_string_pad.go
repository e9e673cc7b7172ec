package expr

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Padding, cutting, translating and splitting strings, and Lance's
// contains_tokens.

// bindPad binds lpad and rpad (s, n[, fill]): s cut or padded to n code
// points with fill (a space by default) repeated; an empty fill leaves s
// as it is; n <= 0 gives ”.
func bindPad(b *binder, c *Call, args []node) (node, error) {
	if err := argRange(c, 2, 3); err != nil {
		return nil, err
	}
	if err := b.toStringArg(c, args, 0); err != nil {
		return nil, err
	}
	if err := wantInts(c, args, 1); err != nil {
		return nil, err
	}
	if len(args) > 2 {
		if err := b.toStringArg(c, args, 2); err != nil {
			return nil, err
		}
	}
	typ := stringResultType(args[0].dataType())
	left := c.Name == "lpad"
	return newStrFunc(c, args, typ, func(ec *evalCtx, in []arrow.Array) (arrow.Array, error) {
		s := newStrCol(in[0], ec.n)
		cnt, err := newIntCol(in[1], ec.n)
		if err != nil {
			return nil, err
		}
		var fillCol strCol
		if len(in) > 2 {
			fillCol = newStrCol(in[2], ec.n)
		}
		out := newStrOut(ec.n, 0)
		for i := 0; i < ec.n; i++ {
			sv, ok := s.get(i)
			n, ok2 := cnt.get(i)
			fill := []byte{' '}
			if len(in) > 2 {
				var ok3 bool
				fill, ok3 = fillCol.get(i)
				ok2 = ok2 && ok3
			}
			if !ok || !ok2 {
				out.null()
				continue
			}
			if n > maxValueBytes {
				return nil, fmt.Errorf("%w: %s requested length %d too large, maximum allowed length is %d", ErrEval, c.Name, n, maxValueBytes)
			}
			if n <= 0 {
				out.commit()
				continue
			}
			runes := utf8.RuneCount(sv)
			if int64(runes) >= n || len(fill) == 0 {
				out.add(prefixRunes(sv, int(n)))
				continue
			}
			need := int(n) - runes
			fr := utf8.RuneCount(fill)
			if len(out.data)+len(sv)+need/fr*len(fill)+len(prefixRunes(fill, need%fr)) > maxValueBytes {
				return nil, fmt.Errorf("%w: %s: result of more than %d bytes", ErrEval, c.Name, maxValueBytes)
			}
			if !left {
				out.data = append(out.data, sv...)
			}
			out.data = appendFill(out.data, fill, need)
			if left {
				out.data = append(out.data, sv...)
			}
			out.commit()
		}
		return out.finish(ec.mem, typ)
	}), nil
}

// appendFill appends the first n code points of fill repeated.
func appendFill(dst, fill []byte, n int) []byte {
	f := fill
	for ; n > 0; n-- {
		if len(f) == 0 {
			f = fill
		}
		_, w := utf8.DecodeRune(f)
		dst = append(dst, f[:w]...)
		f = f[w:]
	}
	return dst
}

// prefixRunes returns the first n code points of s.
func prefixRunes(s []byte, n int) []byte {
	i := 0
	for ; n > 0 && i < len(s); n-- {
		_, w := utf8.DecodeRune(s[i:])
		i += w
	}
	return s[:i]
}

// suffixRunes returns the last n code points of s.
func suffixRunes(s []byte, n int) []byte {
	i := len(s)
	for ; n > 0 && i > 0; n-- {
		_, w := utf8.DecodeLastRune(s[:i])
		i -= w
	}
	return s[i:]
}

// bindLeftRight binds left(s, n) and right(s, n): the first (last) n
// code points; a negative n drops -n code points from the other end.
func bindLeftRight(b *binder, c *Call, args []node) (node, error) {
	if err := argRange(c, 2, 2); err != nil {
		return nil, err
	}
	if err := b.toStringArg(c, args, 0); err != nil {
		return nil, err
	}
	if err := wantInts(c, args, 1); err != nil {
		return nil, err
	}
	typ := stringResultType(args[0].dataType())
	isLeft := c.Name == "left"
	return newStrFunc(c, args, typ, func(ec *evalCtx, in []arrow.Array) (arrow.Array, error) {
		s := newStrCol(in[0], ec.n)
		cnt, err := newIntCol(in[1], ec.n)
		if err != nil {
			return nil, err
		}
		out := newStrOut(ec.n, 0)
		for i := 0; i < ec.n; i++ {
			sv, ok1 := s.get(i)
			n, ok2 := cnt.get(i)
			if !ok1 || !ok2 {
				out.null()
				continue
			}
			runes := int64(utf8.RuneCount(sv))
			keep := n
			if n < 0 {
				keep = runes + n // n > -runes keeps something
				if n < -runes {
					keep = 0
				}
			}
			keep = min(keep, runes)
			if isLeft {
				out.add(prefixRunes(sv, int(keep)))
			} else {
				out.add(suffixRunes(sv, int(keep)))
			}
		}
		return out.finish(ec.mem, typ)
	}), nil
}

// bindTranslate binds translate(s, from, to): every code point of s
// found in from (its first occurrence) becomes the code point of to at
// the same position, or is dropped when to is shorter.
func bindTranslate(b *binder, c *Call, args []node) (node, error) {
	if err := argRange(c, 3, 3); err != nil {
		return nil, err
	}
	for i := range args {
		if err := b.toStringArg(c, args, i); err != nil {
			return nil, err
		}
	}
	typ := stringResultType(args[0].dataType())
	return newStrFunc(c, args, typ, func(ec *evalCtx, in []arrow.Array) (arrow.Array, error) {
		s, f, t := newStrCol(in[0], ec.n), newStrCol(in[1], ec.n), newStrCol(in[2], ec.n)
		out := newStrOut(ec.n, 0)
		var lastF, lastT []byte
		var from, to []rune
		for i := 0; i < ec.n; i++ {
			sv, ok1 := s.get(i)
			fv, ok2 := f.get(i)
			tv, ok3 := t.get(i)
			if !ok1 || !ok2 || !ok3 {
				out.null()
				continue
			}
			if from == nil || !bytes.Equal(fv, lastF) || !bytes.Equal(tv, lastT) {
				from, to = append(from[:0], []rune(string(fv))...), append(to[:0], []rune(string(tv))...)
				lastF, lastT = fv, tv
				if from == nil {
					from = []rune{}
				}
			}
			for len(sv) > 0 {
				r, w := utf8.DecodeRune(sv)
				k := indexRune(from, r)
				switch {
				case k < 0:
					out.data = append(out.data, sv[:w]...)
				case k < len(to):
					out.data = utf8.AppendRune(out.data, to[k])
				}
				sv = sv[w:]
			}
			out.commit()
		}
		return out.finish(ec.mem, typ)
	}), nil
}

func indexRune(rs []rune, r rune) int {
	for i, x := range rs {
		if x == r {
			return i
		}
	}
	return -1
}

// bindStringToArray binds string_to_array(s, delim[, null_str]): the
// fields of s as a list of strings; a NULL delim splits into code
// points, an empty one gives [s]; an empty s gives []; fields equal to
// null_str become NULL.
func bindStringToArray(b *binder, c *Call, args []node) (node, error) {
	if err := argRange(c, 2, 3); err != nil {
		return nil, err
	}
	if err := wantStrings(c, args, 0, 1, 2); err != nil {
		return nil, err
	}
	elem := stringResultType(args[0].dataType())
	typ := arrow.ListOf(elem)
	return newStrFunc(c, args, typ, func(ec *evalCtx, in []arrow.Array) (arrow.Array, error) {
		s, d := newStrCol(in[0], ec.n), newStrCol(in[1], ec.n)
		var ns strCol
		if len(in) > 2 {
			ns = newStrCol(in[2], ec.n)
		} else {
			ns.null = true
		}
		lb := array.NewListBuilder(ec.mem, elem)
		defer lb.Release()
		vb := lb.ValueBuilder().(array.StringLikeBuilder)
		for i := 0; i < ec.n; i++ {
			sv, ok := s.get(i)
			if !ok {
				lb.AppendNull()
				continue
			}
			dv, hasDelim := d.get(i)
			nv, hasNull := ns.get(i)
			lb.Append(true)
			if len(sv) == 0 {
				continue
			}
			add := func(f []byte) {
				if hasNull && bytes.Equal(f, nv) {
					vb.AppendNull()
				} else {
					vb.Append(bytesString(f))
				}
			}
			switch {
			case !hasDelim:
				for len(sv) > 0 {
					_, w := utf8.DecodeRune(sv)
					add(sv[:w])
					sv = sv[w:]
				}
			case len(dv) == 0:
				add(sv)
			default:
				for {
					k := bytes.Index(sv, dv)
					if k < 0 {
						add(sv)
						break
					}
					add(sv[:k])
					sv = sv[k+len(dv):]
				}
			}
		}
		return lb.NewArray(), nil
	}), nil
}

// bindContainsTokens binds Lance's contains_tokens(text, query): TRUE
// when every token of the query is a token of text, tokens being the
// runs of alphanumeric code points (case-sensitive). As in Lance, the
// query is read from the first row of its argument only.
func bindContainsTokens(b *binder, c *Call, args []node) (node, error) {
	if err := argRange(c, 2, 2); err != nil {
		return nil, err
	}
	for i := range args {
		if err := b.toStringArg(c, args, i); err != nil {
			return nil, err
		}
	}
	return newStrFunc(c, args, arrow.FixedWidthTypes.Boolean, func(ec *evalCtx, in []arrow.Array) (arrow.Array, error) {
		s, q := newStrCol(in[0], ec.n), newStrCol(in[1], ec.n)
		var want [][]byte
		if qv, ok := q.get(0); ok {
			want = tokens(qv, nil)
		}
		out := newBoolOut(ec.n)
		var have [][]byte
		for i := 0; i < ec.n; i++ {
			sv, ok := s.get(i)
			if !ok {
				out.null(i)
				continue
			}
			have = tokens(sv, have[:0])
			all := true
			for _, w := range want {
				if !containsToken(have, w) {
					all = false
					break
				}
			}
			out.set(i, all)
		}
		return out.finish(ec.mem), nil
	}), nil
}

// tokens appends to dst the runs of alphanumeric code points of s.
func tokens(s []byte, dst [][]byte) [][]byte {
	start := -1
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRune(s[i:])
		if isAlnumRust(r) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			dst = append(dst, s[start:i])
			start = -1
		}
		i += w
	}
	if start >= 0 {
		dst = append(dst, s[start:])
	}
	return dst
}

func containsToken(ts [][]byte, t []byte) bool {
	for _, x := range ts {
		if bytes.Equal(x, t) {
			return true
		}
	}
	return false
}
