package expr

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
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

// bindCoalesce binds coalesce(a, …): the first non-NULL argument. As in
// DataFusion (a CASE underneath), an argument is needed only for the rows
// the earlier ones leave NULL: when evaluating it over the whole batch
// fails, it is evaluated again over those rows alone.
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
	return &coalesceNode{args: xs, typ: t}, nil
}

// coalesceNode is coalesce over arguments of type typ.
type coalesceNode struct {
	args []node
	typ  arrow.DataType
}

func (c *coalesceNode) dataType() arrow.DataType { return c.typ }
func (c *coalesceNode) inputs() []node           { return c.args }

func (c *coalesceNode) eval(ec *evalCtx) (arrow.Array, error) {
	pick := make([]int32, ec.n)
	for i := range pick {
		pick[i] = -1
	}
	vals := make([]arrow.Array, 0, len(c.args))
	defer func() { releaseArrays(vals) }()
	var rows [][]int32
	open := ec.n
	for j, arg := range c.args {
		if open == 0 {
			break
		}
		a, err := arg.eval(ec)
		var sub []int32
		if err != nil {
			if j == 0 || !errors.Is(err, ErrEval) {
				return nil, err
			}
			// Only the rows still NULL need this argument.
			need := make([]int32, 0, open)
			for i, p := range pick {
				if p < 0 {
					need = append(need, int32(i))
				}
			}
			if a, err = evalOnRows(ec, arg, need); err != nil {
				return nil, err
			}
			sub = make([]int32, ec.n)
			for k, i := range need {
				sub[i] = int32(k)
			}
		}
		vals = append(vals, a)
		if sub != nil {
			if rows == nil {
				rows = make([][]int32, len(c.args))
			}
			rows[j] = sub
		}
		bm, off, has := validBits(a)
		for i, p := range pick {
			if p >= 0 {
				continue
			}
			k := i
			if sub != nil {
				k = int(sub[i])
			}
			if isValidAt(bm, off, has, k) {
				pick[i] = int32(j)
				open--
			}
		}
	}
	if rows != nil {
		rows = rows[:len(vals)]
	}
	return selectRows(ec.mem, c.typ, vals, pick, rows)
}

// evalOnRows evaluates n over the given rows of the batch only.
func evalOnRows(ec *evalCtx, n node, rows []int32) (arrow.Array, error) {
	ib := array.NewInt32Builder(ec.mem)
	ib.AppendValues(rows, nil)
	idx := ib.NewArray()
	ib.Release()
	defer idx.Release()
	sub := &evalCtx{mem: ec.mem, n: len(rows), cols: make([]arrow.Array, len(ec.cols))}
	defer func() { releaseArrays(sub.cols) }()
	ctx := compute.WithAllocator(context.Background(), ec.mem)
	for i, col := range ec.cols {
		if col == nil {
			continue
		}
		t, err := compute.TakeArray(ctx, col, idx)
		if err != nil {
			return nil, fmt.Errorf("%w: coalesce: selecting rows: %w", ErrUnsupported, err)
		}
		sub.cols[i] = t
	}
	return n.eval(sub)
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
	// DataFusion coerces the tested argument to the result type too.
	if _, err := unionType([]arrow.DataType{args[0].dataType(), t}); err != nil {
		return nil, fmt.Errorf("%w: %s: %v (at %d)", ErrBind, c.Name, err, c.At)
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
		return selectRows(ec.mem, t, a, pick, nil)
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
		return selectRows(ec.mem, t, a, pick, nil)
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
		if t.ID() == arrow.FLOAT32 || t.ID() == arrow.FLOAT64 {
			pickFloats(a, pick, op == OpGt)
			return selectRows(ec.mem, t, a, pick, nil)
		}
		for j := 1; j < len(a); j++ {
			// Compare a[j] with the current choice, row by row: build
			// the current values first.
			cur, err := selectRows(ec.mem, t, a, pick, nil)
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
		return selectRows(ec.mem, t, a, pick, nil)
	}}, nil
}

// pickFloats chooses, per row, the greatest (or least) non-NULL float in
// IEEE total order (-0.0 < +0.0, NaN above everything), as arrow-rs
// compares floats.
func pickFloats(a []arrow.Array, pick []int32, greatest bool) {
	keys := make([]int64, len(pick))
	key := func(j int, i int) int64 {
		if a[j].DataType().ID() == arrow.FLOAT32 {
			b := int64(int32(math.Float32bits(primValues[float32](a[j])[i])))
			return b ^ int64(uint64(b>>63)>>33)
		}
		b := int64(math.Float64bits(primValues[float64](a[j])[i]))
		return b ^ int64(uint64(b>>63)>>1)
	}
	for i, p := range pick {
		if p >= 0 {
			keys[i] = key(int(p), i)
		}
	}
	for j := 1; j < len(a); j++ {
		bm, off, has := validBits(a[j])
		for i := range pick {
			if !isValidAt(bm, off, has, i) {
				continue
			}
			k := key(j, i)
			if pick[i] < 0 || (greatest && k > keys[i]) || (!greatest && k < keys[i]) {
				pick[i], keys[i] = int32(j), k
			}
		}
	}
}

// selectRows builds the array whose row i is row rowOf(i) of as[pick[i]]
// (NULL for -1), where rowOf is i, or rows[j][i] when rows[j] is set;
// every array has type t.
func selectRows(mem memory.Allocator, t arrow.DataType, as []arrow.Array, pick []int32, rows [][]int32) (arrow.Array, error) {
	n := len(pick)
	src := func(p int32, i int) int {
		if rows != nil && rows[p] != nil {
			return int(rows[p][i])
		}
		return i
	}
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
				k := src(p, i)
				data[i>>6] |= (ws[p].data[k>>6] >> (k & 63) & 1) << (i & 63)
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
				out.data = append(out.data, vs[p].at(src(p, i))...)
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
		if p < 0 {
			continue
		}
		k := src(p, i)
		if len(srcs[p]) >= (k+1)*w {
			copy(dst[i*w:(i+1)*w], srcs[p][k*w:(k+1)*w])
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
