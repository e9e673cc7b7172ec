package layouts

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/format"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"google.golang.org/protobuf/proto"
)

// decodeWholePage initializes a page from its layout and buffers and
// decodes every row, as the reader does; it must never panic. strict
// makes checkRowByRow compare a row-by-row decode with it.
func decodeWholePage(layout *pb.PageLayout, rows uint64, bufs [][]byte, strict bool) error {
	if rows == 0 || rows > 1<<16 {
		return nil
	}
	lv, vals := Levels{}, &Values{}
	var set LayerSet
	switch l := layout.GetLayout().(type) {
	case *pb.PageLayout_MiniBlockLayout:
		if len(bufs) < 2 {
			return nil
		}
		dict, rep := MiniBlockMetaBuffers(l.MiniBlockLayout, len(bufs))
		meta := MiniBlockMeta{ChunkWords: bufs[0]}
		if dict >= 0 && dict < len(bufs) {
			meta.Dictionary = bufs[dict]
		}
		if rep >= 0 && rep < len(bufs) {
			meta.RepIndex = bufs[rep]
		}
		p, err := NewMiniBlockPage(l.MiniBlockLayout, rows, uint64(len(bufs[1])), meta)
		if err != nil {
			return err
		}
		span, err := p.ChunksForRows(0, rows)
		if err != nil {
			return err
		}
		var chunks [][]byte
		for c := span.First; c <= span.Last; c++ {
			ch := p.Chunks[c]
			chunks = append(chunks, bufs[1][ch.Offset:ch.Offset+ch.Size])
		}
		set = p.Set
		if err := p.DecodeRows(span, chunks, 0, rows, &lv, vals, nil); err != nil {
			return err
		}
		checkRowByRow(p, bufs[1], rows, lv, vals, strict)
	case *pb.PageLayout_FullZipLayout:
		if len(bufs) < 1 {
			return nil
		}
		var ri []byte
		if len(bufs) > 1 {
			ri = bufs[1]
		}
		p, err := NewFullZipPage(l.FullZipLayout, rows, uint64(len(bufs[0])), ri)
		if err != nil {
			return err
		}
		lo, hi, err := p.RowBytes(0, rows)
		if err != nil {
			return err
		}
		set = p.Set
		if err := p.DecodeRows(bufs[0][lo:hi], &lv, vals); err != nil {
			return err
		}
	case *pb.PageLayout_ConstantLayout:
		p, err := NewConstantPage(l.ConstantLayout, rows, bufs, arrow.PrimitiveTypes.Int32)
		if err != nil {
			return err
		}
		set = p.Set
		if err := p.DecodeRows(0, rows, &lv, vals, arrow.PrimitiveTypes.Int32); err != nil {
			return err
		}
	default:
		return nil
	}
	_, err := Unravel(set, lv)
	return err
}

// pageSeeds returns (layout, buffers) of real pages from corpus files,
// and each page's row count.
func pageSeeds(t testing.TB) ([][4][]byte, []uint64) {
	var out [][4][]byte
	var rows []uint64
	files, _ := filepath.Glob("../testdata/corpus/*/*.lance")
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		m, _, err := format.ParseTail(uint64(len(b)), b)
		if err != nil || m == nil {
			continue
		}
		for c := range m.Columns {
			for i, pg := range m.Columns[c].GetPages() {
				layout, err := format.DecodePageLayout(pg)
				if err != nil {
					continue
				}
				lb, _ := proto.Marshal(layout)
				ranges, _ := m.PageRanges(c, i)
				var seed [4][]byte
				seed[0] = lb
				for k := 0; k < len(ranges) && k < 3; k++ {
					seed[k+1] = b[ranges[k].Offset : ranges[k].Offset+ranges[k].Length]
				}
				if len(seed[1])+len(seed[2])+len(seed[3]) < 32<<10 {
					out = append(out, seed)
					rows = append(rows, pg.GetLength()*m.Schema.RowScale(c)) // pages count items
				}
				_ = pg
			}
		}
	}
	return out, rows
}

// TestRealPagesDecodeWhole decodes every small corpus page whole, which
// also checks that decoding it row by row (as a take) gives the same
// levels and values (checkRowByRow).
func TestRealPagesDecodeWhole(t *testing.T) {
	seeds, rows := pageSeeds(t)
	if len(seeds) == 0 {
		t.Skip("no testdata/corpus files")
	}
	decoded := 0
	for i, s := range seeds {
		var layout pb.PageLayout
		if err := proto.Unmarshal(s[0], &layout); err != nil {
			t.Fatal(err)
		}
		if decodeWholePage(&layout, rows[i], trimBufs(s[1:]), true) == nil {
			decoded++
		}
	}
	if decoded < len(seeds)/2 {
		t.Fatalf("only %d of %d corpus pages decoded", decoded, len(seeds))
	}
}

func trimBufs(b [][]byte) [][]byte {
	n := len(b)
	for n > 0 && b[n-1] == nil {
		n--
	}
	return b[:n]
}

// FuzzPageDecode mutates the layout protobuf, the row count and up to three
// buffers of real pages.
func FuzzPageDecode(f *testing.F) {
	seeds, rows := pageSeeds(f)
	for i, s := range seeds {
		f.Add(s[0], uint16(min(rows[i], 1<<16-1)), s[1], s[2], s[3])
	}
	f.Fuzz(func(t *testing.T, lb []byte, rows uint16, b0, b1, b2 []byte) {
		var layout pb.PageLayout
		if proto.Unmarshal(lb, &layout) != nil {
			return
		}
		_ = decodeWholePage(&layout, uint64(rows), trimBufs([][]byte{b0, b1, b2}), false)
	})
}

