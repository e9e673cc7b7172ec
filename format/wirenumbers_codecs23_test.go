package format

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/proto"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// TestProvisionalCodecWireNumbers pins the numbers of docs/codec-wire-numbers.md.
func TestProvisionalCodecWireNumbers(t *testing.T) {
	cases := []struct {
		name string
		msg  *pb.CompressiveEncoding
		want []byte
	}{
		// field 100, wire type 2 → tag varint 0xa2 0x06; Alp{bits_per_value: 64}.
		{"alp", &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Alp{Alp: &pb.Alp{BitsPerValue: 64}}},
			[]byte{0xa2, 0x06, 0x02, 0x08, 0x40}},
		// field 101; Pcodec{compression_level: 8}.
		{"pcodec", &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Pcodec{Pcodec: &pb.Pcodec{CompressionLevel: 8}}},
			[]byte{0xaa, 0x06, 0x02, 0x10, 0x08}},
		// field 102; AxisDelta{axis_length: 3, inner_stride: 4}.
		{"axis delta", &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_AxisDelta{AxisDelta: &pb.AxisDelta{AxisLength: 3, InnerStride: 4}}},
			[]byte{0xb2, 0x06, 0x04, 0x08, 0x03, 0x10, 0x04}},
	}
	for _, c := range cases {
		got, err := proto.Marshal(c.msg)
		if err != nil || !bytes.Equal(got, c.want) {
			t.Errorf("%s: % x (%v), want % x", c.name, got, err, c.want)
		}
	}
}
