package codecs

import (
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// This file is the encoding side's entry point, beside the decoders' in
// api.go: Values is what an encoder reads (one page of a leaf column's
// visible values, gathered from Arrow by the writer engine), and
// MiniBlockEncoder is what every mini-block value codec implements. Each
// codec's encoder lives in the file of its decoder (flat.go, bitpacking.go,
// rle.go, variable.go, bss.go, ...); which codec a page gets is decided by
// the writer's policy (internal/filewriter/policy.go), not here.

// ValueKind is the physical shape of the values of a page being encoded.
type ValueKind uint8

const (
	// ValFixed values have a bit width that is a multiple of 8.
	ValFixed ValueKind = iota + 1
	// ValBool values are 1 bit each (an LSB-first bitmap).
	ValBool
	// ValVariable values are Offsets into Data.
	ValVariable
	// ValFSL values are rows of fixed-size list(s) of fixed-width items.
	ValFSL
)

// FSLDim is one fixed-size-list dimension of Values, outer-most first.
type FSLDim struct {
	// Dim is the list size.
	Dim int
	// Validity is an LSB-first bitmap over rows × cumulative Dim items, nil
	// if all are valid.
	Validity []byte
}

// Values are the gathered values of one page (one per visible entry),
// the input of the encoders.
type Values struct {
	// Kind says which fields are meaningful.
	Kind ValueKind
	// N is the number of values (rows for ValFSL).
	N int
	// Bits is the width of a value (ValFixed, ValBool) or item (ValFSL).
	Bits int
	// Data holds the value bytes; it may alias the caller's Arrow buffers
	// and is never written to.
	Data []byte
	// Offsets holds N+1 offsets into Data (ValVariable).
	Offsets []uint64
	// Large marks 64-bit offsets (large string/binary).
	Large bool
	// Binary marks binary, not string, values.
	Binary bool
	// FSL lists the fixed-size-list dimensions (ValFSL).
	FSL []FSLDim
	// Valid says per value whether it is not null (nil: all valid).
	Valid []bool
}

// RowBits is the number of bits of one fixed value or FSL row.
func (v *Values) RowBits() int {
	b := v.Bits
	for _, l := range v.FSL {
		b *= l.Dim
	}
	return b
}

// ValueLen returns the byte length of variable value i.
func (v *Values) ValueLen(i int) uint64 { return v.Offsets[i+1] - v.Offsets[i] }

// MiniBlockEncoder encodes a page's values chunk by chunk for a mini-block
// page; DecodeMiniBlock with Encoding() reverses one chunk. Implementations
// are values (their configuration), safe to share between goroutines.
type MiniBlockEncoder interface {
	// Encoding is the codec tree stored in MiniBlockLayout.value_compression.
	Encoding() *pb.CompressiveEncoding
	// NumBuffers is the number of value buffers per chunk.
	NumBuffers() int
	// Next returns how many values the chunk starting at value start holds
	// (at most maxValues, at least 1 while values remain).
	Next(v *Values, start, maxValues int) int
	// Encode returns the value buffers of values [start, end): parts of v
	// or bytes appended to *tmp (scratch reused from chunk to chunk; the
	// buffers are used before the next call).
	Encode(v *Values, start, end int, tmp *[]byte) [][]byte
	// Name is a short description for summaries.
	Name() string
}
