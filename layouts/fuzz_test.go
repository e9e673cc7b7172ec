package layouts

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/format"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"google.golang.org/protobuf/proto"
)

// decodeWholePage initializes a page from its layout and buffers and
// decodes every row, as the reader does; it must never panic.
func decodeWholePage(layout *pb.PageLayout, rows uint64, bufs [][]byte) error {
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

// pageSeeds returns (layout, rows, buffers) of real pages from corpus files.
func pageSeeds(t testing.TB) [][4][]byte {
	var out [][4][]byte
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
				}
				_ = pg
			}
		}
	}
	return out
}

func TestRealPagesDecodeWhole(t *testing.T) {
	seeds := pageSeeds(t)
	if len(seeds) == 0 {
		t.Skip("no testdata/corpus files")
	}
	for _, s := range seeds {
		var layout pb.PageLayout
		if err := proto.Unmarshal(s[0], &layout); err != nil {
			t.Fatal(err)
		}
		_ = decodeWholePage(&layout, 1, trimBufs(s[1:]))
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
	for _, s := range pageSeeds(f) {
		f.Add(s[0], uint16(100), s[1], s[2], s[3])
	}
	f.Fuzz(func(t *testing.T, lb []byte, rows uint16, b0, b1, b2 []byte) {
		var layout pb.PageLayout
		if proto.Unmarshal(lb, &layout) != nil {
			return
		}
		_ = decodeWholePage(&layout, uint64(rows), trimBufs([][]byte{b0, b1, b2}))
	})
}

// FuzzUnravel feeds arbitrary layers and levels to Unravel.
func FuzzUnravel(f *testing.F) {
	f.Add([]byte{3, 3, 6}, []byte{1, 0, 0, 1, 1, 1}, []byte{0, 0, 3, 0, 4, 0})
	f.Add([]byte{1, 4}, []byte{1, 0, 0, 0}, []byte{0, 0, 1, 0})
	f.Fuzz(func(t *testing.T, layers, rep, def []byte) {
		ls := make([]pb.RepDefLayer, len(layers))
		for i, l := range layers {
			ls[i] = pb.RepDefLayer(l % 8)
		}
		set, err := NewLayerSet(ls)
		if err != nil {
			return
		}
		lv := Levels{N: len(def) / 2}
		if len(rep) > 0 {
			lv.Rep = rawLevels(rep)
		}
		lv.Def = rawLevels(def)
		if top, err := Unravel(set, lv); err == nil && top.Leaf().Len > lv.N {
			t.Fatalf("%d leaf slots from %d entries", top.Leaf().Len, lv.N)
		}
	})
}
