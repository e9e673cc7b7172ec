package layouts

import (
	"encoding/binary"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/format"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	pb23 "github.com/lancego/lancego/format/pb/encodings23pb"
)

// sparseArray decodes every row of a sparse page in pieces of step rows,
// unravels the levels and builds field f's array.
func sparseArray(t *testing.T, pl *pb23.PlanarLayout, rows uint64, bufs [][]byte, f *Field, step uint64) (arrow.Array, error) {
	t.Helper()
	l, err := NewSparseLayout(pl)
	if err != nil {
		return nil, err
	}
	sizes := make([]uint64, len(bufs))
	for i, b := range bufs {
		sizes[i] = uint64(len(b))
	}
	p, err := NewSparsePage(pl, l, rows, sizes, bufs, f.Leaves()[0].Type)
	if err != nil {
		return nil, err
	}
	if err := CheckLayers(p.Set, f.LeafPath(f.Leaves()[0])); err != nil {
		return nil, err
	}
	var out sparseOut
	for r := uint64(0); r < rows; r += step {
		if err := decodeSparseBoth(p, bufs, r, min(r+step, rows), &out, f.Leaves()[0].Type); err != nil {
			return nil, err
		}
	}
	node, err := out.finish(p)
	if err != nil {
		return nil, err
	}
	return BuildArray(memory.DefaultAllocator, f, []LeafData{{Node: node, Values: &out.vals}})
}

func u32s(vs ...uint32) []byte {
	var out []byte
	for _, v := range vs {
		out = binary.LittleEndian.AppendUint32(out, v)
	}
	return out
}

func sparseFSL(dim uint64, v *pb23.SparseValiditySet) *pb23.SparseStructuralLayer {
	return &pb23.SparseStructuralLayer{Layer: &pb23.SparseStructuralLayer_FixedSizeList{
		FixedSizeList: &pb23.SparseFixedSizeListLayer{Dimension: dim, Validity: v}}}
}

// fslStructField is fixed_size_list<struct<x: int32>, 2>.
func fslStructField() *Field {
	x := &Field{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true, Column: 0}
	st := arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true})
	item := &Field{Name: "item", Type: st, Nullable: true, Column: -1, Children: []*Field{x}}
	return &Field{Name: "fs", Type: arrow.FixedSizeListOfField(2, arrow.Field{Name: "item", Type: st, Nullable: true}),
		Nullable: true, Column: -1, Children: []*Field{item}}
}

// fslPage is 4 rows of fixed_size_list<struct<x>, 2>: row 1 null, struct
// slot 6 null, leaf slot 0 null; constant x = 7 elsewhere.
func fslPage(dim uint64) (*pb23.PlanarLayout, [][]byte) {
	layers := []*pb23.SparseStructuralLayer{
		sparseFSL(dim, validity(nullPos, 1)), validityLayer(validity(nullPos, 1)), validityLayer(validity(nullPos, 1))}
	pl := &pb23.PlanarLayout{
		Structure: &pb23.StructuralPlane{Codec: &pb23.StructuralPlane_Sparse{Sparse: &pb23.SparseStructure{Layers: layers}}},
		Values:    &pb23.ValuePlane{Codec: &pb23.ValuePlane_Constant{Constant: &pb23.ConstantValue{Scalar: u32s(7)}}},
	}
	return pl, [][]byte{le64(1), le64(6), le64(0)}
}

