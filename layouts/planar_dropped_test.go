package layouts

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/format"
	pb23 "github.com/lancego/lancego/format/pb/encodings23pb"
)

// droppedFile writes testdata/pylance/gen_planar_dropped.py's file (sparse
// pages whose null parents own list children) with pylance 14.0.2 and
// returns its path without the .lance suffix; it skips without LANCE_PY.
func droppedFile(t testing.TB, rows int) string {
	t.Helper()
	py := os.Getenv("LANCE_PY")
	if py == "" {
		t.Skip("needs LANCE_PY (pylance 14.0.2)")
	}
	out := filepath.Join(t.TempDir(), "dropped")
	gen := filepath.Join("..", "testdata", "pylance", "gen_planar_dropped.py")
	if b, err := exec.Command(py, gen, out, itoa(rows)).CombinedOutput(); err != nil {
		t.Fatalf("gen_planar_dropped.py: %v\n%s", err, b)
	}
	return out
}

func itoa(n int) string {
	b := []byte{}
	for ; n > 0 || len(b) == 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// filePlanarPages returns the sparse planar pages of a file with their
// buffers and row counts.
func filePlanarPages(t testing.TB, path string) ([]*pb23.PlanarLayout, [][][]byte, []uint64) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := format.ParseTail(uint64(len(b)), b)
	if err != nil {
		t.Fatal(err)
	}
	var pls []*pb23.PlanarLayout
	var bufs [][][]byte
	var rows []uint64
	for c := range m.Columns {
		for i, pg := range m.Columns[c].GetPages() {
			enc, err := format.DecodePageEncoding(pg)
			if err != nil || enc.Planar == nil || enc.Planar.GetStructure().GetSparse() == nil {
				continue
			}
			ranges, err := m.PageRanges(c, i)
			if err != nil {
				t.Fatal(err)
			}
			var bs [][]byte
			for _, r := range ranges {
				bs = append(bs, b[r.Offset:r.Offset+r.Length])
			}
			pls, bufs, rows = append(pls, enc.Planar), append(bufs, bs), append(rows, pg.GetLength())
		}
	}
	return pls, bufs, rows
}

// TestDroppedChildrenPagesBothWays reads every sparse page of pylance's
// file of null parents owning list children (struct<list<int32>>,
// struct<list<utf8>> with dictionary and zipped values,
// list<struct<list<int64>, utf8>> and struct<struct<list<int16>>>) as a
// tree and by levels, in pieces of 1, 7 and all rows, and requires the
// same structure and values (decodeSparseBoth, finish).
func TestDroppedChildrenPagesBothWays(t *testing.T) {
	pls, bufs, rows := filePlanarPages(t, droppedFile(t, 3000)+".lance")
	leaves := []arrow.DataType{arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String, arrow.BinaryTypes.String,
		arrow.PrimitiveTypes.Int64, arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int16} // column order
	if len(pls) != len(leaves) {
		t.Fatalf("%d sparse pages, want %d", len(pls), len(leaves))
	}
	dropping := 0
	for i, pl := range pls {
		l, err := NewSparseLayout(pl)
		if err != nil {
			t.Fatal(err)
		}
		sizes := make([]uint64, len(bufs[i]))
		for k, b := range bufs[i] {
			sizes[k] = uint64(len(b))
		}
		p, err := NewSparsePage(pl, l, rows[i], sizes, bufs[i], leaves[i])
		if err != nil {
			t.Fatalf("page %d: %v", i, err)
		}
		if !p.Direct() {
			t.Fatalf("page %d does not read as a tree", i)
		}
		if p.tree.raw != nil {
			dropping++
		}
		for _, step := range []uint64{1, 7, rows[i]} {
			var out sparseOut
			for r := uint64(0); r < rows[i]; r += step {
				if err := decodeSparseBoth(p, bufs[i], r, min(r+step, rows[i]), &out, leaves[i]); err != nil {
					t.Fatalf("page %d (%v values), step %d, row %d: %v", i, p.Layout.Kind, step, r, err)
				}
			}
			if _, err := out.finish(p); err != nil {
				t.Fatalf("page %d (%v values), step %d: %v", i, p.Layout.Kind, step, err)
			}
		}
	}
	// pylance 14.0.2 writes a null parent's lists as null and childless
	// (it pushes the parent's nulls into the list layer's validity), so
	// its pages never drop terminal slots; TestDroppedChildrenTrees reads
	// structures that do.
	if dropping != 0 {
		t.Fatalf("%d of %d pylance pages drop terminal slots (14.0.2 wrote none)", dropping, len(pls))
	}
}

// dropShape builds sparse layers (outer-most first) over rows whose
// terminal domain has exactly terminal slots, with null parents owning
// list children, and their Flat(64) payloads in page order.
type dropShape struct {
	r        *rand.Rand
	layers   []*pb23.SparseStructuralLayer
	payloads [][]byte
}

// nulls picks null positions among n slots (never those in keepValid).
func (d *dropShape) nulls(n uint64, p float64, keepValid map[uint64]bool) []uint64 {
	var out []uint64
	for i := range n {
		if !keepValid[i] && d.r.Float64() < p {
			out = append(out, i)
		}
	}
	return out
}

func (d *dropShape) validity(n uint64, p float64) {
	pos := d.nulls(n, p, nil)
	d.layers = append(d.layers, validityLayer(validity(nullPos, uint64(len(pos)))))
	d.payloads = append(d.payloads, le64(pos...))
}

