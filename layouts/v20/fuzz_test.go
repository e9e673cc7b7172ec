package v20

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/protobuf/proto"

	"github.com/lancego/lancego/format"
	pb "github.com/lancego/lancego/format/pb/encodingspb"
	"github.com/lancego/lancego/layouts"
)

// fuzzTypes are the Arrow types a fuzzed page is decoded as.
var fuzzTypes = []arrow.DataType{
	arrow.PrimitiveTypes.Int32,
	arrow.PrimitiveTypes.Int64,
	arrow.PrimitiveTypes.Uint8,
	arrow.PrimitiveTypes.Float64,
	arrow.FixedWidthTypes.Float16,
	arrow.FixedWidthTypes.Boolean,
	arrow.BinaryTypes.String,
	arrow.BinaryTypes.LargeBinary,
	&arrow.FixedSizeBinaryType{ByteWidth: 16},
	arrow.FixedSizeListOf(4, arrow.PrimitiveTypes.Int32),
	&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String},
	blobType,
	arrow.PrimitiveTypes.Uint16,
	&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Uint8, ValueType: arrow.BinaryTypes.String},
}

// blobType is the descriptor struct of 2.0 blobs (a packed struct).
var blobType = arrow.StructOf(
	arrow.Field{Name: "position", Type: arrow.PrimitiveTypes.Uint64},
	arrow.Field{Name: "size", Type: arrow.PrimitiveTypes.Uint64})

// typeIndex returns the index of dt in fuzzTypes, or -1.
func typeIndex(dt arrow.DataType) int {
	for i, t := range fuzzTypes {
		if arrow.TypeEqual(t, dt) {
			return i
		}
	}
	return -1
}

// pageSeed is one real page: its encoding, buffers, rows and type.
type pageSeed struct {
	enc  []byte
	bufs [3][]byte
	rows uint64
	typ  int
}

// realPages returns the pages of the 2.0 golden files (up to 3 buffers).
func realPages(tb testing.TB) []pageSeed {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "corpus", "2.0", "*.lance"))
	var out []pageSeed
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			tb.Fatal(err)
		}
		m, _, err := format.ParseTail(uint64(len(b)), b)
		if err != nil {
			tb.Fatalf("%s: %v", path, err)
		}
		for c, col := range m.Columns {
			fld := m.Schema.ColumnField(c)
			for p, pg := range col.GetPages() {
				enc, err := format.DecodeArrayEncoding(pg)
				if err != nil || len(pg.GetBufferOffsets()) > 3 {
					continue
				}
				s := pageSeed{rows: pg.GetLength(), typ: -1}
				s.enc, _ = proto.Marshal(enc)
				if fld != nil {
					s.typ = typeIndex(fld.ArrowType)
				}
				if enc.GetList() != nil {
					s.typ = 0
				}
				if s.typ < 0 {
					continue
				}
				rs, _ := m.PageRanges(c, p)
				for i, r := range rs {
					s.bufs[i] = b[r.Offset : r.Offset+r.Length]
				}
				out = append(out, s)
			}
		}
	}
	return out
}

// handSeeds returns the hand-made pages of decode_test.go (legacy
// bit-packing, FastLanes, fixed-size binary, constant, ...: encodings no
// real file in testdata has) as seeds.
func handSeeds(tb testing.TB) []pageSeed {
	var out []pageSeed
	add := func(enc *pb.ArrayEncoding, dt arrow.DataType, bufs [][]byte, rows uint64) {
		s := pageSeed{rows: rows, typ: typeIndex(dt)}
		if s.typ < 0 {
			tb.Fatalf("hand-made page type %s is not a fuzz type", dt)
		}
		s.enc, _ = proto.Marshal(enc)
		copy(s.bufs[:], bufs)
		out = append(out, s)
	}
	for _, p := range handMadePages() {
		add(p.enc, p.dt, p.bufs, p.rows)
	}
	enc, buf := fastLanesPage(tb)
	add(enc, arrow.PrimitiveTypes.Uint16, [][]byte{buf}, 1500)
	return out
}

