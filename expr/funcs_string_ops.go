package expr

import (
	"bytes"
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
)

// Kernels of the plain string functions (lengths, predicates, padding,
// trimming, splitting), with DataFusion's semantics: positions and
// lengths count code points, NULL in any argument gives NULL (concat
// and concat_ws skip NULL values instead).

// strToInt is the kernel of a function from one string to an integer.
func strToInt(typ arrow.DataType, f func([]byte) int64) strKernel {
	return func(ec *evalCtx, in []arrow.Array) (arrow.Array, error) {
		col := newStrCol(in[0], ec.n)
		vals := make([]int64, ec.n)
		var valid []uint64
		for i := range vals {
			v, ok := col.get(i)
			if !ok {
				valid = clearBit(valid, i, ec.n)
				continue
			}
			vals[i] = f(v)
		}
		return intResult(ec.mem, typ, vals, valid), nil
	}
}

// clearBit clears bit i of valid (allocated all set on first use).
func clearBit(valid []uint64, i, n int) []uint64 {
	if valid == nil {
		valid = allValid(n)
	}
	valid[i>>6] &^= 1 << (i & 63)
	return valid
}

// strToStr is the kernel of a function from one string to a string; f
// appends the result for v to dst.
func strToStr(typ arrow.DataType, f func(dst, v []byte) []byte) strKernel {
	return func(ec *evalCtx, in []arrow.Array) (arrow.Array, error) {
		col := newStrCol(in[0], ec.n)
		out := newStrOut(ec.n, 0)
		for i := 0; i < ec.n; i++ {
			v, ok := col.get(i)
			if !ok {
				out.null()
				continue
			}
			out.data = f(out.data, v)
			out.commit()
		}
		return out.finish(ec.mem, typ)
	}
}

func bindCharLength(b *binder, c *Call, args []node) (node, error) {
	if err := argRange(c, 1, 1); err != nil {
		return nil, err
	}
	if err := b.toStringArg(c, args, 0); err != nil {
		return nil, err
	}
	typ := lengthType(args[0].dataType())
	return newStrFunc(c, args, typ, strToInt(typ, func(v []byte) int64 { return int64(utf8.RuneCount(v)) })), nil
}

func bindOctetLength(b *binder, c *Call, args []node) (node, error) {
	if err := argRange(c, 1, 1); err != nil {
		return nil, err
	}
	if err := wantStrings(c, args, 0); err != nil {
		return nil, err
	}
	typ := lengthType(args[0].dataType())
	scale := int64(1)
	if c.Name == "bit_length" {
		scale = 8
	}
	return newStrFunc(c, args, typ, strToInt(typ, func(v []byte) int64 { return scale * int64(len(v)) })), nil
}

func bindASCII(b *binder, c *Call, args []node) (node, error) {
	if err := argRange(c, 1, 1); err != nil {
		return nil, err
	}
	if err := wantStrings(c, args, 0); err != nil {
		return nil, err
	}
	typ := arrow.PrimitiveTypes.Int32
	return newStrFunc(c, args, typ, strToInt(typ, func(v []byte) int64 {
		if len(v) == 0 {
			return 0
		}
		r, _ := utf8.DecodeRune(v)
		return int64(r)
	})), nil
}

// bindStrPredicate binds starts_with, ends_with and contains.
func bindStrPredicate(b *binder, c *Call, args []node) (node, error) {
	if err := argRange(c, 2, 2); err != nil {
		return nil, err
	}
	if err := wantStrings(c, args, 0, 1); err != nil {
		return nil, err
	}
	test := bytes.HasPrefix
	switch c.Name {
	case "ends_with":
		test = bytes.HasSuffix
	case "contains":
		test = bytes.Contains
	}
	return newStrFunc(c, args, arrow.FixedWidthTypes.Boolean, func(ec *evalCtx, in []arrow.Array) (arrow.Array, error) {
		s, p := newStrCol(in[0], ec.n), newStrCol(in[1], ec.n)
		out := newBoolOut(ec.n)
		for i := 0; i < ec.n; i++ {
			sv, ok1 := s.get(i)
			pv, ok2 := p.get(i)
			if !ok1 || !ok2 {
				out.null(i)
				continue
			}
			out.set(i, test(sv, pv))
		}
		return out.finish(ec.mem), nil
	}), nil
}

// bindStrpos binds strpos(s, sub) (and instr): the 1-based code-point
// position of the first sub in s, 0 when absent, 1 for an empty sub.
func bindStrpos(b *binder, c *Call, args []node) (node, error) {
	if err := argRange(c, 2, 2); err != nil {
		return nil, err
	}
	if err := wantStrings(c, args, 0, 1); err != nil {
		return nil, err
	}
	typ := lengthType(args[0].dataType())
	return newStrFunc(c, args, typ, func(ec *evalCtx, in []arrow.Array) (arrow.Array, error) {
		s, p := newStrCol(in[0], ec.n), newStrCol(in[1], ec.n)
		vals := make([]int64, ec.n)
		var valid []uint64
		for i := range vals {
			sv, ok1 := s.get(i)
			pv, ok2 := p.get(i)
			if !ok1 || !ok2 {
				valid = clearBit(valid, i, ec.n)
				continue
			}
			if k := bytes.Index(sv, pv); k >= 0 {
				vals[i] = int64(utf8.RuneCount(sv[:k])) + 1
			}
		}
		return intResult(ec.mem, typ, vals, valid), nil
	}), nil
}

