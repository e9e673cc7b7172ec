package layouts

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"google.golang.org/protobuf/proto"
)

// realDictPages returns the corpus's mini-block dictionary pages that
// GatherChunkRows accepts (pylance's 2.1 dictionary_type, nullable, and
// 2.2 strings_dict column 1), each with its chunk bytes.
func realDictPages(t testing.TB) ([]*MiniBlockPage, [][]byte) {
	t.Helper()
	seeds, rows := pageSeeds(t)
	var pages []*MiniBlockPage
	var datas [][]byte
	for i, s := range seeds {
		var layout pb.PageLayout
		if err := proto.Unmarshal(s[0], &layout); err != nil {
			t.Fatal(err)
		}
		l := layout.GetMiniBlockLayout()
		bufs := trimBufs(s[1:])
		if l == nil || l.GetDictionary() == nil || len(bufs) < 2 {
			continue
		}
		dict, _ := MiniBlockMetaBuffers(l, len(bufs))
		meta := MiniBlockMeta{ChunkWords: bufs[0]}
		if dict >= 0 && dict < len(bufs) {
			meta.Dictionary = bufs[dict]
		}
		p, err := NewMiniBlockPage(l, rows[i], uint64(len(bufs[1])), meta)
		if err != nil || !p.CanGather() {
			continue
		}
		pages, datas = append(pages, p), append(datas, bufs[1])
	}
	return pages, datas
}

// TestGatherChunkRowsDictRealPages gathers rows of each chunk of pylance's
// dictionary pages (sorted every few rows, shuffled with repeats,
// reversed, every row) and compares each row's string and definition
// level with the existing path, the page decoded one row at a time
// through the chunk memo; rows outside the chunk and a truncated chunk are
// refused.
func TestGatherChunkRowsDictRealPages(t *testing.T) {
	pages, datas := realDictPages(t)
	nullable := 0
	for _, p := range pages {
		if p.Layout.GetDefCompression() != nil {
			nullable++
		}
	}
	if len(pages) < 2 || nullable == 0 {
		t.Fatalf("%d gatherable dictionary pages in the corpus (%d nullable), want >= 2 and a nullable one", len(pages), nullable)
	}
	rng := rand.New(rand.NewPCG(41, 42))
	for pi, p := range pages {
		data := datas[pi]
		for ci, c := range p.Chunks {
			b := data[c.Offset : c.Offset+c.Size]
			var sorted []uint64
			for r := c.FirstRow; r < c.FirstRow+c.NumValues; r += 1 + rng.Uint64N(7) {
				sorted = append(sorted, r)
			}
			shuffled := append(slices.Clone(sorted), sorted[:len(sorted)/2]...)
			rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			reversed := slices.Clone(sorted)
			slices.Reverse(reversed)
			var all []uint64
			for r := c.FirstRow; r < c.FirstRow+c.NumValues; r++ {
				all = append(all, r)
			}
			for _, set := range [][]uint64{sorted, shuffled, reversed, all} {
				checkDictGather(t, p, data, ci, b, set)
			}
			for _, bad := range [][]uint64{{c.FirstRow + c.NumValues}, {c.FirstRow, c.FirstRow - 1}} {
				if err := p.GatherChunkRows(ci, b, bad, &Levels{}, &Values{}); !errors.Is(err, ErrCorrupt) {
					t.Fatalf("page %d chunk %d rows %v outside it: %v", pi, ci, bad, err)
				}
			}
			if err := p.GatherChunkRows(ci, b[:len(b)-1], sorted, &Levels{}, &Values{}); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("page %d chunk %d truncated: %v", pi, ci, err)
			}
		}
	}
}

// checkDictGather gathers rows of chunk ci and compares them with rows
// decoded one at a time by DecodeRows.
func checkDictGather(t *testing.T, p *MiniBlockPage, data []byte, ci int, b []byte, rows []uint64) {
	t.Helper()
	var lv Levels
	vals := &Values{}
	if err := p.GatherChunkRows(ci, b, rows, &lv, vals); err != nil {
		t.Fatalf("chunk %d: %v", ci, err)
	}
	if lv.N != len(rows) || vals.N != len(rows) {
		t.Fatalf("chunk %d: %d levels, %d values for %d rows", ci, lv.N, vals.N, len(rows))
	}
	memo := NewChunkMemo(&ChunkArena{})
	defer memo.Release()
	var wlv Levels
	want := &Values{}
	for _, r := range rows {
		span, err := p.ChunksForRows(r, r+1)
		if err != nil {
			t.Fatal(err)
		}
		ch := p.Chunks[span.First]
		if err := p.DecodeRows(span, [][]byte{data[ch.Offset : ch.Offset+ch.Size]}, r, r+1, &wlv, want, memo); err != nil {
			t.Fatalf("row %d: %v", r, err)
		}
	}
	for i, r := range rows {
		got, exp := vals.Data[vals.Offsets[i]:vals.Offsets[i+1]], want.Data[want.Offsets[i]:want.Offsets[i+1]]
		if !bytes.Equal(got, exp) || levelAt(lv, i) != levelAt(wlv, i) {
			t.Fatalf("chunk %d row %d: %q level %d, want %q level %d", ci, r, got, levelAt(lv, i), exp, levelAt(wlv, i))
		}
	}
}

// levelAt is entry i's definition level (0 when lv has none).
func levelAt(lv Levels, i int) uint16 {
	if lv.Def == nil {
		return 0
	}
	return lv.Def[i]
}
