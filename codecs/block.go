// Package codecs implements Lance's compressive encodings (flat, variable,
// constant, bit-packing, FSST, RLE, byte-stream-split, general LZ4/zstd,
// fixed-size list, packed structs) in both directions: decoders are pure
// functions from bytes to Blocks (entry points in api.go), encoders
// implement MiniBlockEncoder over Values (encoder.go), each in the file of
// its decoder. One harness (encoder_fuzz_test.go) round-trips every encoder
// through DecodeMiniBlock, with a fuzz target per encoder.
//
// Nothing here does I/O. The structural layouts (package layouts) cut pages
// into chunks or per-value runs and call the tree walkers in this package.
package codecs

// BlockKind says which fields of a Block are meaningful.
type BlockKind uint8

const (
	// KindFixed is fixed-width data: NumValues values of BitsPerValue bits each
	// (BitsPerValue is 1 for LSB-first bitmaps, otherwise a multiple of 8).
	KindFixed BlockKind = iota + 1
	// KindVariable is variable-width data: Offsets holds NumValues+1 offsets of
	// OffsetBits bits (little-endian) into Data; Offsets[0] need not be zero.
	KindVariable
	// KindStruct is a decoded packed struct: one child Block per field, each
	// holding NumValues values.
	KindStruct
)

// FSLLayer is one fixed-size-list dimension of a fixed-width block, outer-most
// first. Validity, when non-nil, is an LSB-first bitmap of one bit per item
// at this layer (rows × product of dimensions down to and including this one).
type FSLLayer struct {
	Dimension uint64
	Validity  []byte
}

// Block is decoded data, before rep/def structure is applied.
type Block struct {
	Kind BlockKind
	// NumValues is the number of top-level values (for FSL data: rows).
	NumValues uint64
	// BitsPerValue is the item width of fixed-width data.
	BitsPerValue uint64
	// Data is the value bytes (fixed) or the concatenated value bytes (variable).
	Data []byte
	// Offsets holds NumValues+1 little-endian offsets of OffsetBits bits.
	Offsets []byte
	// OffsetBits is 32 or 64 for variable data.
	OffsetBits int
	// FSL lists the fixed-size-list layers wrapping fixed-width items; the item
	// count in Data is NumValues × Π Dimension.
	FSL []FSLLayer
	// Children are the fields of a packed struct.
	Children []Block
	// AllNull marks a KindFixed block decoded from a Constant encoding without
	// a value: all NumValues values are null and Data is empty.
	AllNull bool
}
