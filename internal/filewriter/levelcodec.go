package filewriter

import (
	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/layouts"
)

// levelCodec compresses a page's rep or def levels (layouts.LevelEncoder).
type levelCodec = layouts.LevelEncoder

// rleLevels is the RLE block form of levels: u16 values, u8 run lengths.
func rleLevels() levelCodec {
	return levelCodec{RLE: true, Enc: &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Rle{Rle: &pb.Rle{
		Values: codecs.FlatEncoding(16), RunLengths: codecs.FlatEncoding(8)}}}}
}

// flatLevels stores levels as flat u16 values.
func flatLevels() levelCodec { return levelCodec{Enc: codecs.FlatEncoding(16)} }

// packedLevels bit-packs levels out of line at width w.
func packedLevels(w int) levelCodec {
	return levelCodec{Width: w, Enc: &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_OutOfLineBitpacking{
		OutOfLineBitpacking: &pb.OutOfLineBitpacking{UncompressedBitsPerValue: 16, Values: codecs.FlatEncoding(uint64(w))}}}}
}
