package codecs

import (
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// DecodeMiniBlock decodes the value buffers of one mini-block chunk holding
// numValues values (FSL data: rows) with the chunk codec tree enc. bufs are
// the chunk's value buffers in order (MiniBlockLayout.num_buffers of them),
// already stripped of chunk padding only as far as the recorded sizes go.
//
// Accepted trees: Flat, InlineBitpacking, Variable(offsets=Flat 32/64),
// Fsst(Variable), PackedStruct(Flat), FixedSizeList…→Flat (validity buffers
// first, outer layer first), Rle(Flat, Flat 8/16/32), ByteStreamSplit(Flat
// 32/64), Constant, and General(any of these; buffer 0 is decompressed).
// The result may alias bufs.
func DecodeMiniBlock(enc *pb.CompressiveEncoding, bufs [][]byte, numValues uint64) (Block, error) {
	var d Decompressor
	defer d.Close()
	return decodeMiniBlock(&d, enc, bufs, numValues, 0)
}

// DecodeMiniBlockScratch is DecodeMiniBlock that lets the first decoder
// needing fresh output memory (bit-unpacking, RLE, byte-stream-split)
// append into scratch instead of allocating. It returns the block and the
// buffer holding that output (scratch, possibly grown; nil if no decoder
// used it), which the caller may pass again once it no longer needs the
// block. The block may alias scratch and bufs.
func DecodeMiniBlockScratch(scratch []byte, enc *pb.CompressiveEncoding, bufs [][]byte, numValues uint64) (Block, []byte, error) {
	d := Decompressor{lending: true, lend: scratch}
	defer d.Close()
	b, err := decodeMiniBlock(&d, enc, bufs, numValues, 0)
	return b, d.kept, err
}

// DecodeMiniBlockScratch is the package function of that name on a
// long-lived Decompressor: its zstd decoder, created once, serves every
// chunk a reader decodes (a fresh decoder per chunk cost more than the
// decoding itself: zstd mini-block scans ran at ~0.03 GB/s). Not safe for
// concurrent use.
func (d *Decompressor) DecodeMiniBlockScratch(scratch []byte, enc *pb.CompressiveEncoding, bufs [][]byte, numValues uint64) (Block, []byte, error) {
	d.lending, d.lend, d.lent, d.kept, d.taken = true, scratch, false, nil, false
	b, err := decodeMiniBlock(d, enc, bufs, numValues, 0)
	kept := d.kept
	d.lend, d.kept = nil, nil
	return b, kept, err
}

// DecodeBlockScratch is DecodeBlock with a lent output buffer, as
// DecodeMiniBlockScratch.
func DecodeBlockScratch(scratch []byte, enc *pb.CompressiveEncoding, buf []byte, numValues uint64) (Block, []byte, error) {
	d := Decompressor{lending: true, lend: scratch}
	defer d.Close()
	b, err := decodeBlock(&d, enc, buf, numValues, 0)
	return b, d.kept, err
}

// DecodeBlock decodes a whole buffer encoded with a block codec (rep/def
// levels, dictionaries, constant-page values) holding numValues values.
//
// Accepted trees: Flat, InlineBitpacking, OutOfLineBitpacking(Flat W),
// Variable (block form), FixedSizeList…→Flat (rows zipped with validity),
// Constant, PackedStruct(Flat), Rle (2.2 block form) and General(any of
// these; variable inners use the Variable block form). The result may alias
// buf.
func DecodeBlock(enc *pb.CompressiveEncoding, buf []byte, numValues uint64) (Block, error) {
	var d Decompressor
	defer d.Close()
	return decodeBlock(&d, enc, buf, numValues, 0)
}

// DecodeFullZipFixed decodes numValues fixed-width full-zip values whose bytes
// (control words already removed) are concatenated in data.
//
// Accepted trees: Flat, FixedSizeList…→Flat (per-row validity bytes zipped in
// front of the items), Constant. The result may alias data.
func DecodeFullZipFixed(enc *pb.CompressiveEncoding, data []byte, numValues uint64) (Block, error) {
	return decodeFullZipFixed(enc, data, numValues)
}

// DecodeFullZipVariable decodes numValues variable-width full-zip values. in
// is a KindVariable block of the stored (possibly compressed) value bytes,
// with the length prefixes removed.
//
// Accepted trees: Variable(Flat), Fsst(…), General(…) (each value compressed
// independently) and VariablePackedStruct (result is a KindStruct block).
func DecodeFullZipVariable(enc *pb.CompressiveEncoding, in Block) (Block, error) {
	var d Decompressor
	defer d.Close()
	return decodePerValue(&d, enc, in, 0)
}

// Describe renders a codec tree in one line, e.g.
// "general(zstd, byte_stream_split(flat(64)))".
func Describe(enc *pb.CompressiveEncoding) string {
	return describe(enc, 0)
}
