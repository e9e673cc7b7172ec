package codecs

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

func TestMalformed(t *testing.T) {
	okTab := testTable(true).Serialize()
	badMagic := append([]byte(nil), okTab...)
	badMagic[7] = 0
	badLen := append([]byte(nil), okTab...)
	badLen[8+8*7] = 9
	cases := []struct {
		name string
		run  func() error
		want error
		msg  string
	}{
		{"inline width", func() error { _, err := DecodeInlineBitpacking(nil, []byte{33, 0, 0, 0}, 32, 1); return err }, ErrCorrupt, "width 33 > 32"},
		{"inline short", func() error { _, err := DecodeInlineBitpacking(nil, []byte{3, 0, 0, 0, 1}, 32, 1); return err }, ErrCorrupt, "inline bitpacking"},
		{"inline too many values", func() error { _, err := DecodeInlineBitpacking(nil, []byte{0, 0, 0, 0}, 32, 1<<40); return err }, ErrCorrupt, "chunk headers"},
		{"inline trailing", func() error { _, err := DecodeInlineBitpacking(nil, []byte{0, 0, 0, 0, 0}, 32, 1); return err }, ErrCorrupt, "trailing"},
		{"ool length", func() error { _, err := DecodeOutOfLineBitpacking(nil, make([]byte, 500), 32, 3, 1025); return err }, ErrCorrupt, "fits neither"},
		{"ool huge", func() error { _, err := DecodeOutOfLineBitpacking(nil, nil, 64, 0, 1<<62); return err }, ErrCorrupt, "decode limit"},
		{"fsst table size", func() error { _, err := ParseFSSTTable(okTab[:100]); return err }, ErrCorrupt, "2312"},
		{"fsst magic", func() error { _, err := ParseFSSTTable(badMagic); return err }, ErrCorrupt, "magic"},
		{"fsst symbol len", func() error { _, err := ParseFSSTTable(badLen); return err }, ErrCorrupt, "length 9"},
		{"fsst escape at end", func() error { _, err := testTable(true).Decompress(nil, []byte{255}); return err }, ErrCorrupt, "escape"},
		{"fsst undefined code", func() error { _, err := testTable(true).Decompress(nil, []byte{200}); return err }, ErrCorrupt, "code 200"},
		{"rle short", func() error { _, err := DecodeRLE(nil, []byte{1, 2}, []byte{1, 1}, 8, 8, 3); return err }, ErrCorrupt, "cover 2"},
		{"rle mismatch", func() error { _, err := DecodeRLE(nil, []byte{1, 2}, []byte{1}, 8, 8, 1); return err }, ErrCorrupt, "runs"},
		{"rle width", func() error { _, err := DecodeRLE(nil, nil, nil, 24, 8, 0); return err }, ErrCorrupt, "value width"},
		{"rle block header", func() error { _, err := DecodeRLEBlock(nil, u32s(100, 0), 16, 8, 1); return err }, ErrCorrupt, "values length"},
		{"bss size", func() error { _, err := DecodeByteStreamSplit(nil, make([]byte, 7), 32, 2); return err }, ErrCorrupt, "byte stream split"},
		{"lz4 prefix", func() error { _, err := DecompressLZ4(nil, u32s(1<<30, 0)); return err }, ErrCorrupt, "implausible"},
		{"lz4 garbage", func() error { _, err := DecompressLZ4(nil, append(u32s(10), 0xF0)); return err }, ErrCorrupt, "lz4"},
		{"zstd prefix", func() error {
			var d Decompressor
			defer d.Close()
			_, err := d.DecompressZstd(nil, binary.LittleEndian.AppendUint64(nil, 1<<40))
			return err
		}, ErrCorrupt, "implausible"},
		{"zstd garbage", func() error {
			var d Decompressor
			defer d.Close()
			_, err := d.DecompressZstd(nil, append(binary.LittleEndian.AppendUint64(nil, 10), 1, 2, 3))
			return err
		}, ErrCorrupt, "zstd"},
		{"var chunk offsets", func() error { _, err := DecodeVariableChunk(u32s(8, 100), 32, 1); return err }, ErrCorrupt, "last offset"},
		{"var chunk decreasing", func() error { _, err := DecodeVariableChunk(u32s(12, 11, 12), 32, 2); return err }, ErrCorrupt, "decreases"},
		{"var chunk into table", func() error { _, err := DecodeVariableChunk(u32s(0, 8), 32, 1); return err }, ErrCorrupt, "offset table"},
		{"var block start", func() error { _, err := DecodeVariableBlock(u32s(32, 4), 0); return err }, ErrCorrupt, "data start"},
		{"var block count", func() error { _, err := DecodeVariableBlock(u32s(32, 16, 0, 0), 5); return err }, ErrCorrupt, "offset bytes"},
		{"var block legacy", func() error { _, err := DecodeVariableBlock([]byte{32, 1, 0, 0, 0, 0, 0, 0}, 1); return err }, ErrUnsupported, "legacy"},
		{"flat short", func() error { _, err := DecodeFlat(make([]byte, 3), 32, 1); return err }, ErrCorrupt, "need 4 bytes"},
		{"flat bits", func() error { _, err := DecodeFlat(nil, 12, 1); return err }, ErrCorrupt, "bits per value 12"},
		{"flat overflow", func() error { _, err := DecodeFlat(nil, 64, 1<<62); return err }, ErrCorrupt, "limit"},
		{"const huge", func() error { _, err := DecodeBlock(constEnc(make([]byte, 16)), nil, 1<<40); return err }, ErrCorrupt, "limit"},
		{"mini bufs", func() error { _, err := DecodeMiniBlock(rleEnc(8, 8), [][]byte{{1}}, 1); return err }, ErrCorrupt, "needs 2 buffers"},
		{"packed sum", func() error {
			e := packedEnc(32, 8)
			e.GetPackedStruct().Values = flatEnc(32)
			_, err := DecodeMiniBlock(e, [][]byte{make([]byte, 8)}, 1)
			return err
		}, ErrCorrupt, "sum"},
		{"vps row", func() error {
			_, err := DecodeFullZipVariable(vpsEnc(vpsVar(32, varEnc(32))), NewVariableBlock([][]byte{u32s(9)}))
			return err
		}, ErrCorrupt, "length 9"},
		{"vps leftover", func() error {
			_, err := DecodeFullZipVariable(vpsEnc(vpsFixed(8, flatEnc(8))), NewVariableBlock([][]byte{{1, 2}}))
			return err
		}, ErrCorrupt, "unparsed"},
		{"fullzip bad block", func() error {
			_, err := DecodeFullZipVariable(varEnc(32), Block{Kind: KindVariable, NumValues: 1, OffsetBits: 32, Offsets: u32s(0)})
			return err
		}, ErrCorrupt, "offset bytes"},
		{"fsl validity short", func() error {
			_, err := DecodeMiniBlock(fslEnc(16, true, flatEnc(8)), [][]byte{{1}, make([]byte, 16)}, 1)
			return err
		}, ErrCorrupt, "validity"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.run()
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("err = %v, want %v containing %q", err, c.want, c.msg)
			}
		})
	}
}

