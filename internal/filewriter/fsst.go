package filewriter

import (
	"github.com/lancego/lancego/codecs"
)

// fsstCompress builds a symbol table for v and returns it serialized with
// the compressed values (same nulls, same offset width). Large pages are
// compressed in parallel pieces; the result does not depend on the split.
func fsstCompress(v *values) ([]byte, *values) {
	pools := v.sc.pool()
	tab := pools.fsstScratch().BuildTable(v.Data, v.Offsets)
	enc := pools.fsstScratch().NewEncoder(tab)
	defer enc.Release()
	cv := &values{Values: codecs.Values{Kind: valVariable, N: v.N, Large: v.Large, Valid: v.Valid}, sc: v.sc}
	cv.Offsets = v.sc.u64sAny(v.N + 1) // [0] here, the rest by the copy or the compression
	cv.Offsets[0] = 0
	if !tab.Compressed {
		cv.Data = v.Data // stored verbatim
		copy(cv.Offsets, v.Offsets)
		return tab.Serialize(), cv
	}
	// Pieces are compressed into scratch buffers with room for the worst
	// case (two bytes per input byte), then copied together.
	parts := splitByBytes(v.Offsets, fsstPieceBytes)
	bufs := make([][]byte, len(parts)-1)
	parallelFor(len(bufs), func(k int) {
		lo, hi := parts[k], parts[k+1]
		size := int(v.Offsets[hi] - v.Offsets[lo])
		bufs[k] = enc.CompressValues(pools.getBytes(2*size+16), v.Data, v.Offsets[lo:hi+1], cv.Offsets[lo+1:hi+1])
	})
	total := 0
	for _, b := range bufs {
		total += len(b)
	}
	cv.Data = v.sc.bytesCap(total)
	for k, b := range bufs {
		base := uint64(len(cv.Data))
		for i := parts[k] + 1; i <= parts[k+1]; i++ {
			cv.Offsets[i] += base
		}
		cv.Data = append(cv.Data, b...)
		pools.putBytes(b)
	}
	return tab.Serialize(), cv
}
