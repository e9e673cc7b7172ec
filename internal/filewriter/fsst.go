package filewriter

import (
	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// fsstCodec stores FSST-compressed strings as Variable mini-block chunks;
// the page's symbol table goes into the encoding (Lance: FsstMiniBlockEncoder).
type fsstCodec struct {
	table []byte        // serialized 2312-byte symbol table
	cv    *values       // the compressed strings
	inner variableCodec // chunks the compressed strings
}

func (c fsstCodec) encoding() *pb.CompressiveEncoding { return fsstEnc(c.table, c.inner.encoding()) }
func (c fsstCodec) numBuffers() int                   { return 1 }
func (c fsstCodec) name() string                      { return "fsst" }

func (c fsstCodec) next(_ *values, start, maxValues int) int {
	return c.inner.next(c.cv, start, maxValues)
}

func (c fsstCodec) encode(_ *values, start, end int, tmp *[]byte) [][]byte {
	return c.inner.encode(c.cv, start, end, tmp)
}

// fsstEnc returns Fsst{symbol_table, values}.
func fsstEnc(table []byte, values *pb.CompressiveEncoding) *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Fsst{Fsst: &pb.Fsst{
		SymbolTable: table, Values: values}}}
}

// wantFSST reports whether Lance would FSST-compress the variable values v:
// when asked to (compression=fsst), or when the longest value has at least 5
// bytes and the page's data plus offsets reach 32 KiB (unless
// compression is requested: none, or lz4/zstd which wrap plain Variable).
// Lance never picks it on its own for binary columns. Below 32 KiB of data the table is switched off.
func wantFSST(v *values, p encodingParams, bitsOff int) bool {
	switch {
	case p.compression == "fsst":
		return true
	case p.compression != "" || v.binary:
		return false // none, or lz4/zstd: General over plain Variable
	}
	size := len(v.data) + (v.n+1)*bitsOff/8
	return maxValueBytes(v) >= codecs.FSSTMinMaxLen && size >= codecs.FSSTMinInputBytes
}

// fsstCompress builds a symbol table for v and returns it serialized with
// the compressed values (same nulls, same offset width). Large pages are
// compressed in parallel pieces; the result does not depend on the split.
func fsstCompress(v *values) ([]byte, *values) {
	pools := v.sc.pool()
	tab := pools.fsstScratch().BuildTable(v.data, v.offsets)
	enc := pools.fsstScratch().NewEncoder(tab)
	defer enc.Release()
	cv := &values{kind: valVariable, n: v.n, large: v.large, valid: v.valid, sc: v.sc}
	cv.offsets = v.sc.u64sZero(v.n + 1)
	if !tab.Compressed {
		cv.data = v.data // stored verbatim
		copy(cv.offsets, v.offsets)
		return tab.Serialize(), cv
	}
	// Pieces are compressed into scratch buffers with room for the worst
	// case (two bytes per input byte), then copied together.
	parts := splitByBytes(v.offsets, fsstPieceBytes)
	bufs := make([][]byte, len(parts)-1)
	parallelFor(len(bufs), func(k int) {
		lo, hi := parts[k], parts[k+1]
		size := int(v.offsets[hi] - v.offsets[lo])
		bufs[k] = enc.CompressValues(pools.getBytes(2*size+16), v.data, v.offsets[lo:hi+1], cv.offsets[lo+1:hi+1])
	})
	total := 0
	for _, b := range bufs {
		total += len(b)
	}
	cv.data = v.sc.bytesCap(total)
	for k, b := range bufs {
		base := uint64(len(cv.data))
		for i := parts[k] + 1; i <= parts[k+1]; i++ {
			cv.offsets[i] += base
		}
		cv.data = append(cv.data, b...)
		pools.putBytes(b)
	}
	return tab.Serialize(), cv
}

// tryFSST returns an FSST codec when Lance would use one.
func tryFSST(v *values, p encodingParams, bitsOff int) (miniCodec, bool) {
	if !wantFSST(v, p, bitsOff) {
		return nil, false
	}
	tab, cv := fsstCompress(v)
	return fsstCodec{table: tab, cv: cv, inner: variableCodec{offsetBits: bitsOff}}, true
}