func TestUnsupported(t *testing.T) {
	dict := &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Dictionary{Dictionary: &pb.Dictionary{}}}
	flatSlot := flatEnc(32)
	flatSlot.GetFlat().Data = &pb.BufferCompression{Scheme: lz4S}
	varSlot := varEnc(32)
	varSlot.GetVariable().Values = &pb.BufferCompression{Scheme: zstdS}
	ibSlot := inlineEnc(32)
	ibSlot.GetInlineBitpacking().Values = &pb.BufferCompression{}
	// An encoding whose only field is an unknown oneof member (field 20).
	unknown := &pb.CompressiveEncoding{}
	raw := protowire.AppendTag(nil, 20, protowire.BytesType)
	raw = protowire.AppendBytes(raw, nil)
	if err := proto.Unmarshal(raw, unknown); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		run  func() error
		msg  string
	}{
		{"dict mini", func() error { _, err := DecodeMiniBlock(dict, nil, 1); return err }, "not used by Lance 2.1/2.2"},
		{"dict block", func() error { _, err := DecodeBlock(dict, nil, 1); return err }, "not used by Lance 2.1/2.2"},
		{"flat slot", func() error { _, err := DecodeMiniBlock(flatSlot, [][]byte{make([]byte, 4)}, 1); return err }, "buffer compression slot"},
		{"var slot", func() error { _, err := DecodeBlock(varSlot, nil, 0); return err }, "buffer compression slot"},
		{"inline slot", func() error { _, err := DecodeBlock(ibSlot, nil, 0); return err }, "buffer compression slot"},
		{"unknown", func() error { _, err := DecodeBlock(unknown, nil, 0); return err }, "field 20"},
		{"ool in mini", func() error { _, err := DecodeMiniBlock(oolEnc(32, 3), nil, 0); return err }, "mini-block context"},
		{"bss in fullzip", func() error { _, err := DecodeFullZipFixed(bssEnc(32), nil, 0); return err }, "full-zip fixed"},
		{"scheme", func() error {
			_, err := DecodeBlock(generalEnc(pb.CompressionScheme_COMPRESSION_ALGORITHM_UNSPECIFIED, flatEnc(8)), []byte{1}, 1)
			return err
		}, "scheme"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.run()
			if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("err = %v, want ErrUnsupported containing %q", err, c.msg)
			}
		})
	}
	if got := Describe(unknown); got != "unknown(field 20)" {
		t.Errorf("Describe(unknown) = %q", got)
	}
	if got := Describe(generalEnc(lz4S, varEnc(32))); got != "general(lz4, variable(offsets=flat(32)))" {
		t.Errorf("Describe = %q", got)
	}
}
