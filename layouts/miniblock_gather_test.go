package layouts

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/format"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// TestGatherChunkRowsMatchWholeDecode gathers random rows of each chunk
// (sorted, shuffled with repeats, every row) from inline bit-packed and
// flat pages and compares them with the page decoded whole; rows outside
// the chunk, a chunk of the wrong size and a truncated chunk are refused.
func TestGatherChunkRowsMatchWholeDecode(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	const rows = 9_000
	pages := []struct {
		name string
		bits int
		flat bool
	}{{"inline8", 8, false}, {"inline32", 32, false}, {"inline64", 64, false}, {"flat64", 64, true}, {"flat16", 16, true}}
	for _, pc := range pages {
		var p *MiniBlockPage
		var data []byte
		if pc.flat {
			p, data = flatPage(t, rng, pc.bits, rows)
		} else {
			p, data = inlinePage(t, rng, pc.bits, rows)
		}
		if !p.CanGather() {
			t.Fatalf("%s: page cannot gather", pc.name)
		}
		whole := decodeRange(t, p, data, [][2]uint64{{0, rows}})
		w := uint64(pc.bits / 8)
		for ci, c := range p.Chunks {
			b := data[c.Offset : c.Offset+c.Size]
			var sorted []uint64
			for r := c.FirstRow; r < c.FirstRow+c.NumValues; r += 1 + rng.Uint64N(30) {
				sorted = append(sorted, r)
			}
			shuffled := append(slices.Clone(sorted), sorted[:len(sorted)/2]...)
			rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			var all []uint64
			for r := c.FirstRow; r < c.FirstRow+c.NumValues; r++ {
				all = append(all, r)
			}
			for _, set := range [][]uint64{sorted, shuffled, all, {c.FirstRow + c.NumValues - 1}} {
				var lv Levels
				vals := &Values{}
				if err := p.GatherChunkRows(ci, b, set, &lv, vals); err != nil {
					t.Fatalf("%s chunk %d: %v", pc.name, ci, err)
				}
				if lv.N != len(set) || lv.Def != nil || vals.N != len(set) {
					t.Fatalf("%s chunk %d: %d levels, %d values for %d rows", pc.name, ci, lv.N, vals.N, len(set))
				}
				for i, r := range set {
					if got, want := vals.Data[uint64(i)*w:uint64(i+1)*w], whole[r*w:(r+1)*w]; !slices.Equal(got, want) {
						t.Fatalf("%s chunk %d row %d: %x, want %x", pc.name, ci, r, got, want)
					}
				}
			}
			bad := [][]uint64{{c.FirstRow + c.NumValues}, {c.FirstRow, c.FirstRow - 1}}
			for _, set := range bad {
				if err := p.GatherChunkRows(ci, b, set, &Levels{}, &Values{}); !errors.Is(err, ErrCorrupt) {
					t.Fatalf("%s chunk %d rows %v outside it: %v", pc.name, ci, set, err)
				}
			}
			if err := p.GatherChunkRows(ci, b[:len(b)-1], sorted, &Levels{}, &Values{}); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("%s chunk %d truncated: %v", pc.name, ci, err)
			}
		}
		if err := p.GatherChunkRows(len(p.Chunks), nil, nil, &Levels{}, &Values{}); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("%s: chunk past the page: %v", pc.name, err)
		}
	}
}