// widestString is LargeUtf8 when any argument is, else Utf8.
func widestString(args []node) arrow.DataType {
	for _, a := range args {
		if a.dataType().ID() == arrow.LARGE_STRING {
			return arrow.BinaryTypes.LargeString
		}
	}
	return arrow.BinaryTypes.String
}

// bindConcat binds concat(a, …): every argument cast to a string, NULL
// values skipped, never NULL.
func bindConcat(b *binder, c *Call, args []node) (node, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("%w: 'concat' does not support zero arguments (at %d)", ErrBind, c.At)
	}
	for i := range args {
		if err := b.toStringArg(c, args, i); err != nil {
			return nil, err
		}
	}
	return newStrFunc(c, args, widestString(args), func(ec *evalCtx, in []arrow.Array) (arrow.Array, error) {
		cols := make([]strCol, len(in))
		for i, a := range in {
			cols[i] = newStrCol(a, ec.n)
		}
		out := newStrOut(ec.n, 0)
		for i := 0; i < ec.n; i++ {
			for k := range cols {
				if v, ok := cols[k].get(i); ok {
					out.data = append(out.data, v...)
				}
			}
			out.commit()
		}
		return out.finish(ec.mem, widestString(args))
	}), nil
}

// bindConcatWs binds concat_ws(sep, a, …): NULL when sep is, NULL values
// skipped with their separator.
func bindConcatWs(b *binder, c *Call, args []node) (node, error) {
	if len(args) < 2 {
		return nil, argCountError(c, "at least 2")
	}
	for i := range args {
		if err := b.toStringArg(c, args, i); err != nil {
			return nil, err
		}
	}
	typ := widestString(args)
	return newStrFunc(c, args, typ, func(ec *evalCtx, in []arrow.Array) (arrow.Array, error) {
		cols := make([]strCol, len(in))
		for i, a := range in {
			cols[i] = newStrCol(a, ec.n)
		}
		out := newStrOut(ec.n, 0)
		for i := 0; i < ec.n; i++ {
			sep, ok := cols[0].get(i)
			if !ok {
				out.null()
				continue
			}
			first := true
			for k := 1; k < len(cols); k++ {
				if v, ok := cols[k].get(i); ok {
					if !first {
						out.data = append(out.data, sep...)
					}
					out.data = append(out.data, v...)
					first = false
				}
			}
			out.commit()
		}
		return out.finish(ec.mem, typ)
	}), nil
}

// bindReplace binds replace(s, from, to): every from replaced; an empty
// from matches before every code point and at the end.
func bindReplace(b *binder, c *Call, args []node) (node, error) {
	if err := argRange(c, 3, 3); err != nil {
		return nil, err
	}
	if err := wantStrings(c, args, 0, 1, 2); err != nil {
		return nil, err
	}
	typ := widestString(args)
	return newStrFunc(c, args, typ, func(ec *evalCtx, in []arrow.Array) (arrow.Array, error) {
		s, f, t := newStrCol(in[0], ec.n), newStrCol(in[1], ec.n), newStrCol(in[2], ec.n)
		out := newStrOut(ec.n, 0)
		for i := 0; i < ec.n; i++ {
			sv, ok1 := s.get(i)
			fv, ok2 := f.get(i)
			tv, ok3 := t.get(i)
			if !ok1 || !ok2 || !ok3 {
				out.null()
				continue
			}
			out.data = appendReplace(out.data, sv, fv, tv)
			out.commit()
		}
		return out.finish(ec.mem, typ)
	}), nil
}

// appendReplace appends s with every old replaced by new.
func appendReplace(dst, s, old, new []byte) []byte {
	if len(old) == 0 {
		dst = append(dst, new...)
		for len(s) > 0 {
			_, w := utf8.DecodeRune(s)
			dst = append(dst, s[:w]...)
			dst = append(dst, new...)
			s = s[w:]
		}
		return dst
	}
	for {
		k := bytes.Index(s, old)
		if k < 0 {
			return append(dst, s...)
		}
		dst = append(dst, s[:k]...)
		dst = append(dst, new...)
		s = s[k+len(old):]
	}
}

