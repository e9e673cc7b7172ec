package layouts

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/lancego/lancego/codecs/alp"
	"github.com/lancego/lancego/codecs/pcodec"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// codecs23Encodings are the value compressions FuzzCodecs23Chunk tries.
func codecs23Encodings() []*pb.CompressiveEncoding {
	flat := func(b uint64) *pb.CompressiveEncoding {
		return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Flat{Flat: &pb.Flat{BitsPerValue: b}}}
	}
	fsl := &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_FixedSizeList{
		FixedSizeList: &pb.FixedSizeList{ItemsPerValue: 4, Values: flat(32)}}}
	pc := func(v *pb.CompressiveEncoding) *pb.CompressiveEncoding {
		return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Pcodec{Pcodec: &pb.Pcodec{Values: v}}}
	}
	al := func(b uint64) *pb.CompressiveEncoding {
		return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Alp{Alp: &pb.Alp{BitsPerValue: b}}}
	}
	return []*pb.CompressiveEncoding{al(64), al(32), pc(flat(64)), pc(flat(16)), pc(fsl), al(16), pc(flat(8))}
}

// FuzzCodecs23Chunk feeds hostile chunk buffers to the page decoder's
// ALP/pcodec dispatch: it must return an error or n values, never panic.
func FuzzCodecs23Chunk(f *testing.F) {
	raw := make([]byte, 0, 8*300)
	for i := range 300 {
		raw = binary.LittleEndian.AppendUint64(raw, math.Float64bits(float64(i)/100))
	}
	if chunks, ok, err := alp.EncodePage(raw, 64, alp.Options{Mode: alp.On}); err == nil && ok {
		f.Add(uint8(0), joinBufs(chunks[0].Bufs[:]), uint16(300))
	}
	if b, err := pcodec.EncodeChunk(raw, 64, 1, 8); err == nil {
		f.Add(uint8(2), joinBufs([][]byte{b}), uint16(300))
	}
	encs := codecs23Encodings()
	f.Fuzz(func(t *testing.T, which uint8, data []byte, n uint16) {
		enc := encs[int(which)%len(encs)]
		k := 1
		if enc.GetAlp() != nil {
			k = 4
		}
		blk, err := decodeCodec23(enc, splitChunkBufs(data, k), uint64(n))
		if err == nil && blk.NumValues != uint64(n) {
			t.Fatalf("decoded %d values, want %d", blk.NumValues, n)
		}
	})
}

// joinBufs is the inverse of splitChunkBufs.
func joinBufs(bufs [][]byte) []byte {
	var out []byte
	for i, b := range bufs {
		if i < len(bufs)-1 {
			out = binary.LittleEndian.AppendUint16(out, uint16(len(b)))
		}
		out = append(out, b...)
	}
	return out
}

// splitChunkBufs cuts data into k buffers, each but the last prefixed by a
// u16 length.
func splitChunkBufs(data []byte, k int) [][]byte {
	out := make([][]byte, 0, k)
	for i := 0; i < k; i++ {
		if i == k-1 || len(data) < 2 {
			out = append(out, data)
			data = nil
			continue
		}
		sz := min(int(binary.LittleEndian.Uint16(data)), len(data)-2)
		out = append(out, data[2:2+sz])
		data = data[2+sz:]
	}
	return out
}
