package v20

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodingspb"
)

// Encoding builders for hand-made pages. Real Lance 2.0 files cover flat,
// nullable, binary, dictionary, FSST, fixed-size list, packed struct and
// list pages (corpus and pylance tests); the encodings below are ones
// current Lance no longer writes into 2.0 files (legacy bit-packing,
// FastLanes, fixed-size binary, constant), so they are checked against the
// byte layout of lance-encoding's previous/ decoders.

func page(i uint32) *pb.Buffer { return &pb.Buffer{BufferIndex: i} }

func flat(bits uint64, buf uint32) *pb.ArrayEncoding {
	return &pb.ArrayEncoding{ArrayEncoding: &pb.ArrayEncoding_Flat{Flat: &pb.Flat{BitsPerValue: bits, Buffer: page(buf)}}}
}

func u64s(v ...uint64) []byte {
	var b []byte
	for _, x := range v {
		b = binary.LittleEndian.AppendUint64(b, x)
	}
	return b
}

// values renders a decoded block of 8..64-bit integers or strings.
func values(t *testing.T, d Decoded) []any {
	t.Helper()
	out := make([]any, d.Block.NumValues)
	for i := range out {
		if d.Validity != nil && !getBit(d.Validity, uint64(i)) {
			continue
		}
		switch d.Block.Kind {
		case codecs.KindVariable:
			s, e := readOff(d.Block.Offsets, 8, uint64(i)), readOff(d.Block.Offsets, 8, uint64(i)+1)
			out[i] = string(d.Block.Data[s:e])
		default:
			v := uintAt(&d.Block, uint64(i))
			if d.Block.BitsPerValue < 64 && v>>(d.Block.BitsPerValue-1)&1 == 1 {
				v |= ^uint64(0) << d.Block.BitsPerValue // show as signed
			}
			out[i] = int64(v)
		}
	}
	return out
}

// handMadePage is a hand-made page, the rows [from, to) read from it and
// the values they hold.
type handMadePage struct {
	name     string
	enc      *pb.ArrayEncoding
	dt       arrow.DataType
	bufs     [][]byte
	rows     uint64
	from, to uint64
	want     []any
}

// handMadePages returns the hand-made pages (also FuzzPage's seeds).
func handMadePages() []handMadePage {
	str := arrow.BinaryTypes.String
	i32 := arrow.PrimitiveTypes.Int32
	binaryEnc := &pb.ArrayEncoding{ArrayEncoding: &pb.ArrayEncoding_Binary{Binary: &pb.Binary{
		Indices: flat(64, 0), Bytes: flat(8, 1), NullAdjustment: 8}}}
	// "ab", null, "", "cde", null: ends 2, 2+8, 2, 5, 5+8
	binaryBufs := [][]byte{u64s(2, 10, 2, 5, 13), []byte("abcde")}
	dict := &pb.ArrayEncoding{ArrayEncoding: &pb.ArrayEncoding_Dictionary{Dictionary: &pb.Dictionary{
		Indices: flat(8, 0), Items: &pb.ArrayEncoding{ArrayEncoding: &pb.ArrayEncoding_Binary{Binary: &pb.Binary{
			Indices: flat(64, 1), Bytes: flat(8, 2), NullAdjustment: 6}}}, NumDictionaryItems: 2}}}
	// legacy bit-packing, 3 bits signed: -1, 3, -4, 0, 2 → 7, 3, 4, 0, 2 LSB-first
	var packed uint64
	for i, v := range []uint64{7, 3, 4, 0, 2} {
		packed |= v << (3 * i)
	}
	bitpacked := &pb.ArrayEncoding{ArrayEncoding: &pb.ArrayEncoding_Bitpacked{Bitpacked: &pb.Bitpacked{
		CompressedBitsPerValue: 3, UncompressedBitsPerValue: 32, Buffer: page(0), Signed: true}}}
	fsb := &pb.ArrayEncoding{ArrayEncoding: &pb.ArrayEncoding_FixedSizeBinary{FixedSizeBinary: &pb.FixedSizeBinary{
		Bytes: flat(8, 0), ByteWidth: 2}}}
	constant := &pb.ArrayEncoding{ArrayEncoding: &pb.ArrayEncoding_Constant{Constant: &pb.Constant{Value: []byte{9, 0, 0, 0}}}}
	someNulls := &pb.ArrayEncoding{ArrayEncoding: &pb.ArrayEncoding_Nullable{Nullable: &pb.Nullable{
		Nullability: &pb.Nullable_SomeNulls{SomeNulls: &pb.Nullable_SomeNull{Validity: flat(1, 0), Values: flat(32, 1)}}}}}
	allNulls := &pb.ArrayEncoding{ArrayEncoding: &pb.ArrayEncoding_Nullable{Nullable: &pb.Nullable{
		Nullability: &pb.Nullable_AllNulls{AllNulls: &pb.Nullable_AllNull{}}}}}
	return []handMadePage{
		{"binary all", binaryEnc, str, binaryBufs, 5, 0, 5, []any{"ab", nil, "", "cde", nil}},
		{"binary tail", binaryEnc, str, binaryBufs, 5, 2, 4, []any{"", "cde"}},
		{"binary after null", binaryEnc, str, binaryBufs, 5, 2, 3, []any{""}},
		{"dictionary shifted", dict, str, [][]byte{{1, 0, 2, 2}, u64s(1, 3), []byte("xyz")}, 4, 0, 4, []any{"x", nil, "yz", "yz"}},
		{"dictionary as dictionary", dict, &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Uint8, ValueType: str},
			[][]byte{{1, 0}, u64s(1, 3), []byte("xyz")}, 2, 0, 2, []any{"yz", "x"}},
		{"legacy bitpacked signed", bitpacked, i32, [][]byte{u64s(packed)[:2]}, 5, 0, 5, []any{int64(-1), int64(3), int64(-4), int64(0), int64(2)}},
		{"legacy bitpacked slice", bitpacked, i32, [][]byte{u64s(packed)[:2]}, 5, 3, 5, []any{int64(0), int64(2)}},
		{"fixed-size binary", fsb, str, [][]byte{[]byte("aabbcc")}, 3, 1, 3, []any{"bb", "cc"}},
		{"constant", constant, i32, nil, 3, 0, 2, []any{int64(9), int64(9)}},
		{"some nulls at bit offset", someNulls, i32, [][]byte{{0b10110}, u64s(0x200000001, 0x400000003, 5)}, 5, 1, 4,
			[]any{int64(2), int64(3), nil}},
		{"all nulls", allNulls, i32, nil, 4, 1, 3, []any{nil, nil}},
	}
}

