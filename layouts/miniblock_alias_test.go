package layouts

import (
	"bytes"
	"testing"

	"github.com/lancego/lancego/format/pb/encodings21pb"
	"google.golang.org/protobuf/proto"
)

// TestMiniBlockValuesNeverAliasChunks decodes the first rows of every
// small real mini-block page (a part of its first chunk, the case where
// borrowing the chunk's bytes was tempting) into empty accumulators, then
// overwrites the page's bytes: the decoded values must not change (a scan
// recycles a page's read buffer once it has passed the page, while its
// batches live on).
func TestMiniBlockValuesNeverAliasChunks(t *testing.T) {
	seeds, rows := pageSeeds(t)
	if len(seeds) == 0 {
		t.Skip("no testdata/corpus files")
	}
	pages := 0
	for i, seed := range seeds {
		layout := &encodings21pb.PageLayout{}
		if proto.Unmarshal(seed[0], layout) != nil || layout.GetMiniBlockLayout() == nil || len(seed[2]) == 0 {
			continue
		}
		data := bytes.Clone(seed[2])
		vals, ok := decodeMiniBlockFirst(t, layout.GetMiniBlockLayout(), rows[i], seed[1], data, seed[3])
		if !ok {
			continue
		}
		pages++
		before := snapshotValues(vals)
		for k := range data {
			data[k] = 0xA5
		}
		if after := snapshotValues(vals); !bytes.Equal(before, after) {
			t.Fatalf("page %d: decoded values changed when the page bytes were overwritten", i)
		}
	}
	if pages == 0 {
		t.Fatal("no mini-block page decoded")
	}
}

func decodeMiniBlockFirst(t *testing.T, l *encodings21pb.MiniBlockLayout, rows uint64, words, data, third []byte) (*Values, bool) {
	t.Helper()
	meta := MiniBlockMeta{ChunkWords: words}
	if dict, rep := MiniBlockMetaBuffers(l, 3); dict == 2 {
		meta.Dictionary = third
	} else if rep == 2 {
		meta.RepIndex = third
	}
	p, err := NewMiniBlockPage(l, rows, uint64(len(data)), meta)
	if err != nil {
		return nil, false
	}
	rows = 1 + rows/3
	span, err := p.ChunksForRows(0, rows)
	if err != nil {
		return nil, false
	}
	var chunks [][]byte
	for c := span.First; c <= span.Last; c++ {
		ch := p.Chunks[c]
		chunks = append(chunks, data[ch.Offset:ch.Offset+ch.Size])
	}
	var lv Levels
	vals := &Values{}
	if err := p.DecodeRows(span, chunks, 0, rows, &lv, vals, NewChunkMemo(&ChunkArena{})); err != nil {
		t.Fatalf("decode: %v", err)
	}
	return vals, true
}

// snapshotValues copies everything vals holds into one byte string.
func snapshotValues(v *Values) []byte {
	out := bytes.Clone(v.Data)
	for _, o := range v.Offsets {
		out = append(out, byte(o), byte(o>>8), byte(o>>16), byte(o>>24))
	}
	for _, f := range v.FSL {
		out = append(out, f.Validity...)
	}
	for i := range v.Children {
		out = append(out, snapshotValues(&v.Children[i])...)
	}
	return out
}