// FuzzPage decodes mutated 2.0 pages (encoding tree, buffers, row count,
// row range, Arrow type) and builds Arrow arrays from what decodes: any
// input must give values or an error, never a panic or a hang.
func FuzzPage(f *testing.F) {
	for _, s := range append(realPages(f), handSeeds(f)...) {
		f.Add(s.enc, s.bufs[0], s.bufs[1], s.bufs[2], uint32(s.rows), uint32(0), uint32(s.rows), uint8(s.typ))
		f.Add(s.enc, s.bufs[0], s.bufs[1], s.bufs[2], uint32(s.rows), uint32(s.rows/3), uint32(s.rows/2+1), uint8(s.typ))
	}
	f.Fuzz(func(t *testing.T, enc, b0, b1, b2 []byte, rows, from, to uint32, typ uint8) {
		var e pb.ArrayEncoding
		if proto.Unmarshal(enc, &e) != nil || rows > 1<<16 {
			return
		}
		dt := fuzzTypes[int(typ)%len(fuzzTypes)]
		p, err := NewPage(&e, dt, uint64(rows), Buffers{Page: [][]byte{b0, b1, b2}})
		if err != nil {
			return
		}
		lo, hi := uint64(from)%(uint64(rows)+1), uint64(to)%(uint64(rows)+1)
		if lo > hi {
			lo, hi = hi, lo
		}
		if e.GetList() != nil {
			var l List
			_, _, _ = p.DecodeList(lo, hi, &l)
			return
		}
		d, err := p.Decode(lo, hi)
		if err != nil {
			return
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		a := build(mem, dt, d)
		if a == nil {
			return
		}
		defer a.Release()
		// A read through windows must give the same values.
		base, ws, ok := Windows(&e, dt, lo, hi)
		if !ok {
			return
		}
		full := [][]byte{b0, b1, b2}
		got := make([][]byte, len(ws))
		for i, w := range ws {
			if w.Buffer > 2 || w.Hi > uint64(len(full[w.Buffer])) {
				return // the whole page would not fit either; decode checked less
			}
			got[i] = full[w.Buffer][w.Lo:w.Hi]
		}
		bufs, err := WindowBuffers(ws, got)
		if err != nil {
			t.Fatal(err)
		}
		sp, err := NewPage(&e, dt, hi-base, Buffers{Page: bufs})
		if err != nil {
			t.Fatalf("sub-page: %v", err)
		}
		d2, err := sp.Decode(lo-base, hi-base)
		if err != nil {
			t.Fatalf("sub-page decode: %v", err)
		}
		a2 := build(mem, dt, d2)
		if a2 == nil {
			t.Fatal("sub-page values do not build")
		}
		defer a2.Release()
		if !array.Equal(a, a2) {
			t.Fatalf("window read differs:\n%v\n%v", a, a2)
		}
	})
}

// build makes an Arrow array of decoded rows, or nil.
func build(mem memory.Allocator, dt arrow.DataType, d Decoded) arrow.Array {
	var leaf Leaf
	if leaf.Append(d) != nil {
		return nil
	}
	ld, err := leaf.Finish(dt)
	if err != nil {
		return nil
	}
	fld := &layouts.Field{Name: "x", Type: dt, Nullable: true, Column: 0}
	a, err := layouts.BuildArray(mem, fld, []layouts.LeafData{ld})
	if err != nil {
		return nil
	}
	return a
}

// TestHandSeedsDecode: every hand-made seed, as FuzzPage receives it
// (marshalled encoding, type index), decodes whole, so the fuzzer starts
// from pages that reach the decoders.
func TestHandSeedsDecode(t *testing.T) {
	seeds := handSeeds(t)
	if len(seeds) < 12 {
		t.Fatalf("%d hand-made seeds", len(seeds))
	}
	for i, s := range seeds {
		var e pb.ArrayEncoding
		if err := proto.Unmarshal(s.enc, &e); err != nil {
			t.Fatal(err)
		}
		p, err := NewPage(&e, fuzzTypes[s.typ], s.rows, Buffers{Page: s.bufs[:]})
		if err != nil {
			t.Fatalf("seed %d: %v", i, err)
		}
		if _, err := p.Decode(0, s.rows); err != nil {
			t.Fatalf("seed %d: %v", i, err)
		}
	}
}