func TestSparseFixedSizeListLayer(t *testing.T) {
	pl, bufs := fslPage(2)
	for _, step := range []uint64{1, 3, 4} {
		arr, err := sparseArray(t, pl, 4, bufs, fslStructField(), step)
		if err != nil {
			t.Fatal(err)
		}
		want := `[{[(null) 7]} (null) {[7 7]} {[(null) 7]}]` // each row prints its struct<x> slice
		if got := arr.String(); got != want {
			t.Fatalf("step %d: got %s, want %s", step, got, want)
		}
		st := arr.(*array.FixedSizeList).ListValues().(*array.Struct)
		x := st.Field(0)
		// slot 0: valid struct, null x; slots 2, 3: below the null row;
		// slot 6: null struct.
		if st.IsNull(0) || !x.IsNull(0) || !st.IsNull(2) || !st.IsNull(3) || !st.IsNull(6) || st.NullN() != 3 || x.NullN() != 4 {
			t.Fatalf("step %d: struct nulls %d, x nulls %d", step, st.NullN(), x.NullN())
		}
		arr.Release()
	}
}

func TestSparseFixedSizeListLayerChecks(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(pl *pb23.PlanarLayout, bufs [][]byte) [][]byte
		want string
	}{
		{"dimension 0", func(pl *pb23.PlanarLayout, b [][]byte) [][]byte {
			pl.GetStructure().GetSparse().Layers[0].GetFixedSizeList().Dimension = 0
			return b
		}, "fixed_size_list.dimension: 0"},
		{"domain overflow", func(pl *pb23.PlanarLayout, b [][]byte) [][]byte {
			pl.GetStructure().GetSparse().Layers[0].GetFixedSizeList().Dimension = 1 << 62
			return b
		}, "exceed"},
		{"null row beyond the rows", func(_ *pb23.PlanarLayout, b [][]byte) [][]byte {
			b[0] = le64(4)
			return b
		}, "layers[0].fixed_size_list.validity.positions: position 0 (4) not strictly increasing below 4"},
		{"leaf position beyond the child slots", func(_ *pb23.PlanarLayout, b [][]byte) [][]byte {
			b[2] = le64(8)
			return b
		}, "layers[2].validity.positions: position 0 (8) not strictly increasing below 8"},
		{"missing validity", func(pl *pb23.PlanarLayout, b [][]byte) [][]byte {
			pl.GetStructure().GetSparse().Layers[0].GetFixedSizeList().Validity = nil
			return b[1:]
		}, "missing validity set"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pl, bufs := fslPage(2)
			bufs = tc.edit(pl, bufs)
			_, err := sparseArray(t, pl, 4, bufs, fslStructField(), 4)
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want ErrCorrupt mentioning %q", err, tc.want)
			}
		})
	}
	// A dimension that differs from the schema's.
	pl, bufs := fslPage(3)
	bufs[2] = le64(0)
	if _, err := sparseArray(t, pl, 4, bufs, fslStructField(), 4); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "dimension 3, field \"fs\" has 2") {
		t.Fatalf("err = %v", err)
	}
}

// TestUnravelFixedSizeListCounts: a fixed-size-list slot with more or
// fewer entries than its dimension is corrupt.
func TestUnravelFixedSizeListCounts(t *testing.T) {
	set := layerSetOf([]layerSpec{{kind: LayerItem}, {kind: LayerFSL, dim: 2}})
	if _, err := Unravel(set, Levels{Rep: []uint16{1, 0, 1, 0}, N: 4}); err != nil {
		t.Fatal(err)
	}
	for _, rep := range [][]uint16{{1, 0, 0, 1, 0}, {1, 1, 0}} {
		_, err := Unravel(set, Levels{Rep: rep, N: len(rep)})
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "fixed-size list") {
			t.Fatalf("rep %v: err = %v", rep, err)
		}
	}
}

