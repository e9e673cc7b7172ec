package v20

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pb "github.com/lancego/lancego/format/pb/encodingspb"
	"github.com/lancego/lancego/layouts"
	"google.golang.org/protobuf/proto"
)

// decodeInto reads rows [from, to) of p into a scan's leaf in two pieces
// (split at mid) and builds the array, or returns the first error.
func decodeInto(mem memory.Allocator, p *Page, dt arrow.DataType, from, mid, to uint64) (arrow.Array, error) {
	var l Leaf
	l.Expect(mem, to-from)
	defer l.Free()
	if err := p.DecodeInto(from, mid, &l); err != nil {
		return nil, err
	}
	if err := p.DecodeInto(mid, to, &l); err != nil {
		return nil, err
	}
	ld, err := l.Finish(dt)
	if err != nil {
		return nil, err
	}
	return layouts.BuildArray(mem, &layouts.Field{Name: "x", Type: dt, Nullable: true, Column: 0}, []layouts.LeafData{ld})
}

// overwrite fills buffers with a byte no test value holds.
func overwrite(bufs [][]byte) {
	for _, b := range bufs {
		for i := range b {
			b[i] = 0xA5
		}
	}
}

// TestDecodeIntoHandMadePages reads every hand-made page through
// DecodeInto, prepared and lazy, in two pieces: the arrays equal Decode's,
// they hold copies (the page's buffers are overwritten before comparing)
// and the allocator gets all its memory back.
func TestDecodeIntoHandMadePages(t *testing.T) {
	for _, tc := range handMadePages() {
		for _, lazy := range []bool{false, true} {
			name := tc.name
			if lazy {
				name += "/lazy"
			}
			t.Run(name, func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				ref, err := NewPage(tc.enc, tc.dt, tc.rows, Buffers{Page: tc.bufs})
				if err != nil {
					t.Fatal(err)
				}
				d, err := ref.Decode(tc.from, tc.to)
				if err != nil {
					t.Fatal(err)
				}
				want := build(mem, tc.dt, d)
				if want == nil {
					t.Fatal("reference does not build")
				}
				defer want.Release()
				bufs := make([][]byte, len(tc.bufs))
				for i, b := range tc.bufs {
					bufs[i] = append([]byte(nil), b...)
				}
				p, err := newPage(tc.enc, tc.dt, tc.rows, Buffers{Page: bufs}, lazy)
				if err != nil {
					t.Fatal(err)
				}
				got, err := decodeInto(mem, p, tc.dt, tc.from, (tc.from+tc.to)/2, tc.to)
				if err != nil {
					t.Fatal(err)
				}
				defer got.Release()
				overwrite(bufs)
				if !array.Equal(want, got) {
					t.Fatalf("DecodeInto gives\n%v\nDecode gives\n%v", got, want)
				}
			})
		}
	}
}

// TestDecodeIntoFastLanes reads ranges of a lazy FastLanes page that start
// and end inside and on the edges of its 1024-value blocks.
func TestDecodeIntoFastLanes(t *testing.T) {
	enc, buf := fastLanesPage(t)
	u16 := arrow.PrimitiveTypes.Uint16
	p, err := NewViewedPage(enc, u16, 1500, Buffers{Page: [][]byte{buf}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range [][3]uint64{{0, 1024, 1500}, {3, 1000, 1030}, {1024, 1100, 1500}, {0, 0, 1}, {1499, 1499, 1500}} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		a, err := decodeInto(mem, p, u16, r[0], r[1], r[2])
		if err != nil {
			t.Fatalf("rows %v: %v", r, err)
		}
		vals := a.(*array.Uint16).Uint16Values()
		for i, v := range vals {
			if want := (r[0] + uint64(i)) % 512; uint64(v) != want {
				t.Fatalf("rows %v: value %d = %d, want %d", r, r[0]+uint64(i), v, want)
			}
		}
		a.Release()
		mem.AssertSize(t, 0)
	}
	if _, err := NewViewedPage(enc, u16, 2049, Buffers{Page: [][]byte{buf}}); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("short buffer: err = %v", err) // lazy pages check their buffers too
	}
	// A range beyond the buffer (rows the page does not claim) is refused.
	if _, err := p.unpackRange(enc, 2000, 2049); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("rows beyond the buffer: err = %v", err)
	}
}

// TestDecodeIntoShapeChange: a leaf fed pages of different value shapes
// (int64, then strings) reports corruption, as Append does.
func TestDecodeIntoShapeChange(t *testing.T) {
	ints, err := NewViewedPage(flat(64, 0), arrow.PrimitiveTypes.Int64, 2, Buffers{Page: [][]byte{u64s(1, 2)}})
	if err != nil {
		t.Fatal(err)
	}
	strs, err := NewViewedPage(&pb.ArrayEncoding{ArrayEncoding: &pb.ArrayEncoding_Binary{Binary: &pb.Binary{
		Indices: flat(64, 0), Bytes: flat(8, 1)}}}, arrow.BinaryTypes.String, 2, Buffers{Page: [][]byte{u64s(1, 2), []byte("ab")}})
	if err != nil {
		t.Fatal(err)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var l Leaf
	l.Expect(mem, 4)
	defer l.Free()
	if err := ints.DecodeInto(0, 2, &l); err != nil {
		t.Fatal(err)
	}
	if err := strs.DecodeInto(0, 2, &l); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("strings after ints: err = %v", err)
	}
}

// FuzzDecodeInto: a scan's decode of any page (lazy, in two pieces) never
// panics, gives back all the memory it takes, and when Decode of the same
// prepared page succeeds, gives the same values.
func FuzzDecodeInto(f *testing.F) {
	for _, s := range append(realPages(f), handSeeds(f)...) {
		f.Add(s.enc, s.bufs[0], s.bufs[1], s.bufs[2], uint32(s.rows), uint32(0), uint32(s.rows/2), uint32(s.rows), uint8(s.typ))
	}
	f.Fuzz(func(t *testing.T, enc, b0, b1, b2 []byte, rows, from, mid, to uint32, typ uint8) {
		var e pb.ArrayEncoding
		if proto.Unmarshal(enc, &e) != nil || rows > 1<<16 || e.GetList() != nil {
			return
		}
		dt := fuzzTypes[int(typ)%len(fuzzTypes)]
		bufs := Buffers{Page: [][]byte{b0, b1, b2}}
		p, err := NewViewedPage(&e, dt, uint64(rows), bufs)
		if err != nil {
			return
		}
		r := []uint64{uint64(from) % (uint64(rows) + 1), uint64(mid) % (uint64(rows) + 1), uint64(to) % (uint64(rows) + 1)}
		for i := 1; i < 3; i++ { // sort the three rows
			for j := i; j > 0 && r[j] < r[j-1]; j-- {
				r[j], r[j-1] = r[j-1], r[j]
			}
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		got, err := decodeInto(mem, p, dt, r[0], r[1], r[2])
		if err != nil {
			return
		}
		defer got.Release()
		ref, err := NewPage(&e, dt, uint64(rows), bufs)
		if err != nil {
			return
		}
		d, err := ref.Decode(r[0], r[2])
		if err != nil {
			return
		}
		want := build(mem, dt, d)
		if want == nil {
			return
		}
		defer want.Release()
		if !array.Equal(want, got) {
			t.Fatalf("DecodeInto gives\n%v\nDecode gives\n%v", got, want)
		}
	})
}
