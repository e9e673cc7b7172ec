package layouts

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lancego/lancego/format"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	pb23 "github.com/lancego/lancego/format/pb/encodings23pb"
	"google.golang.org/protobuf/proto"
)

// decodePlanarPage initializes a planar page from its layout and buffers
// and decodes every row, as the reader does; it must never panic.
func decodePlanarPage(pl *pb23.PlanarLayout, rows uint64, bufs [][]byte) error {
	if rows == 0 || rows > 1<<16 || pl.GetStructure() == nil || pl.GetValues() == nil {
		return nil
	}
	if pl.GetStructure().GetDense() != nil {
		layout, err := DenseAsPageLayout(pl)
		if err != nil {
			return err
		}
		return decodeWholePage(layout, rows, bufs, false)
	}
	l, err := NewSparseLayout(pl)
	if err != nil {
		return err
	}
	sizes := make([]uint64, len(bufs))
	for i, b := range bufs {
		sizes[i] = uint64(len(b))
	}
	p, err := NewSparsePage(pl, l, rows, sizes, bufs, nil)
	if err != nil {
		return err
	}
	var out sparseOut
	for r := uint64(0); r < rows; r += max(rows/7, 1) {
		to := min(r+max(rows/7, 1), rows)
		if err := decodeSparseBoth(p, bufs, r, to, &out, nil); err != nil {
			return err
		}
	}
	_, err = out.finish(p)
	return err
}

// planarSeeds returns (layout, up to six buffers) of the planar pages of
// the pylance 2.3 test files, and each page's row count.
func planarSeeds(t testing.TB) ([][7][]byte, []uint64) {
	var out [][7][]byte
	var rows []uint64
	files, _ := filepath.Glob("../testdata/pylance/2.3/*.lance")
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, _, err := format.ParseTail(uint64(len(b)), b)
		if err != nil {
			t.Fatal(err)
		}
		for c := range m.Columns {
			for i, pg := range m.Columns[c].GetPages() {
				enc, err := format.DecodePageEncoding(pg)
				if err != nil || enc.Planar == nil {
					continue
				}
				var seed [7][]byte
				seed[0], _ = proto.Marshal(enc.Planar)
				ranges, _ := m.PageRanges(c, i)
				total := 0
				for k := 0; k < len(ranges) && k < 6; k++ {
					seed[k+1] = b[ranges[k].Offset : ranges[k].Offset+ranges[k].Length]
					total += len(seed[k+1])
				}
				if len(ranges) <= 6 && total < 32<<10 {
					out = append(out, seed)
					n := pg.GetLength()
					if enc.Planar.GetStructure().GetDense() != nil {
						n *= m.Schema.RowScale(c) // dense pages count fixed-size-list items
					}
					rows = append(rows, n)
				}
			}
		}
	}
	return out, rows
}

// TestRealPlanarPagesDecode decodes every small planar page of the test
// files piece by piece (the reader's values are checked against pylance
// in TestCorpusScanAndTake; this exercises the layouts API alone).
func TestRealPlanarPagesDecode(t *testing.T) {
	seeds, rows := planarSeeds(t)
	if len(seeds) < 20 {
		t.Fatalf("only %d planar page seeds", len(seeds))
	}
	sparse, decoded, sparseDecoded := 0, 0, 0
	for i, s := range seeds {
		var pl pb23.PlanarLayout
		if err := proto.Unmarshal(s[0], &pl); err != nil {
			t.Fatal(err)
		}
		if pl.GetStructure().GetSparse() != nil {
			sparse++
		}
		err := decodePlanarPage(&pl, rows[i], trimBufs(s[1:]))
		if err == nil {
			if pl.GetStructure().GetSparse() != nil {
				sparseDecoded++
			}
			decoded++
		} else if !errors.Is(err, ErrUnsupported) {
			t.Fatalf("page %d: %v", i, err)
		}
	}
	if sparse < 10 || decoded < len(seeds)/2 || sparseDecoded < 10 {
		t.Fatalf("%d sparse pages among %d seeds, %d decoded (%d sparse)", sparse, len(seeds), decoded, sparseDecoded)
	}
}

