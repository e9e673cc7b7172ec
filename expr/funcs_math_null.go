package expr

import (
	crand "crypto/rand"
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// coalesce, nvl, ifnull, nvl2, nullif, greatest, least (their arguments
// unified to one type as DataFusion's type_union_resolution does), and
// the volatile random() and uuid().

// unionType is the type a list of arguments is unified to: numbers as in
// arithmetic (a float wins; integers widen; decimals hold every digit), a
// string with a number becomes the number, strings stay strings (large
// when one is), a date with a timestamp gives a nanosecond timestamp.
func unionType(ts []arrow.DataType) (arrow.DataType, error) {
	var t arrow.DataType = arrow.Null
	for _, u := range ts {
		switch {
		case u.ID() == arrow.NULL, arrow.TypeEqual(t, u):
		case t.ID() == arrow.NULL:
			t = u
		case isNumeric(t) && isNumeric(u):
			switch {
			case isFloat(t) || isFloat(u):
				_, _, r, err := arithTypes(OpPlus, t, u)
				if err != nil {
					return nil, err
				}
				t = r
			case isDecimal(t) || isDecimal(u):
				t, _ = decimalCommonType(t, u)
			default:
				t = integerCommonType(t, u)
			}
		case isString(t) && isNumeric(u):
			t = u
		case isNumeric(t) && isString(u):
		case isString(t) && isString(u):
			t = arrow.BinaryTypes.LargeString
		case isBinary(t) && isBinary(u):
			t = arrow.BinaryTypes.Binary
		case isTemporal(t) && isTemporal(u):
			if (t.ID() == arrow.DATE32 && u.ID() == arrow.TIMESTAMP) || (u.ID() == arrow.DATE32 && t.ID() == arrow.TIMESTAMP) {
				tz := ""
				if x, ok := t.(*arrow.TimestampType); ok {
					tz = x.TimeZone
				} else if x, ok := u.(*arrow.TimestampType); ok {
					tz = x.TimeZone
				}
				t = &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: tz}
				continue
			}
			r, ok := temporalCommonType(t, u)
			if !ok {
				return nil, fmt.Errorf("no common type for %s and %s", dfTypeName(t), dfTypeName(u))
			}
			t = r
		default:
			return nil, fmt.Errorf("no common type for %s and %s", dfTypeName(t), dfTypeName(u))
		}
	}
	return t, nil
}

// unifyArgs casts args to their union type.
func (b *binder) unifyArgs(c *Call, args []node) ([]node, arrow.DataType, error) {
	ts := make([]arrow.DataType, len(args))
	for i, a := range args {
		ts[i] = a.dataType()
	}
	t, err := unionType(ts)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %s: %v (at %d)", ErrBind, c.Name, err, c.At)
	}
	out := make([]node, len(args))
	for i, a := range args {
		if a.dataType().ID() == arrow.NULL && t.ID() != arrow.NULL {
			out[i] = &constNode{val: nullOf(b.mem, t)}
			continue
		}
		if out[i], err = b.castTo(a, t, c.At); err != nil {
			return nil, nil, err
		}
	}
	return out, t, nil
}

// bindCoalesce binds coalesce(a, …): the first non-NULL argument.
func bindCoalesce(b *binder, c *Call, args []node) (node, error) {
	if len(args) == 0 {
		return nil, argCountError(c, "at least 1")
	}
	xs, t, err := b.unifyArgs(c, args)
	if err != nil {
		return nil, err
	}
	if t.ID() == arrow.NULL {
		return &constNode{val: arrowNullArray(1)}, nil
	}
	return &callNode{name: c.Name, args: xs, typ: t, k: func(ec *evalCtx, a []arrow.Array) (arrow.Array, error) {
		pick := make([]int32, ec.n)
		for i := range pick {
			pick[i] = -1
		}
		for j := len(a) - 1; j >= 0; j-- {
			bm, off, has := validBits(a[j])
			for i := range pick {
				if isValidAt(bm, off, has, i) {
					pick[i] = int32(j)
				}
			}
		}
		return selectRows(ec.mem, t, a, pick)
	}}, nil
}

// bindCoalesce2 binds nvl(a, b) and ifnull(a, b).
func bindCoalesce2(b *binder, c *Call, args []node) (node, error) {
	if err := wantArgs(c, args, 2, 2, "2"); err != nil {
		return nil, err
	}
	return bindCoalesce(b, c, args)
}

