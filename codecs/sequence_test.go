package codecs

import (
	"encoding/binary"
	"errors"
	"slices"
	"testing"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"google.golang.org/protobuf/proto"
)

func rangeEnc(bits, start, step uint64) *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Range{Range: &pb.Range{UncompressedBitsPerValue: bits, Start: start, Step: step}}}
}

func deltaEnc(bits, base uint64, deltas *pb.CompressiveEncoding) *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Delta{Delta: &pb.Delta{UncompressedBitsPerValue: bits, Base: base, Deltas: deltas}}}
}

func u64s(vs ...uint64) []byte {
	out := make([]byte, 8*len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint64(out[8*i:], v)
	}
	return out
}

func u32le(vs ...uint32) []byte {
	out := make([]byte, 4*len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint32(out[4*i:], v)
	}
	return out
}

func dictFrame(idx, items []byte) []byte {
	return append(append(u64s(uint64(len(idx)), uint64(len(items))), idx...), items...)
}

type seqCase struct {
	name    string
	enc     *pb.CompressiveEncoding
	width   int
	payload []byte
	n       uint64
	want    []uint64
	err     error
}

func sequenceCases() []seqCase {
	dict := &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Dictionary{Dictionary: &pb.Dictionary{
		Indices: flatEnc(32), Items: flatEnc(64), NumDictionaryItems: 2}}}
	rle := &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Rle{Rle: &pb.Rle{
		Values: rangeEnc(32, 0, 3), RunLengths: flatEnc(32)}}}
	return []seqCase{
		{"empty constant", constEnc(nil), 64, nil, 0, nil, nil},
		{"constant", constEnc(u64s(2)), 64, nil, 3, []uint64{2, 2, 2}, nil},
		{"constant without value", constEnc(nil), 64, nil, 2, nil, ErrCorrupt},
		{"constant of wrong width", constEnc(u32le(2)), 64, nil, 2, nil, ErrCorrupt},
		{"range", rangeEnc(64, 5, 3), 64, nil, 4, []uint64{5, 8, 11, 14}, nil},
		{"range step 0", rangeEnc(64, 5, 0), 64, nil, 4, nil, ErrCorrupt},
		{"range overflow", rangeEnc(32, 1<<32-2, 1), 32, nil, 3, nil, ErrCorrupt},
		{"range width mismatch", rangeEnc(32, 0, 1), 64, nil, 3, nil, ErrCorrupt},
		{"delta flat", deltaEnc(64, 10, flatEnc(64)), 64, u64s(1, 0, 5), 4, []uint64{10, 11, 11, 16}, nil},
		{"delta range", deltaEnc(64, 7, rangeEnc(64, 1, 2)), 64, nil, 4, []uint64{7, 8, 11, 16}, nil},
		{"delta overflow", deltaEnc(64, 1<<63, flatEnc(64)), 64, u64s(1 << 63), 2, nil, ErrCorrupt},
		{"delta of delta", deltaEnc(64, 0, deltaEnc(64, 0, flatEnc(64))), 64, u64s(1), 3, nil, ErrUnsupported},
		{"delta short payload", deltaEnc(64, 0, flatEnc(64)), 64, u64s(1), 4, nil, ErrCorrupt},
		{"flat", flatEnc(64), 64, u64s(4, 9), 2, []uint64{4, 9}, nil},
		{"flat short", flatEnc(64), 64, u64s(4), 2, nil, ErrCorrupt},
		{"dictionary", dict, 64, dictFrame(u32le(1, 0, 1), u64s(3, 7)), 3, []uint64{7, 3, 7}, nil},
		{"dictionary index out of range", dict, 64, dictFrame(u32le(2), u64s(3, 7)), 1, nil, ErrCorrupt},
		{"dictionary bad frame", dict, 64, append(u64s(99, 0), u32le(1)...), 1, nil, ErrCorrupt},
		{"rle of range", rle, 32, append(u64s(0), u32le(2, 1)...), 3, []uint64{0, 0, 3}, nil},
		{"rle runs short", rle, 32, append(u64s(0), u32le(2, 1)...), 4, nil, ErrCorrupt},
		{"rle zero run", rle, 32, append(u64s(0), u32le(0, 3)...), 3, nil, ErrCorrupt},
		{"bad width", flatEnc(16), 16, nil, 0, nil, ErrCorrupt},
		{"missing", nil, 64, nil, 1, nil, ErrCorrupt},
	}
}

func TestDecodeSequence(t *testing.T) {
	for _, tc := range sequenceCases() {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodeSequence(nil, tc.enc, tc.width, tc.payload, tc.n)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("err = %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil || !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, %v; want %v", got, err, tc.want)
			}
			if SequenceHasPayload(tc.enc) != (tc.payload != nil) {
				t.Fatalf("SequenceHasPayload = %v with payload %v", SequenceHasPayload(tc.enc), tc.payload)
			}
		})
	}
}

// FuzzSequence mutates a sequence descriptor (protobuf bytes), its payload
// and its length: decoding must error or give exactly n values.
func FuzzSequence(f *testing.F) {
	for _, tc := range sequenceCases() {
		b, _ := proto.Marshal(tc.enc)
		f.Add(b, tc.payload, uint32(tc.n), tc.width == 32)
	}
	f.Fuzz(func(t *testing.T, desc, payload []byte, n uint32, narrow bool) {
		enc := &pb.CompressiveEncoding{}
		if proto.Unmarshal(desc, enc) != nil {
			return
		}
		width := 64
		if narrow {
			width = 32
		}
		got, err := DecodeSequence(nil, enc, width, payload, uint64(n%(1<<16)))
		if err == nil && uint64(len(got)) != uint64(n%(1<<16)) {
			t.Fatalf("%d values decoded, want %d", len(got), n%(1<<16))
		}
		for _, v := range got {
			if width == 32 && v > 1<<32-1 {
				t.Fatalf("value %d exceeds 32 bits", v)
			}
		}
	})
}

// FuzzGenericVariableChunk mutates 2.3 mini-block chunks whose Variable
// offsets use a generic sequence codec.
func FuzzGenericVariableChunk(f *testing.F) {
	enc := &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Variable{Variable: &pb.Variable{
		Offsets: deltaEnc(32, 0, flatEnc(32))}}}
	f.Add(u32le(2, 3), []byte("abcde"), uint16(2))
	f.Fuzz(func(t *testing.T, offs, vals []byte, n uint16) {
		b, err := DecodeMiniBlock(enc, [][]byte{offs, vals}, uint64(n))
		if err == nil {
			if err := checkVariable("fuzz", b); err != nil {
				t.Fatal(err)
			}
		}
	})
}