// FuzzPlanarPage mutates the planar layout, row count and buffers of real
// 2.3 pages.
func FuzzPlanarPage(f *testing.F) {
	seeds, rows := planarSeeds(f)
	for i, s := range seeds {
		f.Add(s[0], uint16(min(rows[i], 1<<16-1)), s[1], s[2], s[3], s[4], s[5], s[6])
	}
	// The real indexed page is too large a seed: a small one built per its
	// layout, a fixed-size-list structure and a struct above a list (read
	// as a tree, and by levels when its null row owns children). Every
	// sparse page is read both ways and the reads must agree.
	for _, mk := range []func() (*pb23.PlanarLayout, [][]byte){
		func() (*pb23.PlanarLayout, [][]byte) { return indexedPage([]uint32{1, 0, 0, 1}) },
		func() (*pb23.PlanarLayout, [][]byte) { return fslPage(2) },
		func() (*pb23.PlanarLayout, [][]byte) { return structListPage(false) }, // tree read
		func() (*pb23.PlanarLayout, [][]byte) { return structListPage(true) },  // levels read
	} {
		pl, bufs := mk()
		lb, _ := proto.Marshal(pl)
		bufs = append(bufs, make([][]byte, 6-len(bufs))...)
		f.Add(lb, uint16(4), bufs[0], bufs[1], bufs[2], bufs[3], bufs[4], bufs[5])
	}
	// Structures whose null parents own list children (read as trees
	// that drop terminal slots) with a constant plane.
	for _, name := range []string{"struct_list", "fsl_struct_list", "struct_struct_list"} {
		d := dropShapes(1, 20, 30)[name]
		pl := &pb23.PlanarLayout{Structure: &pb23.StructuralPlane{Codec: &pb23.StructuralPlane_Sparse{
			Sparse: &pb23.SparseStructure{Layers: d.layers}}}, Values: ConstantPlane(u32s(7))}
		lb, _ := proto.Marshal(pl)
		bufs := append(slices.Clone(d.payloads), make([][]byte, 6-len(d.payloads))...)
		f.Add(lb, uint16(20), bufs[0], bufs[1], bufs[2], bufs[3], bufs[4], bufs[5])
	}
	f.Fuzz(func(t *testing.T, lb []byte, rows uint16, b0, b1, b2, b3, b4, b5 []byte) {
		var pl pb23.PlanarLayout
		if proto.Unmarshal(lb, &pl) != nil {
			return
		}
		if err := decodePlanarPage(&pl, uint64(rows), trimBufs([][]byte{b0, b1, b2, b3, b4, b5})); errors.Is(err, errPathsDiffer) {
			t.Fatal(err)
		}
	})
}

// Hand-built sparse structures for the validation checks.

func flat64() *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Flat{Flat: &pb.Flat{BitsPerValue: 64}}}
}

func le64(vs ...uint64) []byte {
	out := make([]byte, 8*len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint64(out[8*i:], v)
	}
	return out
}

func validity(meaning pb23.SparseValiditySet_Meaning, n uint64) *pb23.SparseValiditySet {
	return &pb23.SparseValiditySet{Meaning: meaning, Positions: flat64(), NumPositions: n}
}

func sparseList(children, nonEmpty uint64, v *pb23.SparseValiditySet) *pb23.SparseStructuralLayer {
	return &pb23.SparseStructuralLayer{Layer: &pb23.SparseStructuralLayer_List{List: &pb23.SparseListLayer{
		NumChildSlots: children, NonEmptyPositions: flat64(), NumNonEmptyPositions: nonEmpty, Counts: flat64(), Validity: v}}}
}

func validityLayer(v *pb23.SparseValiditySet) *pb23.SparseStructuralLayer {
	return &pb23.SparseStructuralLayer{Layer: &pb23.SparseStructuralLayer_Validity{Validity: v}}
}

const nullPos = pb23.SparseValiditySet_SPARSE_VALIDITY_NULL_POSITIONS

func TestSparseStructureChecks(t *testing.T) {
	// 4 rows: [10,11], null, [], [12]; items valid.
	list := func(children, nonEmpty uint64) *pb23.SparseStructure {
		return &pb23.SparseStructure{Layers: []*pb23.SparseStructuralLayer{
			sparseList(children, nonEmpty, validity(nullPos, 1)), validityLayer(validity(nullPos, 0))}}
	}
	ok := [][]byte{le64(0, 3), le64(2, 1), le64(1), nil}
	for _, tc := range []struct {
		name     string
		s        *pb23.SparseStructure
		payloads [][]byte
		want     string // "" = valid
	}{
		{"valid", list(3, 2), ok, ""},
		{"positions not increasing", list(3, 2), [][]byte{le64(3, 0), le64(2, 1), le64(1)}, "non_empty_positions: position 1"},
		{"position out of range", list(3, 2), [][]byte{le64(0, 4), le64(2, 1), le64(1)}, "not strictly increasing below 4"},
		{"counts over num_child_slots", list(2, 2), ok, "counts"},
		{"counts under num_child_slots", list(4, 2), ok, "sum 3 != num_child_slots 4"},
		{"zero count", list(2, 2), [][]byte{le64(0, 3), le64(2, 0), le64(1)}, "count 1 (0)"},
		{"non-empty position is null", list(3, 2), [][]byte{le64(0, 3), le64(2, 1), le64(3)}, "position 3 is null"},
		{"missing payload", list(3, 2), ok[:2], "payload buffer is missing"},
		{"extra payload", list(3, 2), [][]byte{le64(0, 3), le64(2, 1), le64(1), nil, le64(9)}, "left over"},
		{"unspecified meaning", &pb23.SparseStructure{Layers: []*pb23.SparseStructuralLayer{
			validityLayer(validity(pb23.SparseValiditySet_SPARSE_VALIDITY_UNSPECIFIED, 0))}}, [][]byte{le64()}, "meaning"},
		{"no layer variant", &pb23.SparseStructure{Layers: []*pb23.SparseStructuralLayer{{}}}, nil, "no layer variant"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lv, err := newSparseLevels(tc.s, 4, tc.payloads)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				// rows: [10,11] null [] [12] -> entries rep 1 0 1 1 1
				if got := lv.lv.Rep; len(got) != 5 || got[0] != 1 || got[1] != 0 {
					t.Fatalf("rep = %v", got)
				}
				if slots := lv.slot; slots[0] != 0 || slots[1] != 1 || slots[2] != -1 || slots[3] != -1 || slots[4] != 2 {
					t.Fatalf("slots = %v", slots)
				}
				return
			}
			if err == nil || !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want ErrCorrupt mentioning %q", err, tc.want)
			}
		})
	}
}
