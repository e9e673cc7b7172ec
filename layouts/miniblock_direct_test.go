package layouts

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/format"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// TestDirectRowsMatchWholeDecode takes random row sets, one row or a short
// run at a time as a take does, from inline bit-packed mini-block pages
// (8-, 32- and 64-bit words, blocks of random widths, a partial last
// block) and compares them with the page decoded whole: the direct path
// reads a lone row's value from the packed bits instead of decoding its
// chunk. The sets include every chunk's first and last row.
func TestDirectRowsMatchWholeDecode(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, bits := range []int{8, 32, 64} {
		const rows = 9_000
		p, data := inlinePage(t, rng, bits, rows)
		if w, flat := p.directWidth(); w != bits || flat {
			t.Fatalf("%d-bit page: direct width %d flat %v", bits, w, flat)
		}
		whole := decodeRange(t, p, data, [][2]uint64{{0, rows}})
		var edges []uint64
		for _, c := range p.Chunks {
			edges = append(edges, c.FirstRow, c.FirstRow+c.NumValues-1)
		}
		for trial := range 6 {
			picks := append([]uint64{}, edges...)
			for range 200 * (trial + 1) {
				picks = append(picks, rng.Uint64N(rows))
			}
			slices.Sort(picks)
			var ranges [][2]uint64
			for _, r := range picks {
				n := uint64(1)
				if trial%2 == 1 {
					n = 1 + rng.Uint64N(min(rows-r, 150))
				}
				ranges = append(ranges, [2]uint64{r, r + n})
			}
			got := decodeRange(t, p, data, ranges)
			w := uint64(bits / 8)
			var want []byte
			for _, r := range ranges {
				want = append(want, whole[r[0]*w:r[1]*w]...)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%d-bit trial %d: taken rows differ from the whole decode", bits, trial)
			}
		}
	}
}

// inlinePage encodes rows random bits-bit values (each 1,024-value block
// of a random magnitude, so of its own packed width) as an inline
// bit-packed mini-block page.
func inlinePage(t testing.TB, rng *rand.Rand, bits, rows int) (*MiniBlockPage, []byte) {
	t.Helper()
	raw := make([]byte, 0, rows*bits/8)
	for i := range rows {
		if i%1024 == 0 {
			rng = rand.New(rand.NewPCG(uint64(i), uint64(bits)))
		}
		v := rng.Uint64() >> (64 - uint(1+(i/1024*7)%bits))
		raw = binary.LittleEndian.AppendUint64(raw, v)[:len(raw)+bits/8]
	}
	s := &Shredded{Layers: []pb.RepDefLayer{pb.RepDefLayer_REPDEF_ALL_VALID_ITEM}, NumRows: rows}
	v := &codecs.Values{Kind: codecs.ValFixed, N: rows, Bits: bits, Data: raw}
	enc, err := EncodeMiniBlock(s, v, codecs.InlineBitpackingEncoder{Bits: bits}, LevelEncoder{}, LevelEncoder{}, format.V2_1, 4096, nil)
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

// decodeRange decodes each row range of p in turn, with one memo, and
// returns the values' bytes.
func decodeRange(t *testing.T, p *MiniBlockPage, data []byte, ranges [][2]uint64) []byte {
	t.Helper()
	memo := NewChunkMemo(&ChunkArena{})
	defer memo.Release()
	var lv Levels
	vals := &Values{}
	for _, r := range ranges {
		span, err := p.ChunksForRows(r[0], r[1])
		if err != nil {
			t.Fatal(err)
		}
		var chunks [][]byte
		for c := span.First; c <= span.Last; c++ {
			ch := p.Chunks[c]
			chunks = append(chunks, data[ch.Offset:ch.Offset+ch.Size])
		}
		if err := p.DecodeRows(span, chunks, r[0], r[1], &lv, vals, memo); err != nil {
			t.Fatalf("rows %v: %v", r, err)
		}
	}
	return vals.Data
}
