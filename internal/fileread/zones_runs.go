package fileread

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Gathering runs of rows (deleted rows dropped, filtered rows kept) is on
// the path of every dataset scan with deletions and of every filtered
// scan. For the flat layouts (fixed-width values, booleans, strings and
// binary) the runs are copied buffer by buffer here, a memmove per run;
// other types fall back to concatenating slices.

// gatherRuns returns the rows of a in runs (sorted, disjoint, within a)
// as a new array, or ok false when a's layout is not one it copies.
func gatherRuns(mem memory.Allocator, a arrow.Array, runs []RowRange, n int) (arrow.Array, bool) {
	d := a.Data()
	switch a.DataType().ID() {
	case arrow.DICTIONARY, arrow.EXTENSION:
		return nil, false
	case arrow.STRING, arrow.BINARY:
		return gatherVar[int32](mem, d, runs, n), true
	case arrow.LARGE_STRING, arrow.LARGE_BINARY:
		return gatherVar[int64](mem, d, runs, n), true
	case arrow.BOOL:
		return gatherBits(mem, d, runs, n), true
	case arrow.NULL:
		return array.MakeArrayOfNull(mem, a.DataType(), n), true
	}
	fw, ok := a.DataType().(arrow.FixedWidthDataType)
	if !ok || fw.BitWidth()%8 != 0 || len(d.Buffers()) != 2 || len(d.Children()) != 0 {
		return nil, false
	}
	return gatherFixed(mem, d, runs, n, fw.BitWidth()/8), true
}

// gatherValidity copies the validity bits of runs (nil when a has no
// nulls) and returns the null count.
func gatherValidity(mem memory.Allocator, d arrow.ArrayData, runs []RowRange, n int) (*memory.Buffer, int) {
	if d.NullN() == 0 || d.Buffers()[0] == nil {
		return nil, 0
	}
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(int(bitutil.BytesForBits(int64(n))))
	src, dst := d.Buffers()[0].Bytes(), buf.Bytes()
	at := 0
	for _, r := range runs {
		k := int(r.To - r.From)
		bitutil.CopyBitmap(src, d.Offset()+int(r.From), k, dst, at)
		at += k
	}
	return buf, n - bitutil.CountSetBits(dst, 0, n)
}

// gatherFixed copies runs of a fixed-width array of width bytes a value.
func gatherFixed(mem memory.Allocator, d arrow.ArrayData, runs []RowRange, n, width int) arrow.Array {
	valid, nulls := gatherValidity(mem, d, runs, n)
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n * width)
	src, dst := d.Buffers()[1].Bytes(), buf.Bytes()
	at, off := 0, d.Offset()
	for _, r := range runs {
		at += copy(dst[at:], src[(off+int(r.From))*width:(off+int(r.To))*width])
	}
	return finish(d.DataType(), n, []*memory.Buffer{valid, buf}, nulls)
}

// gatherBits copies runs of a boolean array.
func gatherBits(mem memory.Allocator, d arrow.ArrayData, runs []RowRange, n int) arrow.Array {
	valid, nulls := gatherValidity(mem, d, runs, n)
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(int(bitutil.BytesForBits(int64(n))))
	src, dst := d.Buffers()[1].Bytes(), buf.Bytes()
	at := 0
	for _, r := range runs {
		k := int(r.To - r.From)
		bitutil.CopyBitmap(src, d.Offset()+int(r.From), k, dst, at)
		at += k
	}
	return finish(d.DataType(), n, []*memory.Buffer{valid, buf}, nulls)
}

// gatherVar copies runs of a string or binary array with offsets of type O.
func gatherVar[O int32 | int64](mem memory.Allocator, d arrow.ArrayData, runs []RowRange, n int) arrow.Array {
	valid, nulls := gatherValidity(mem, d, runs, n)
	offs := arrow.GetData[O](d.Buffers()[1].Bytes())[d.Offset():]
	var vals []byte
	if b := d.Buffers()[2]; b != nil {
		vals = b.Bytes()
	}
	var size O
	for _, r := range runs {
		size += offs[r.To] - offs[r.From]
	}
	ob, vb := memory.NewResizableBuffer(mem), memory.NewResizableBuffer(mem)
	ob.Resize((n + 1) * sizeOf[O]())
	vb.Resize(int(size))
	dstOffs, dstVals := arrow.GetData[O](ob.Bytes()), vb.Bytes()
	at, pos := 0, O(0)
	for _, r := range runs {
		base := offs[r.From]
		for i := r.From; i < r.To; i++ {
			dstOffs[at] = pos + offs[i] - base
			at++
		}
		pos += O(copy(dstVals[pos:], vals[base:offs[r.To]]))
	}
	dstOffs[at] = pos
	return finish(d.DataType(), n, []*memory.Buffer{valid, ob, vb}, nulls)
}

// sizeOf returns the byte size of an offset type.
func sizeOf[O int32 | int64]() int {
	var o O
	if any(o) == any(int32(0)) {
		return 4
	}
	return 8
}

// finish builds an array from new buffers, taking their references.
func finish(dt arrow.DataType, n int, bufs []*memory.Buffer, nulls int) arrow.Array {
	data := array.NewData(dt, n, bufs, nil, nulls, 0)
	for _, b := range bufs {
		if b != nil {
			b.Release()
		}
	}
	defer data.Release()
	return array.MakeFromData(data)
}