// Indexed value planes, built per the layout pylance 14.0.2 writes
// (testdata/pylance/2.3/planar_indexed): 4 rows, row 1 null; items "ab"
// and "cde" zipped with 32-bit length prefixes, a 32-bit byte index.
func indexedPage(indices []uint32) (*pb23.PlanarLayout, [][]byte) {
	items := &pb23.ZippedValues{Compression: codecs.VariableEncoding(32), NumItems: 2, NumVisibleItems: 2,
		Addressing: &pb23.ZippedValues_BitsPerOffset{BitsPerOffset: 32}}
	pl := &pb23.PlanarLayout{
		Structure: &pb23.StructuralPlane{Codec: &pb23.StructuralPlane_Sparse{Sparse: &pb23.SparseStructure{
			Layers: []*pb23.SparseStructuralLayer{validityLayer(validity(nullPos, 1))}}}},
		Values: &pb23.ValuePlane{Codec: &pb23.ValuePlane_Indexed{Indexed: &pb23.IndexedValues{
			Indices: codecs.FlatEncoding(32), Items: items}}},
	}
	data := append(append(u32s(2), "ab"...), append(u32s(3), "cde"...)...)
	return pl, [][]byte{u32s(indices...), data, u32s(0, 6, 13), le64(1)}
}

func stringField() *Field {
	return &Field{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true, Column: 0}
}

func TestIndexedValues(t *testing.T) {
	pl, bufs := indexedPage([]uint32{1, 0, 0, 1})
	for _, step := range []uint64{1, 2, 4} {
		arr, err := sparseArray(t, pl, 4, bufs, stringField(), step)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := arr.String(), `["cde" (null) "ab" "cde"]`; got != want {
			t.Fatalf("step %d: got %s, want %s", step, got, want)
		}
		arr.Release()
	}
	// Reads fetch only the items their rows use: none for the null row.
	l, _ := NewSparseLayout(pl)
	p, err := NewSparsePage(pl, l, 4, []uint64{16, 13, 12, 8}, bufs, arrow.BinaryTypes.String)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		from, to, lo, hi uint64
		ok               bool
	}{{1, 2, 0, 0, false}, {3, 4, 1, 2, true}, {2, 3, 0, 1, true}, {0, 4, 0, 2, true}} {
		lo, hi, ok, err := p.ValueRows(tc.from, tc.to)
		if err != nil || ok != tc.ok || ok && (lo != tc.lo || hi != tc.hi) {
			t.Errorf("ValueRows(%d, %d) = %d, %d, %v, %v; want items [%d, %d) %v", tc.from, tc.to, lo, hi, ok, err, tc.lo, tc.hi, tc.ok)
		}
		if runs := p.ItemRuns(tc.from, tc.to); tc.ok != (len(runs) == 1) || tc.ok && runs[0] != (ItemRun{tc.lo, tc.hi}) {
			t.Errorf("ItemRuns(%d, %d) = %v, want [%d, %d)", tc.from, tc.to, runs, tc.lo, tc.hi)
		}
	}
}

func TestIndexedValuesChecks(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(pl *pb23.PlanarLayout, bufs [][]byte)
		leaf *Field
		want string
	}{
		{"index beyond the items", func(_ *pb23.PlanarLayout, b [][]byte) { b[0] = u32s(1, 0, 2, 1) },
			nil, "index 2 of slot 2 is not below the 2 items"},
		{"too few indices", func(_ *pb23.PlanarLayout, b [][]byte) { b[0] = u32s(1, 0, 0) }, nil, "values.indexed.indices"},
		{"metadata-only indices with a buffer", func(pl *pb23.PlanarLayout, _ [][]byte) {
			pl.GetValues().GetIndexed().Indices = &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Constant{
				Constant: &pb.Constant{Value: u32s(0)}}}
		}, nil, "metadata-only codec with a 16-byte buffer"},
		{"no indices codec", func(pl *pb23.PlanarLayout, _ [][]byte) { pl.GetValues().GetIndexed().Indices = nil }, nil, "values.indexed.indices: missing"},
		{"no items", func(pl *pb23.PlanarLayout, _ [][]byte) { pl.GetValues().GetIndexed().Items = nil }, nil, "values.indexed.items: missing"},
		{"fixed-width items", func(pl *pb23.PlanarLayout, _ [][]byte) {
			pl.GetValues().GetIndexed().GetItems().Addressing = &pb23.ZippedValues_BitsPerValue{BitsPerValue: 32}
		}, nil, "values.indexed.items.addressing"},
		{"dense item levels", func(pl *pb23.PlanarLayout, _ [][]byte) {
			pl.GetValues().GetIndexed().GetItems().Levels = &pb23.DenseZipLevels{}
		}, nil, "values.indexed.items: dense levels"},
		{"visible items differ", func(pl *pb23.PlanarLayout, _ [][]byte) {
			pl.GetValues().GetIndexed().GetItems().NumVisibleItems = 3
		}, nil, "num_visible_items 3"},
		{"byte index too short", func(_ *pb23.PlanarLayout, b [][]byte) { b[2] = u32s(0, 6) }, nil, "indexed items"},
		{"int32 leaf", nil, &Field{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true, Column: 0}, "int32 leaf"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pl, bufs := indexedPage([]uint32{1, 0, 0, 1})
			if tc.edit != nil {
				tc.edit(pl, bufs)
			}
			f := tc.leaf
			if f == nil {
				f = stringField()
			}
			_, err := sparseArray(t, pl, 4, bufs, f, 4)
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want ErrCorrupt mentioning %q", err, tc.want)
			}
		})
	}
}

