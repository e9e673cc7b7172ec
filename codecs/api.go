package codecs

import (
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// DecodeMiniBlock decodes the value buffers of one mini-block chunk holding
// numValues values (FSL data: rows) with the chunk codec tree enc. bufs are
// the chunk's value buffers in order (MiniBlockLayout.num_buffers of them),
// already stripped of chunk padding only as far as the recorded sizes go.
func DecodeMiniBlock(enc *pb.CompressiveEncoding, bufs [][]byte, numValues uint64) (Block, error) {
	return Block{}, ErrUnsupported
}

// DecodeBlock decodes a whole buffer encoded with a block codec (rep/def
// levels, dictionaries, constant-page values) holding numValues values.
func DecodeBlock(enc *pb.CompressiveEncoding, buf []byte, numValues uint64) (Block, error) {
	return Block{}, ErrUnsupported
}

// DecodeFullZipFixed decodes numValues fixed-width full-zip values whose bytes
// (control words already removed) are concatenated in data.
func DecodeFullZipFixed(enc *pb.CompressiveEncoding, data []byte, numValues uint64) (Block, error) {
	return Block{}, ErrUnsupported
}

// DecodeFullZipVariable decodes numValues variable-width full-zip values. in
// is a KindVariable block of the stored (possibly compressed) value bytes,
// with the length prefixes removed.
func DecodeFullZipVariable(enc *pb.CompressiveEncoding, in Block) (Block, error) {
	return Block{}, ErrUnsupported
}

// Describe renders a codec tree in one line, e.g.
// "general(zstd, byte_stream_split(flat(64)))".
func Describe(enc *pb.CompressiveEncoding) string {
	return "?"
}
