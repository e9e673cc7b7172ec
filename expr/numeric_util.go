package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Buffers and validity for the numeric kernels (arithmetic, casts, math
// functions): typed value slices in and out, no per-row interface call.

// primValues returns the values of a fixed-width array as a []T (its
// offset applied); nil for an empty array.
func primValues[T arrow.FixedWidthType](a arrow.Array) []T {
	d := a.Data()
	if len(d.Buffers()) < 2 || d.Buffers()[1] == nil || d.Len() == 0 {
		return nil
	}
	return arrow.GetValues[T](d, 1)
}

// newPrimValues allocates a zeroed value buffer of n T.
func newPrimValues[T arrow.FixedWidthType](mem memory.Allocator, n int) (*memory.Buffer, []T) {
	var z T
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n * numSizeOf(z))
	if n == 0 {
		return buf, nil
	}
	return buf, arrow.GetData[T](buf.Bytes())[:n]
}

// numSizeOf is the byte width of a fixed-width value.
func numSizeOf[T arrow.FixedWidthType](T) int {
	var z T
	return len(arrow.GetBytes([]T{z}))
}

// makePrimArray builds an array of n rows of type t from a value buffer and a
// validBits buffer (nil: no NULLs), consuming both references.
func makePrimArray(t arrow.DataType, n int, vals, valid *memory.Buffer, nulls int) arrow.Array {
	if nulls == 0 && valid != nil {
		valid.Release()
		valid = nil
	}
	d := array.NewData(t, n, []*memory.Buffer{valid, vals}, nil, nulls, 0)
	vals.Release()
	if valid != nil {
		valid.Release()
	}
	defer d.Release()
	return array.MakeFromData(d)
}

// validBits returns a's validity bitmap, its bit offset and whether a has
// NULLs at all (bitmap nil when it has none).
func validBits(a arrow.Array) ([]byte, int, bool) {
	if a.NullN() == 0 {
		return nil, 0, false
	}
	if a.DataType().ID() == arrow.NULL {
		return nil, 0, true
	}
	b := a.Data().Buffers()[0]
	if b == nil {
		return nil, 0, false
	}
	return b.Bytes(), a.Data().Offset(), true
}

// isValidAt reports whether row i is valid, given validity's results.
func isValidAt(bm []byte, off int, hasNulls bool, i int) bool {
	if !hasNulls {
		return true
	}
	return bm != nil && bitutil.BitIsSet(bm, off+i)
}

// copyValid returns a's validity as a bitmap at offset 0 and its
// NULL count (nil, 0 when a has no NULLs). The buffer is shared when a
// is not offset.
func copyValid(mem memory.Allocator, a arrow.Array) (*memory.Buffer, int) {
	bm, off, has := validBits(a)
	if !has {
		return nil, 0
	}
	n := a.Len()
	if bm == nil {
		buf := memory.NewResizableBuffer(mem)
		buf.Resize(int(bitutil.BytesForBits(int64(n))))
		clear(buf.Bytes())
		return buf, n
	}
	if off == 0 {
		b := a.Data().Buffers()[0]
		b.Retain()
		return b, a.NullN()
	}
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(int(bitutil.BytesForBits(int64(n))))
	bitutil.CopyBitmap(bm, off, n, buf.Bytes(), 0)
	return buf, a.NullN()
}

// andValid returns the validity of rows valid in every array of as
// (all of n rows), nil when none has NULLs.
func andValid(mem memory.Allocator, n int, as ...arrow.Array) (*memory.Buffer, int) {
	var out *memory.Buffer
	for _, a := range as {
		bm, off, has := validBits(a)
		if !has {
			continue
		}
		if out == nil {
			out = memory.NewResizableBuffer(mem)
			out.Resize(int(bitutil.BytesForBits(int64(n))))
			if bm == nil {
				clear(out.Bytes())
			} else {
				bitutil.CopyBitmap(bm, off, n, out.Bytes(), 0)
			}
			continue
		}
		if bm == nil {
			clear(out.Bytes())
			continue
		}
		bitutil.BitmapAnd(out.Bytes(), bm, 0, int64(off), out.Bytes(), 0, int64(n))
	}
	if out == nil {
		return nil, 0
	}
	return out, n - bitutil.CountSetBits(out.Bytes(), 0, n)
}

// nullSetter is a writable validity bitmap made on first use: kernels
// that turn rows into NULL (TRY_CAST, nullif) start from the input's
// validBits and clear bits.
type nullSetter struct {
	mem   memory.Allocator
	n     int
	buf   *memory.Buffer
	nulls int
	base  arrow.Array // the validity to start from (nil: all valid)
}

// setNull makes row i NULL.
func (s *nullSetter) setNull(i int) {
	if s.buf == nil {
		s.buf = memory.NewResizableBuffer(s.mem)
		s.buf.Resize(int(bitutil.BytesForBits(int64(s.n))))
		bm, off, has := validBits(nullSetterBase(s.base))
		switch {
		case !has:
			bitutil.SetBitsTo(s.buf.Bytes(), 0, int64(s.n), true)
		case bm == nil:
			clear(s.buf.Bytes())
		default:
			bitutil.CopyBitmap(bm, off, s.n, s.buf.Bytes(), 0)
		}
		s.nulls = s.n - bitutil.CountSetBits(s.buf.Bytes(), 0, s.n)
	}
	if bitutil.BitIsSet(s.buf.Bytes(), i) {
		bitutil.ClearBit(s.buf.Bytes(), i)
		s.nulls++
	}
}

// nullSetterBase returns a, or an empty array stand-in when a is nil.
func nullSetterBase(a arrow.Array) arrow.Array {
	if a == nil {
		return noNullsArray{}
	}
	return a
}

// result returns the validity for the output (the base's when no row was
// set NULL).
func (s *nullSetter) result() (*memory.Buffer, int) {
	if s.buf != nil {
		return s.buf, s.nulls
	}
	if s.base == nil {
		return nil, 0
	}
	return copyValid(s.mem, s.base)
}

// noNullsArray is a stand-in array without NULLs for nullSetter.
type noNullsArray struct{ arrow.Array }

func (noNullsArray) NullN() int { return 0 }

// memoryBuffer is Arrow's buffer type.
type memoryBuffer = memory.Buffer

// bitIsSet reports whether bit i of a bitmap is set.
func bitIsSet(b []byte, i int) bool { return bitutil.BitIsSet(b, i) }