// flatPage encodes rows random bits-bit values as a flat mini-block page.
func flatPage(t testing.TB, rng *rand.Rand, bits, rows int) (*MiniBlockPage, []byte) {
	t.Helper()
	raw := make([]byte, 0, rows*8)
	for range rows {
		raw = binary.LittleEndian.AppendUint64(raw, rng.Uint64())[:len(raw)+bits/8]
	}
	s := &Shredded{Layers: []pb.RepDefLayer{pb.RepDefLayer_REPDEF_ALL_VALID_ITEM}, NumRows: rows}
	v := &codecs.Values{Kind: codecs.ValFixed, N: rows, Bits: bits, Data: raw}
	enc, err := EncodeMiniBlock(s, v, codecs.FlatEncoder{Bits: bits}, LevelEncoder{}, LevelEncoder{}, format.V2_1, 4096, nil)
	if err != nil {
		t.Fatal(err)
	}
	l := enc.Layout.GetMiniBlockLayout()
	if l == nil || len(enc.Buffers) < 2 {
		t.Fatalf("not a mini-block page: %v", enc.Layout)
	}
	p, err := NewMiniBlockPage(l, uint64(rows), uint64(len(enc.Buffers[1])), MiniBlockMeta{ChunkWords: enc.Buffers[0]})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Chunks) < 2 {
		t.Fatalf("%d chunks", len(p.Chunks))
	}
	return p, enc.Buffers[1]
}

// FuzzGatherChunkRows gathers rows from arbitrary chunk bytes on pages of
// inline bit-packed and flat words and on pylance's dictionary pages
// (realDictPages): no panic, and whenever the chunk decodes whole the
// gather agrees with it (a dictionary page's rows are the entries its
// decoded indices name).
func FuzzGatherChunkRows(f *testing.F) {
	rng := rand.New(rand.NewPCG(31, 32))
	inline, inData := inlinePage(f, rng, 32, 3000)
	flat, flatData := flatPage(f, rng, 64, 3000)
	pages := []*MiniBlockPage{inline, flat}
	c0, f0 := inline.Chunks[0], flat.Chunks[0]
	f.Add(uint8(0), inData[c0.Offset:c0.Offset+c0.Size], []byte{0, 5, 3, 1, 0, 5})
	f.Add(uint8(1), flatData[f0.Offset:f0.Offset+f0.Size], []byte{1, 0, 0, 9})
	dictPages, dictDatas := realDictPages(f)
	for i, p := range dictPages {
		d0 := p.Chunks[0]
		f.Add(uint8(len(pages)), dictDatas[i][d0.Offset:d0.Offset+d0.Size], []byte{0, 7, 0, 2, 0, 7, 0, 0})
		pages = append(pages, p)
	}
	f.Fuzz(func(t *testing.T, which uint8, b []byte, sel []byte) {
		p := pages[int(which)%len(pages)]
		p.Chunks[0].Size = uint64(len(b)) // the chunk table says what the bytes are
		defer func(size uint64) { p.Chunks[0].Size = size }(p.Chunks[0].Size)
		var rows []uint64
		for i := 0; i+1 < len(sel); i += 2 {
			rows = append(rows, uint64(sel[i])<<8|uint64(sel[i+1]))
		}
		var lv Levels
		vals := &Values{}
		err := p.GatherChunkRows(0, b, rows, &lv, vals)
		dc, errWhole := p.DecodeChunk(0, b)
		if err != nil || errWhole != nil {
			return
		}
		if p.Dictionary != nil {
			checkDictRows(t, p, &dc, rows, vals)
			return
		}
		w := uint64(dc.Values.BitsPerValue / 8)
		for i, r := range rows {
			if got, want := vals.Data[uint64(i)*w:uint64(i+1)*w], dc.Values.Data[r*w:(r+1)*w]; !slices.Equal(got, want) {
				t.Fatalf("row %d: %x, whole decode %x", r, got, want)
			}
		}
	})
}

// checkDictRows checks that vals holds, for each of rows, the dictionary
// entry that the chunk's decoded index (dc) names.
func checkDictRows(t *testing.T, p *MiniBlockPage, dc *DecodedChunk, rows []uint64, vals *Values) {
	t.Helper()
	tab := p.dict
	for i, r := range rows {
		k := binary.LittleEndian.Uint32(dc.Values.Data[r*4:])
		want := tab.data[tab.offs[k]:tab.offs[k+1]]
		if got := vals.Data[vals.Offsets[i]:vals.Offsets[i+1]]; !slices.Equal(got, want) {
			t.Fatalf("row %d: %q, dictionary entry %d is %q", r, got, k, want)
		}
	}
}
