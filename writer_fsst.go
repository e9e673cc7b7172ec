package lance

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

func (c fsstCodec) encode(_ *values, start, end int) [][]byte {
	return c.inner.encode(c.cv, start, end)
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
// the compressed values (same nulls, same offset width).
func fsstCompress(v *values) ([]byte, *values) {
	tab := codecs.BuildFSSTTable(v.data, v.offsets)
	enc := codecs.NewFSSTEncoder(tab)
	cv := &values{kind: valVariable, n: v.n, large: v.large, valid: v.valid}
	cv.offsets = make([]uint64, 1, v.n+1)
	cv.data = make([]byte, 0, len(v.data)/2)
	for i := 0; i < v.n; i++ {
		cv.data = enc.Compress(cv.data, v.data[v.offsets[i]:v.offsets[i+1]])
		cv.offsets = append(cv.offsets, uint64(len(cv.data)))
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