// TestRealIndexedPageReadsOneItem: in pylance's indexed page a one-row
// read needs one item's bytes, a null row none.
func TestRealIndexedPageReadsOneItem(t *testing.T) {
	b, err := os.ReadFile("../testdata/pylance/2.3/planar_indexed.lance")
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := format.ParseTail(uint64(len(b)), b)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := format.DecodePageEncoding(m.Columns[0].GetPages()[0])
	if err != nil || enc.Planar.GetValues().GetIndexed() == nil {
		t.Fatalf("page 0 is not indexed (%v)", err)
	}
	ranges, _ := m.PageRanges(0, 0)
	sizes := make([]uint64, len(ranges))
	bufs := make([][]byte, len(ranges))
	for i, r := range ranges {
		sizes[i], bufs[i] = r.Length, b[r.Offset:r.Offset+r.Length]
	}
	l, err := NewSparseLayout(enc.Planar)
	if err != nil {
		t.Fatal(err)
	}
	bufs[l.DataBuffer] = nil // read per row
	p, err := NewSparsePage(enc.Planar, l, m.NumRows, sizes, bufs, arrow.BinaryTypes.String)
	if err != nil {
		t.Fatal(err)
	}
	nulls, valid := 0, 0
	for r := range m.NumRows {
		lo, hi, ok, err := p.ValueRows(r, r+1)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			nulls++
			continue
		}
		a, z, err := p.Full.RowBytes(lo, hi)
		if err != nil || hi != lo+1 || z-a > sizes[l.DataBuffer]/10 {
			t.Fatalf("row %d: items [%d, %d), bytes [%d, %d) of %d (%v)", r, lo, hi, a, z, sizes[l.DataBuffer], err)
		}
		valid++
	}
	if nulls == 0 || valid == 0 {
		t.Fatalf("%d null and %d valid rows", nulls, valid)
	}
}

// TestUnravelFixedSizeListSeed is FuzzUnravel's fixed-size-list seed.
func TestUnravelFixedSizeListSeed(t *testing.T) {
	set := layerSetOf([]layerSpec{{kind: LayerItem, null: true}, {kind: LayerFSL, null: true, dim: 2}})
	top, err := Unravel(set, Levels{Rep: []uint16{1, 0, 1, 0}, Def: []uint16{0, 1, 2, 2}, N: 4})
	if err != nil {
		t.Fatal(err)
	}
	if top.Kind != LayerFSL || top.Len != 2 || top.NullCount != 1 || top.Child.Len != 4 || top.Child.NullCount != 3 {
		t.Fatalf("fsl %d slots %d nulls, items %d slots %d nulls", top.Len, top.NullCount, top.Child.Len, top.Child.NullCount)
	}
}