// bindNvl2 binds nvl2(a, b, c): b where a is not NULL, else c.
func bindNvl2(b *binder, c *Call, args []node) (node, error) {
	if err := wantArgs(c, args, 3, 3, "3"); err != nil {
		return nil, err
	}
	xs, t, err := b.unifyArgs(c, args[1:])
	if err != nil {
		return nil, err
	}
	if t.ID() == arrow.NULL {
		return &constNode{val: arrowNullArray(1)}, nil
	}
	return &callNode{name: c.Name, args: append([]node{args[0]}, xs...), typ: t, k: func(ec *evalCtx, a []arrow.Array) (arrow.Array, error) {
		pick := make([]int32, ec.n)
		cb, co, ch := validBits(a[0])
		for i := range pick {
			j := 2
			if isValidAt(cb, co, ch, i) {
				j = 1
			}
			bm, off, has := validBits(a[j])
			pick[i] = -1
			if isValidAt(bm, off, has, i) {
				pick[i] = int32(j)
			}
		}
		return selectRows(ec.mem, t, a, pick)
	}}, nil
}

// bindNullif binds nullif(a, b): NULL where a = b, else a.
func bindNullif(b *binder, c *Call, args []node) (node, error) {
	if err := wantArgs(c, args, 2, 2, "2"); err != nil {
		return nil, err
	}
	xs, t, err := b.unifyArgs(c, args)
	if err != nil {
		return nil, err
	}
	if t.ID() == arrow.NULL {
		return &constNode{val: arrowNullArray(1)}, nil
	}
	return &callNode{name: c.Name, args: xs, typ: t, k: func(ec *evalCtx, a []arrow.Array) (arrow.Array, error) {
		eq, err := compareArrays(ec, OpEq, a[0], a[1])
		if err != nil {
			return nil, err
		}
		w := words(eq)
		eq.Release()
		bm, off, has := validBits(a[0])
		pick := make([]int32, ec.n)
		for i := range pick {
			pick[i] = -1
			if isValidAt(bm, off, has, i) && (w.data[i>>6]&w.valid[i>>6])>>(i&63)&1 == 0 {
				pick[i] = 0
			}
		}
		return selectRows(ec.mem, t, a, pick)
	}}, nil
}

// bindGreatestLeast binds greatest(…) and least(…): NULLs are skipped;
// floats compare in the total order (NaN greatest).
func bindGreatestLeast(b *binder, c *Call, args []node) (node, error) {
	if len(args) == 0 {
		return nil, argCountError(c, "at least 1")
	}
	xs, t, err := b.unifyArgs(c, args)
	if err != nil {
		return nil, err
	}
	if t.ID() == arrow.NULL {
		return &constNode{val: arrowNullArray(1)}, nil
	}
	op := OpGt
	if c.Name == "least" {
		op = OpLt
	}
	return &callNode{name: c.Name, args: xs, typ: t, k: func(ec *evalCtx, a []arrow.Array) (arrow.Array, error) {
		pick := make([]int32, ec.n)
		bm, off, has := validBits(a[0])
		for i := range pick {
			pick[i] = -1
			if isValidAt(bm, off, has, i) {
				pick[i] = 0
			}
		}
		for j := 1; j < len(a); j++ {
			// Compare a[j] with the current choice, row by row: build
			// the current values first.
			cur, err := selectRows(ec.mem, t, a, pick)
			if err != nil {
				return nil, err
			}
			better, err := compareArrays(ec, op, a[j], cur)
			cur.Release()
			if err != nil {
				return nil, err
			}
			w := words(better)
			better.Release()
			jb, jo, jh := validBits(a[j])
			for i := range pick {
				if !isValidAt(jb, jo, jh, i) {
					continue
				}
				if pick[i] < 0 || (w.data[i>>6]&w.valid[i>>6])>>(i&63)&1 == 1 {
					pick[i] = int32(j)
				}
			}
		}
		return selectRows(ec.mem, t, a, pick)
	}}, nil
}