func (d *dropShape) fsl(n, dim uint64, p float64) uint64 {
	pos := d.nulls(n, p, nil)
	d.layers = append(d.layers, sparseFSL(dim, validity(nullPos, uint64(len(pos)))))
	d.payloads = append(d.payloads, le64(pos...))
	return n * dim
}

// list spreads children (> 0) over about half of n slots; the other slots
// are empty or null.
func (d *dropShape) list(n, children uint64) {
	var pos []uint64
	for i := range n {
		if d.r.IntN(2) == 0 {
			pos = append(pos, i)
		}
	}
	if len(pos) == 0 {
		pos = []uint64{0}
	}
	pos = pos[:min(uint64(len(pos)), children)]
	counts := make([]uint64, len(pos))
	for i := range counts {
		counts[i] = 1
	}
	for k := uint64(len(pos)); k < children; k++ {
		counts[d.r.IntN(len(pos))]++
	}
	nonEmpty := map[uint64]bool{}
	for _, p := range pos {
		nonEmpty[p] = true
	}
	nulls := d.nulls(n, 0.3, nonEmpty)
	d.layers = append(d.layers, sparseList(children, uint64(len(pos)), validity(nullPos, uint64(len(nulls)))))
	d.payloads = append(d.payloads, le64(pos...), le64(counts...), le64(nulls...))
}

// dropShapes are the structures TestDroppedChildrenTrees reads, over rows
// rows and terminal slots: struct<list<item>>, list<struct<list<item>>>,
// fixed_size_list(2)<struct<list<item>>> and struct<struct<list<item>>>.
func dropShapes(seed uint64, rows, terminal uint64) map[string]*dropShape {
	out := map[string]*dropShape{}
	for _, name := range []string{"struct_list", "list_struct_list", "fsl_struct_list", "struct_struct_list"} {
		d := &dropShape{r: rand.New(rand.NewPCG(seed, uint64(len(name))))}
		n := rows
		switch name {
		case "list_struct_list":
			m := 2 * rows
			d.list(n, m)
			n = m
		case "fsl_struct_list":
			n = d.fsl(n, 2, 0.3)
		case "struct_struct_list":
			d.validity(n, 0.3)
		}
		d.validity(n, 0.4)
		d.list(n, terminal)
		d.validity(terminal, 0.2)
		out[name] = d
	}
	return out
}

// TestDroppedChildrenTrees reads random sparse structures whose null
// parents own list children at one or several levels as trees and by
// levels, with the chunked values of a pylance page (so a leaf slot's
// value comes from its terminal slot) and with a constant plane, in
// pieces of 1, 7 and all rows: both reads must agree, and every page must
// drop terminal slots.
func TestDroppedChildrenTrees(t *testing.T) {
	pls, bufs, rows := filePlanarPages(t, droppedFile(t, 300)+".lance")
	base, err := NewSparseLayout(pls[0]) // s_i32: struct<list<int32>>, chunked values
	if err != nil || base.Kind != SparseChunked {
		t.Fatalf("first page: %v values, %v", base, err)
	}
	sizes := make([]uint64, len(bufs[0]))
	for k, b := range bufs[0] {
		sizes[k] = uint64(len(b))
	}
	p0, err := NewSparsePage(pls[0], base, rows[0], sizes, bufs[0], arrow.PrimitiveTypes.Int32)
	if err != nil {
		t.Fatal(err)
	}
	terminal := p0.terminal()
	for seed := range uint64(4) {
		for name, d := range dropShapes(seed, 200, terminal) {
			for _, chunked := range []bool{true, false} {
				pl := &pb23.PlanarLayout{Structure: &pb23.StructuralPlane{Codec: &pb23.StructuralPlane_Sparse{
					Sparse: &pb23.SparseStructure{Layers: d.layers}}}, Values: pls[0].GetValues()}
				var vb [][]byte
				if chunked {
					vb = bufs[0][:base.ValueBuffers]
				} else {
					pl.Values = ConstantPlane(u32s(7))
				}
				err := readDropped(pl, 200, append(slices.Clone(vb), d.payloads...))
				if err != nil {
					t.Fatalf("%s seed %d chunked %v: %v", name, seed, chunked, err)
				}
			}
		}
	}
}

// readDropped reads a page both ways in pieces of 1, 7 and all rows.
func readDropped(pl *pb23.PlanarLayout, rows uint64, bufs [][]byte) error {
	l, err := NewSparseLayout(pl)
	if err != nil {
		return err
	}
	sizes := make([]uint64, len(bufs))
	for k, b := range bufs {
		sizes[k] = uint64(len(b))
	}
	p, err := NewSparsePage(pl, l, rows, sizes, bufs, arrow.PrimitiveTypes.Int32)
	if err != nil {
		return err
	}
	if !p.Direct() || p.tree.raw == nil {
		return fmt.Errorf("not a tree dropping terminal slots")
	}
	for _, step := range []uint64{1, 7, rows} {
		var out sparseOut
		for r := uint64(0); r < rows; r += step {
			if err := decodeSparseBoth(p, bufs, r, min(r+step, rows), &out, arrow.PrimitiveTypes.Int32); err != nil {
				return fmt.Errorf("step %d, row %d: %w", step, r, err)
			}
		}
		if _, err := out.finish(p); err != nil {
			return fmt.Errorf("step %d: %w", step, err)
		}
	}
	return nil
}