// FuzzUnravel feeds arbitrary layers and levels to Unravel.
func FuzzUnravel(f *testing.F) {
	f.Add([]byte{3, 3, 6}, []byte{1, 0, 0, 1, 1, 1}, []byte{0, 0, 3, 0, 4, 0})
	f.Add([]byte{1, 4}, []byte{1, 0, 0, 0}, []byte{0, 0, 1, 0})
	// A nullable item in a nullable fixed-size list of 2: rows [x, null] and null.
	f.Add([]byte{1, 7 | 1<<3}, []byte{1, 0, 0, 0, 1, 0, 0, 0}, []byte{0, 0, 1, 0, 2, 0, 2, 0})
	// The same without repetition levels: a dense page's fixed-size list.
	f.Add([]byte{1, 7 | 1<<3}, []byte{}, []byte{0, 0, 1, 0, 2, 0, 2, 0})
	f.Fuzz(func(t *testing.T, layers, rep, def []byte) {
		if len(layers) == 0 || len(layers) > 64 {
			return
		}
		specs := make([]layerSpec, len(layers))
		for i, l := range layers {
			if l%8 >= 6 { // a (nullable) fixed-size list of 1-4 items
				specs[i] = layerSpec{kind: LayerFSL, null: l%8 == 7, dim: uint64(l>>3)%4 + 1}
				continue
			}
			var err error
			if specs[i], err = pbLayerSpec(pb.RepDefLayer(l % 8)); err != nil {
				return
			}
		}
		set := layerSetOf(specs)
		lv := Levels{N: len(def) / 2}
		if len(rep) > 0 {
			lv.Rep = rawLevels(rep)
		}
		lv.Def = rawLevels(def)
		if len(rep) == 0 && !hasListLayer(set) {
			set.DenseFSL = true // a 2.2 / dense 2.3 page of fixed-size lists of structs
		}
		top, err := Unravel(set, lv)
		if err != nil {
			return
		}
		if top.Leaf().Len > lv.N {
			t.Fatalf("%d leaf slots from %d entries", top.Leaf().Len, lv.N)
		}
		checkSplitAppend(t, set, lv, top)
	})
}

// hasListLayer reports whether set has a (variable) list layer.
func hasListLayer(set LayerSet) bool {
	for _, l := range set.Layers {
		if l.Kind == LayerList {
			return true
		}
	}
	return false
}

// checkSplitAppend unravels lv in two parts, split at its last row start,
// the second appended with UnravelAppend, and fails unless that equals
// whole (lv unraveled at once).
func checkSplitAppend(t *testing.T, set LayerSet, lv Levels, whole *PathNode) {
	t.Helper()
	k := lv.N - 1
	for k > 0 && (lv.Rep == nil || lv.Rep[k] != set.MaxRep) {
		k--
	}
	if k <= 0 || !set.HasLists() {
		return
	}
	first, err := Unravel(set, sliceLevels(lv, 0, k))
	if err != nil {
		t.Fatalf("first part of valid levels: %v", err)
	}
	got, err := UnravelAppend(first, set, sliceLevels(lv, k, lv.N))
	if err != nil {
		t.Fatalf("appending the second part: %v", err)
	}
	if !reflect.DeepEqual(normalize(got), normalize(whole)) {
		t.Fatalf("split at %d of %+v:\n got %+v\nwant %+v", k, lv, normalize(got), normalize(whole))
	}
}

// checkRowByRow decodes a mini-block page of at most 5,000 rows one row at
// a time, as a take does (arena-backed memo, rows ascending). With strict
// (real, unmutated pages) it panics if the result differs from decoding
// all rows at once (whole); fuzzed pages only exercise the path, since a
// mutated chunk table or repetition index can disagree with the levels
// (the session-start code diverged on such inputs too).
func checkRowByRow(p *MiniBlockPage, data []byte, rows uint64, whole Levels, wholeVals *Values, strict bool) {
	if rows > 5000 {
		return
	}
	memo := NewChunkMemo(&ChunkArena{})
	defer memo.Release()
	var lv Levels
	vals := &Values{}
	for r := uint64(0); r < rows; r++ {
		span, err := p.ChunksForRows(r, r+1)
		if err != nil {
			return
		}
		var chunks [][]byte
		for c := span.First; c <= span.Last; c++ {
			ch := p.Chunks[c]
			chunks = append(chunks, data[ch.Offset:ch.Offset+ch.Size])
		}
		if err := p.DecodeRows(span, chunks, r, r+1, &lv, vals, memo); err != nil {
			return
		}
	}
	if !strict {
		return // mutated metadata may disagree with the levels either way
	}
	if lv.N != whole.N || !slices.Equal(lv.Rep, whole.Rep) && len(lv.Rep)+len(whole.Rep) > 0 ||
		!slices.Equal(lv.Def, whole.Def) && len(lv.Def)+len(whole.Def) > 0 {
		panic(fmt.Sprintf("row-by-row levels %+v differ from whole %+v", lv, whole))
	}
	if vals.N != wholeVals.N || !bytes.Equal(vals.Data, wholeVals.Data) || !slices.Equal(vals.Offsets, wholeVals.Offsets) {
		panic(fmt.Sprintf("row-by-row values (%d) differ from whole (%d)", vals.N, wholeVals.N))
	}
}