// selectRows builds the array whose row i is row i of as[pick[i]] (NULL
// for -1); every array has type t.
func selectRows(mem memory.Allocator, t arrow.DataType, as []arrow.Array, pick []int32) (arrow.Array, error) {
	n := len(pick)
	ns := nullSetter{mem: mem, n: n}
	for i, p := range pick {
		if p < 0 {
			ns.setNull(i)
		}
	}
	valid, nulls := ns.result()
	switch {
	case t.ID() == arrow.BOOL:
		data := make([]uint64, (n+63)/64)
		ws := make([]boolWords, len(as))
		for j, a := range as {
			ws[j] = words(a)
		}
		for i, p := range pick {
			if p >= 0 {
				data[i>>6] |= (ws[p].data[i>>6] >> (i & 63) & 1) << (i & 63)
			}
		}
		var vw []uint64
		if valid != nil {
			vw = make([]uint64, (n+63)/64)
			copyBits(vw, valid.Bytes(), 0, n)
			valid.Release()
		}
		return boolArrayFromWords(mem, data, vw, n), nil
	case isString(t) || isBinary(t) && t.ID() != arrow.FIXED_SIZE_BINARY:
		vs := make([]bytesView, len(as))
		for j, a := range as {
			vs[j] = bytesOf(a)
		}
		out := newCastStrOut(n)
		for i, p := range pick {
			if p >= 0 {
				out.data = append(out.data, vs[p].at(i)...)
			}
			out.end()
		}
		return out.finish(mem, t, valid, nulls)
	}
	fw, ok := t.(arrow.FixedWidthDataType)
	if !ok || fw.BitWidth()%8 != 0 {
		if valid != nil {
			valid.Release()
		}
		return nil, fmt.Errorf("%w: values of type %s", ErrUnsupported, t)
	}
	w := fw.BitWidth() / 8
	srcs := make([][]byte, len(as))
	for j, a := range as {
		d := a.Data()
		if b := d.Buffers()[1]; b != nil {
			srcs[j] = b.Bytes()[d.Offset()*w:]
		}
	}
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n * w)
	dst := buf.Bytes()
	for i, p := range pick {
		if p >= 0 && len(srcs[p]) >= (i+1)*w {
			copy(dst[i*w:(i+1)*w], srcs[p][i*w:(i+1)*w])
		}
	}
	return makePrimArray(t, n, buf, valid, nulls), nil
}

// bindRandom binds random(): a float64 in [0, 1) per row, from a
// generator seeded anew for each evaluation.
func bindRandom(b *binder, c *Call, args []node) (node, error) {
	if err := wantArgs(c, args, 0, 0, "no"); err != nil {
		return nil, err
	}
	return &callNode{name: c.Name, typ: arrow.PrimitiveTypes.Float64, k: func(ec *evalCtx, _ []arrow.Array) (arrow.Array, error) {
		var seed [16]byte
		if _, err := crand.Read(seed[:]); err != nil {
			return nil, fmt.Errorf("%w: random seed: %w", ErrEval, err)
		}
		r := rand.New(rand.NewPCG(binary.LittleEndian.Uint64(seed[:8]), binary.LittleEndian.Uint64(seed[8:])))
		buf, out := newPrimValues[float64](ec.mem, ec.n)
		for i := range out {
			out[i] = r.Float64()
		}
		return makePrimArray(arrow.PrimitiveTypes.Float64, ec.n, buf, nil, 0), nil
	}}, nil
}

// bindUUID binds uuid(): a random (version 4) UUID string per row.
func bindUUID(b *binder, c *Call, args []node) (node, error) {
	if err := wantArgs(c, args, 0, 0, "no"); err != nil {
		return nil, err
	}
	return &callNode{name: c.Name, typ: arrow.BinaryTypes.String, k: func(ec *evalCtx, _ []arrow.Array) (arrow.Array, error) {
		raw := make([]byte, 16*ec.n)
		if _, err := crand.Read(raw); err != nil {
			return nil, fmt.Errorf("%w: uuid: %w", ErrEval, err)
		}
		const hexdig = "0123456789abcdef"
		out := newCastStrOut(ec.n)
		out.data = make([]byte, 0, 36*ec.n)
		for i := 0; i < ec.n; i++ {
			u := raw[16*i : 16*i+16]
			u[6] = u[6]&0x0f | 0x40
			u[8] = u[8]&0x3f | 0x80
			for k, x := range u {
				if k == 4 || k == 6 || k == 8 || k == 10 {
					out.data = append(out.data, '-')
				}
				out.data = append(out.data, hexdig[x>>4], hexdig[x&15])
			}
			out.end()
		}
		return out.finish(ec.mem, arrow.BinaryTypes.String, nil, 0)
	}}, nil
}
