package filewriter

import (
	"runtime"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/internal/uninit"
)

// parallelConcatMin is the size from which concatFixed copies on two
// goroutines.
const parallelConcatMin = 1 << 20

// concatFixed concatenates buffered arrays of a fixed-width primitive
// type without nulls into one array, or reports false for any other
// input (array.Concatenate then does it). Arrow's Concatenate zeroes the
// destination before copying into it and copies on one core; a page of
// such values (the most common page) is copied once, into memory that is
// not cleared first, on two goroutines when it is large: fresh pages of a
// new buffer cost as much to fault in as to fill, and both halves fault
// in parallel.
func concatFixed(arrs []arrow.Array) (arrow.Array, bool) {
	dt, ok := arrs[0].DataType().(arrow.FixedWidthDataType)
	switch {
	case !ok, dt.BitWidth()%8 != 0, len(dt.Layout().Buffers) != 2:
		return nil, false
	case dt.ID() == arrow.BOOL, dt.ID() == arrow.DICTIONARY, dt.ID() == arrow.EXTENSION:
		// bit-packed; keys of a dictionary each batch holds its own of;
		// storage behind another type
		return nil, false
	}
	w := dt.BitWidth() / 8
	n := 0
	for _, a := range arrs {
		if a.NullN() != 0 || len(a.Data().Children()) != 0 || !arrow.TypeEqual(a.DataType(), arrs[0].DataType()) {
			return nil, false
		}
		n += a.Len()
	}
	out := uninit.Bytes(n * w)
	srcs := make([][]byte, len(arrs))
	for i, a := range arrs {
		srcs[i] = fixedBytes(a, w)[:a.Len()*w]
	}
	copyAll := func(dst []byte, parts [][]byte) {
		for _, p := range parts {
			dst = dst[copy(dst, p):]
		}
	}
	half, at := len(arrs), 0
	if len(out) >= parallelConcatMin && runtime.GOMAXPROCS(0) > 1 && len(arrs) > 1 {
		for i := range srcs {
			if at >= len(out)/2 {
				half = i
				break
			}
			at += len(srcs[i])
		}
	}
	if half == len(arrs) {
		copyAll(out, srcs)
	} else {
		var wg sync.WaitGroup
		wg.Go(func() { copyAll(out[at:], srcs[half:]) })
		copyAll(out[:at], srcs[:half])
		wg.Wait()
	}
	data := array.NewData(arrs[0].DataType(), n, []*memory.Buffer{nil, memory.NewBufferBytes(out)}, nil, 0, 0)
	defer data.Release()
	return array.MakeFromData(data), true
}