// bindSplitPart binds split_part(s, delim, n): the n-th field (1-based,
// negative from the end), ” past the ends; n = 0 fails; an empty delim
// makes s the only field.
func bindSplitPart(b *binder, c *Call, args []node) (node, error) {
	if err := argRange(c, 3, 3); err != nil {
		return nil, err
	}
	if err := wantStrings(c, args, 0, 1); err != nil {
		return nil, err
	}
	if err := wantInts(c, args, 2); err != nil {
		return nil, err
	}
	typ := stringResultType(args[0].dataType())
	return newStrFunc(c, args, typ, func(ec *evalCtx, in []arrow.Array) (arrow.Array, error) {
		s, d := newStrCol(in[0], ec.n), newStrCol(in[1], ec.n)
		pos, err := newIntCol(in[2], ec.n)
		if err != nil {
			return nil, err
		}
		out := newStrOut(ec.n, 0)
		for i := 0; i < ec.n; i++ {
			sv, ok1 := s.get(i)
			dv, ok2 := d.get(i)
			n, ok3 := pos.get(i)
			if !ok1 || !ok2 || !ok3 {
				out.null()
				continue
			}
			if n == 0 {
				return nil, fmt.Errorf("%w: field position must not be zero", ErrEval)
			}
			out.add(splitField(sv, dv, n))
		}
		return out.finish(ec.mem, typ)
	}), nil
}

// splitField returns field n (1-based; negative counts from the end) of
// s split at delim, or nil.
func splitField(s, delim []byte, n int64) []byte {
	if len(delim) == 0 {
		if n == 1 || n == -1 {
			return s
		}
		return nil
	}
	if n > 0 {
		for ; n > 1; n-- {
			k := bytes.Index(s, delim)
			if k < 0 {
				return nil
			}
			s = s[k+len(delim):]
		}
		if k := bytes.Index(s, delim); k >= 0 {
			return s[:k]
		}
		return s
	}
	for ; n < -1; n++ {
		k := bytes.LastIndex(s, delim)
		if k < 0 {
			return nil
		}
		s = s[:k]
	}
	if k := bytes.LastIndex(s, delim); k >= 0 {
		return s[k+len(delim):]
	}
	return s
}

// bindTrim binds btrim, ltrim and rtrim (s[, characters]): the
// characters default to a space.
func bindTrim(b *binder, c *Call, args []node) (node, error) {
	if err := argRange(c, 1, 2); err != nil {
		return nil, err
	}
	if err := wantStrings(c, args, 0, 1); err != nil {
		return nil, err
	}
	typ := stringResultType(args[0].dataType())
	name := c.Name
	return newStrFunc(c, args, typ, func(ec *evalCtx, in []arrow.Array) (arrow.Array, error) {
		s := newStrCol(in[0], ec.n)
		var set strCol
		if len(in) > 1 {
			set = newStrCol(in[1], ec.n)
		}
		out := newStrOut(ec.n, 0)
		for i := 0; i < ec.n; i++ {
			sv, ok := s.get(i)
			cut := " "
			if len(in) > 1 {
				cv, ok2 := set.get(i)
				ok = ok && ok2
				cut = bytesString(cv)
			}
			if !ok {
				out.null()
				continue
			}
			if name != "rtrim" {
				sv = bytes.TrimLeft(sv, cut)
			}
			if name != "ltrim" {
				sv = bytes.TrimRight(sv, cut)
			}
			out.add(sv)
		}
		return out.finish(ec.mem, typ)
	}), nil
}

// bindReverse binds reverse(s): the code points in reverse order.
func bindReverse(b *binder, c *Call, args []node) (node, error) {
	if err := argRange(c, 1, 1); err != nil {
		return nil, err
	}
	if err := b.toStringArg(c, args, 0); err != nil {
		return nil, err
	}
	typ := stringResultType(args[0].dataType())
	return newStrFunc(c, args, typ, strToStr(typ, func(dst, v []byte) []byte {
		for len(v) > 0 {
			_, w := utf8.DecodeLastRune(v)
			dst = append(dst, v[len(v)-w:]...)
			v = v[:len(v)-w]
		}
		return dst
	})), nil
}

// bindRepeat binds repeat(s, n): ” for n <= 0.
func bindRepeat(b *binder, c *Call, args []node) (node, error) {
	if err := argRange(c, 2, 2); err != nil {
		return nil, err
	}
	if err := wantStrings(c, args, 0); err != nil {
		return nil, err
	}
	if err := wantInts(c, args, 1); err != nil {
		return nil, err
	}
	typ := stringResultType(args[0].dataType())
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
			if n > 0 && len(sv) > 0 {
				if n > maxValueBytes/int64(len(sv)) || len(out.data)+int(n)*len(sv) > maxValueBytes {
					return nil, fmt.Errorf("%w: string size overflow on repeat, max size is %d, but got %s",
						ErrEval, maxValueBytes, mulString(int64(len(sv)), n))
				}
				for k := int64(0); k < n; k++ {
					out.data = append(out.data, sv...)
				}
			}
			out.commit()
		}
		return out.finish(ec.mem, typ)
	}), nil
}

// mulString renders a*b (both positive) without overflowing.
func mulString(a, b int64) string {
	if b != 0 && a > math.MaxInt64/b {
		return fmt.Sprintf("%d*%d", a, b)
	}
	return fmt.Sprint(a * b)
}
