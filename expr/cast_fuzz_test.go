package expr

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// fuzzTypes are the types the fuzzers cast between and compute on.
var fuzzTypes = []arrow.DataType{
	arrow.Null,
	arrow.FixedWidthTypes.Boolean,
	arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64,
	arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Uint32, arrow.PrimitiveTypes.Uint64,
	arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64,
	&arrow.Decimal128Type{Precision: 8, Scale: 3}, &arrow.Decimal128Type{Precision: 38, Scale: 10},
	&arrow.Decimal128Type{Precision: 5, Scale: -2}, &arrow.Decimal128Type{Precision: 38, Scale: 38},
	arrow.BinaryTypes.String, arrow.BinaryTypes.LargeString, arrow.BinaryTypes.Binary, arrow.BinaryTypes.LargeBinary,
	arrow.FixedWidthTypes.Date32, arrow.FixedWidthTypes.Date64,
	&arrow.TimestampType{Unit: arrow.Second}, &arrow.TimestampType{Unit: arrow.Millisecond},
	&arrow.TimestampType{Unit: arrow.Microsecond}, &arrow.TimestampType{Unit: arrow.Nanosecond},
}

// fuzzArray builds an array of type t from raw bytes: fixed-width values
// are the bytes themselves, strings the pieces between ';', and the
// first byte of every 8 marks the NULLs.
func fuzzArray(mem memory.Allocator, t arrow.DataType, raw []byte) arrow.Array {
	switch {
	case t.ID() == arrow.NULL:
		return array.NewNull(len(raw) % 5)
	case isString(t) || isBinary(t):
		b := array.NewBuilder(mem, t)
		defer b.Release()
		for i, piece := range bytes.Split(raw, []byte(";")) {
			switch {
			case i%4 == 3:
				b.AppendNull()
			case isString(t):
				b.(interface{ Append(string) }).Append(string(piece))
			default:
				b.(interface{ Append([]byte) }).Append(piece)
			}
		}
		return b.NewArray()
	case t.ID() == arrow.BOOL:
		b := array.NewBooleanBuilder(mem)
		defer b.Release()
		for _, c := range raw {
			if c%7 == 0 {
				b.AppendNull()
			} else {
				b.Append(c&1 == 1)
			}
		}
		return b.NewArray()
	}
	w := t.(arrow.FixedWidthDataType).BitWidth() / 8
	n := len(raw) / w
	vals := memory.NewResizableBuffer(mem)
	vals.Resize(n * w)
	copy(vals.Bytes(), raw[:n*w])
	valid := memory.NewResizableBuffer(mem)
	valid.Resize((n + 7) / 8)
	nulls := 0
	for i := 0; i < n; i++ {
		if raw[i*w]%5 != 0 {
			valid.Bytes()[i/8] |= 1 << (i % 8)
		} else {
			nulls++
		}
	}
	d := array.NewData(t, n, []*memory.Buffer{valid, vals}, nil, nulls, 0)
	vals.Release()
	valid.Release()
	defer d.Release()
	return array.MakeFromData(d)
}

// FuzzCast casts random values between every pair of types, as CAST and
// as TRY_CAST: it must never panic (errors are fine).
func FuzzCast(f *testing.F) {
	f.Add(uint8(16), uint8(2), []byte("1;-2; 3 ;apple;;1.5;1e3;nan;2021-01-01;2021-01-01 12:34:56.789+05:00"))
	f.Add(uint8(11), uint8(4), []byte{0, 0, 0, 0, 0, 0, 0xf0, 0x7f, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add(uint8(13), uint8(12), bytes.Repeat([]byte{0xff}, 48))
	f.Add(uint8(25), uint8(21), []byte{1, 2, 3, 4, 5, 6, 7, 8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f})
	f.Fuzz(func(t *testing.T, from, to uint8, raw []byte) {
		if len(raw) > 4096 {
			return
		}
		mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
		ft, tt := fuzzTypes[int(from)%len(fuzzTypes)], fuzzTypes[int(to)%len(fuzzTypes)]
		a := fuzzArray(mem, ft, raw)
		defer a.Release()
		x := &colNode{slot: 0, name: "x", typ: ft}
		for _, try := range []bool{false, true} {
			n, err := newCast(x, tt, try, 0)
			if err != nil {
				continue
			}
			ec := &evalCtx{mem: mem, cols: []arrow.Array{a}, n: a.Len()}
			out, err := n.eval(ec)
			if err != nil {
				continue
			}
			if out.Len() != a.Len() || !arrow.TypeEqual(out.DataType(), tt) {
				t.Fatalf("cast %s to %s: got %d rows of %s", ft, tt, out.Len(), out.DataType())
			}
			if v, ok := out.(interface{ ValidateFull() error }); ok {
				if err := v.ValidateFull(); err != nil {
					t.Fatalf("cast %s to %s: invalid result: %v", ft, tt, err)
				}
			}
			out.Release()
		}
	})
}

// FuzzArith applies every arithmetic operator to random operands: it must
// never panic.
func FuzzArith(f *testing.F) {
	f.Add(uint8(4), uint8(4), uint8(3), []byte{0, 0, 0, 0x80, 0xff, 0xff, 0xff, 0xff}, []byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0})
	f.Add(uint8(12), uint8(5), uint8(1), bytes.Repeat([]byte{0x7f}, 32), []byte{1, 2, 3, 4, 5, 6, 7, 8})
	f.Fuzz(func(t *testing.T, lt, rt, op uint8, lraw, rraw []byte) {
		if len(lraw) > 1024 || len(rraw) > 1024 {
			return
		}
		mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
		ops := []BinaryOp{OpPlus, OpMinus, OpMul, OpDiv, OpMod, OpShiftLeft, OpShiftRight, OpConcat}
		o := ops[int(op)%len(ops)]
		l := fuzzArray(mem, fuzzTypes[int(lt)%len(fuzzTypes)], lraw)
		defer l.Release()
		r := fuzzArray(mem, fuzzTypes[int(rt)%len(fuzzTypes)], rraw)
		defer r.Release()
		n := min(l.Len(), r.Len())
		ls, rs := array.NewSlice(l, 0, int64(n)), array.NewSlice(r, 0, int64(n))
		defer ls.Release()
		defer rs.Release()
		schema := arrow.NewSchema([]arrow.Field{{Name: "l", Type: ls.DataType(), Nullable: true}, {Name: "r", Type: rs.DataType(), Nullable: true}}, nil)
		b := newBinder(schema, Options{Mem: mem})
		node, err := b.bind(&Binary{Op: o, L: &Column{Name: "l"}, R: &Column{Name: "r"}})
		if err != nil {
			return
		}
		ec := &evalCtx{mem: mem, cols: []arrow.Array{ls, rs}, n: n}
		out, err := node.eval(ec)
		if err != nil {
			return
		}
		if out.Len() != n {
			t.Fatalf("%s %s %s: %d rows, want %d", ls.DataType(), o, rs.DataType(), out.Len(), n)
		}
		out.Release()
	})
}