func TestDecodeHandMadePages(t *testing.T) {
	for _, tc := range handMadePages() {
		t.Run(tc.name, func(t *testing.T) {
			p, err := NewPage(tc.enc, tc.dt, tc.rows, Buffers{Page: tc.bufs})
			if err != nil {
				t.Fatal(err)
			}
			d, err := p.Decode(tc.from, tc.to)
			if err != nil {
				t.Fatal(err)
			}
			got := values(t, d)
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
			}
		})
	}
}

// fastLanesPage returns a FastLanes page of 1500 uint16 values i%512 in 9
// bits (two chunks of 1024).
func fastLanesPage(tb testing.TB) (*pb.ArrayEncoding, []byte) {
	src := make([]byte, 0, 2*1024*2)
	for i := range 1500 {
		src = binary.LittleEndian.AppendUint16(src, uint16(i%512))
	}
	src = append(src, make([]byte, 2*(2048-1500))...)
	var buf []byte
	var err error
	for k := range 2 {
		if buf, err = codecs.PackFastLanes(buf, src[k*2048:], 16, 9); err != nil {
			tb.Fatal(err)
		}
	}
	enc := &pb.ArrayEncoding{ArrayEncoding: &pb.ArrayEncoding_BitpackedForNonNeg{BitpackedForNonNeg: &pb.BitpackedForNonNeg{
		CompressedBitsPerValue: 9, UncompressedBitsPerValue: 16, Buffer: page(0)}}}
	return enc, buf
}

func TestFastLanesPage(t *testing.T) {
	enc, buf := fastLanesPage(t)
	p, err := NewPage(enc, arrow.PrimitiveTypes.Uint16, 1500, Buffers{Page: [][]byte{buf}})
	if err != nil {
		t.Fatal(err)
	}
	d, err := p.Decode(1000, 1500)
	if err != nil {
		t.Fatal(err)
	}
	for i := range uint64(500) {
		if got := uintAt(&d.Block, i); got != (1000+i)%512 {
			t.Fatalf("value %d = %d", 1000+i, got)
		}
	}
	if _, err := NewPage(enc, arrow.PrimitiveTypes.Uint16, 2049, Buffers{Page: [][]byte{buf}}); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("short buffer: err = %v", err)
	}
}

func TestListPage(t *testing.T) {
	// lists [0,2), null, [2,2), [2,5) with null adjustment 6
	enc := &pb.ArrayEncoding{ArrayEncoding: &pb.ArrayEncoding_List{List: &pb.List{
		Offsets: flat(64, 0), NullOffsetAdjustment: 6, NumItems: 5}}}
	p, err := NewPage(enc, nil, 4, Buffers{Page: [][]byte{u64s(2, 8, 2, 5)}})
	if err != nil {
		t.Fatal(err)
	}
	var l List
	lo, hi, err := p.DecodeList(1, 4, &l)
	if err != nil {
		t.Fatal(err)
	}
	n := l.Node(nil)
	if lo != 2 || hi != 5 || n.Len != 3 || n.NullCount != 1 || n.Offsets[1] != 0 || n.Offsets[2] != 0 || n.Offsets[3] != 3 {
		t.Fatalf("items [%d,%d), node %+v", lo, hi, n)
	}
	bad := &pb.ArrayEncoding{ArrayEncoding: &pb.ArrayEncoding_List{List: &pb.List{Offsets: flat(64, 0), NullOffsetAdjustment: 6, NumItems: 1}}}
	p, _ = NewPage(bad, nil, 4, Buffers{Page: [][]byte{u64s(2, 8, 2, 5)}})
	if _, _, err := p.DecodeList(0, 4, &l); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("offsets beyond num_items: err = %v", err)
	}
}
