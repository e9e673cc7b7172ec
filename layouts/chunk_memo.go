package layouts

import (
	"fmt"

	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/internal/uninit"
)

// ChunkArena lends reusable buffers to the chunk decoders of one read, so
// that decoding thousands of chunks does not allocate (and zero, and later
// collect) a fresh buffer per chunk, and to the levels a read gathers. It
// is not safe for concurrent use: each goroutine reading a leaf owns one.
type ChunkArena struct {
	free [][]byte
	held int // bytes of capacity in free
	// levelFree holds level buffers (kept apart from free: they are
	// larger, a batch's levels rather than a chunk's); levelsLent those
	// handed out since the last ReclaimLevels.
	levelFree, levelsLent [][]byte
	// memoList is a memo's chunk list kept between reads.
	memoList []storedChunk
	// dec decompresses General chunks; its zstd decoder (synchronous:
	// no goroutine) lives as long as the arena and goes with it.
	dec codecs.Decompressor
}

// maxArenaBuffer bounds the buffers an arena keeps (a chunk decodes to at
// most a few hundred KiB; anything larger is left to the GC).
const maxArenaBuffer = 4 << 20

// maxArenaFree bounds how many free chunk buffers an arena keeps, and
// maxArenaBytes their total capacity. A batch of a list column holds three
// buffers (repetition, definition, values) for each of its chunks, about
// a hundred at 8,192 rows, all given back when the batch ends.
const (
	maxArenaFree  = 512
	maxArenaBytes = 8 << 20
)

// maxLevelFree bounds how many free level buffers an arena keeps.
const maxLevelFree = 4

func (a *ChunkArena) get() []byte {
	if a == nil || len(a.free) == 0 {
		return nil
	}
	b := a.free[len(a.free)-1]
	a.free = a.free[:len(a.free)-1]
	a.held -= cap(b)
	return b[:0]
}

func (a *ChunkArena) put(b []byte) {
	if a == nil || cap(b) == 0 || cap(b) > maxArenaBuffer || len(a.free) >= maxArenaFree || a.held+cap(b) > maxArenaBytes {
		return
	}
	a.free = append(a.free, b[:0])
	a.held += cap(b)
}

// levelBuffer returns an empty level slice with room for n levels, lent
// by the arena (until ReclaimLevels) when there is one.
func (a *ChunkArena) levelBuffer(n int) []uint16 {
	if a == nil || n == 0 || 2*n > maxArenaBuffer {
		return make([]uint16, 0, n)
	}
	var b []byte
	for len(a.levelFree) > 0 && b == nil {
		b = a.levelFree[len(a.levelFree)-1]
		a.levelFree = a.levelFree[:len(a.levelFree)-1]
		if cap(b) < 2*n {
			b = nil // too small for this read: let the GC have it
		}
	}
	if b == nil {
		b = uninit.Bytes(2 * n)
	}
	a.levelsLent = append(a.levelsLent, b)
	return rawLevelsCap(b[:cap(b)])[:0]
}

// ReclaimLevels takes back the level buffers lent to DecodeRows calls
// since the last call: the caller must no longer use the levels those
// calls appended (unraveling them copies what it keeps).
func (a *ChunkArena) ReclaimLevels() {
	if a == nil {
		return
	}
	for i, b := range a.levelsLent {
		if len(a.levelFree) < maxLevelFree {
			a.levelFree = append(a.levelFree, b)
		}
		a.levelsLent[i] = nil
	}
	a.levelsLent = a.levelsLent[:0]
}

// ChunkMemo keeps the decoded chunks of one page during one read, so rows
// read one by one from the same chunk decode it once.
//
// With an arena, chunks decode into lent buffers and the memo assumes rows
// are requested in ascending order: a call for chunks starting at index i
// returns the buffers of every chunk before i to the arena. Rows asked out
// of order are still decoded correctly (a chunk may then decode twice).
// Everything decoded from lent buffers is copied when appended to a
// read's levels and values, so no result aliases an arena buffer.
type ChunkMemo struct {
	chunks chunkStore
	arena  *ChunkArena
	// cur is where the last rows located in a list chunk ended.
	cur listCursor
}

// NewChunkMemo returns an empty memo that borrows from arena (nil: decode
// into fresh memory and keep every chunk until the read ends).
func NewChunkMemo(arena *ChunkArena) *ChunkMemo {
	m := &ChunkMemo{arena: arena, cur: listCursor{chunk: -1}}
	if arena != nil {
		m.chunks.list, arena.memoList = arena.memoList, nil
	}
	return m
}

// lender returns the memo's arena (nil without a memo or arena).
func (m *ChunkMemo) lender() *ChunkArena {
	if m == nil {
		return nil
	}
	return m.arena
}

// Release returns every lent buffer the memo holds to its arena.
func (m *ChunkMemo) Release() {
	if m == nil {
		return
	}
	m.chunks.removeAll(m.arena.putChunk)
	m.cur = listCursor{chunk: -1}
	if m.arena != nil && m.arena.memoList == nil {
		m.arena.memoList, m.chunks.list = m.chunks.list, nil
	}
}

// evictBefore returns the buffers of chunks before index first.
func (m *ChunkMemo) evictBefore(first int) {
	if m == nil || m.arena == nil {
		return
	}
	m.chunks.removeBefore(first, m.arena.putChunk)
}

// listCursor remembers where the last rows located in a list chunk
// ended: row start row (counted from the chunk's first row) is at entry
// entry, with vis visible values before it. Rows taken in ascending order
// resume the chunk's scan there, so a chunk a take visits many times is
// scanned about once in all, with nothing allocated.
type listCursor struct {
	chunk      int // -1: none
	row        uint64
	entry, vis int
}

// locateList returns the entries [lo, hi) and visible values [vlo, vhi)
// of rows [want, want+n) of chunk i (counted from its first row) in its
// levels lv, resuming from the memo's cursor when it is on chunk i at or
// before want, and leaves the cursor at the end of the rows found.
func (m *ChunkMemo) locateList(i int, lv Levels, want, n uint64, set LayerSet) (lo, hi, vlo, vhi int, err error) {
	c := listCursor{chunk: i}
	if m != nil && m.cur.chunk == i && m.cur.row <= want && m.cur.entry <= lv.N {
		c = m.cur
	}
	if lo = nthRowStart(lv.Rep[:lv.N], c.entry, want-c.row, set.MaxRep); lo < 0 {
		return 0, 0, 0, 0, fmt.Errorf("%w: row %d not found in its chunk", ErrCorrupt, want)
	}
	vlo = c.vis + visibleBefore(sliceLevels(lv, c.entry, lo), lo-c.entry, set.MaxVisibleDef)
	if hi = nthRowStart(lv.Rep[:lv.N], lo, n, set.MaxRep); hi < 0 {
		hi = lv.N // the last row ends with the chunk
	}
	vhi = vlo + visibleBefore(sliceLevels(lv, lo, hi), hi-lo, set.MaxVisibleDef)
	if m != nil {
		m.cur = listCursor{chunk: i, row: want, entry: lo, vis: vlo}
		if hi < lv.N {
			m.cur = listCursor{chunk: i, row: want + n, entry: hi, vis: vhi}
		}
	}
	return lo, hi, vlo, vhi, nil
}

func (a *ChunkArena) putChunk(dc DecodedChunk) {
	for _, b := range dc.lent.bufs[:dc.lent.n] {
		a.put(b)
	}
}

// decodeChunkMemo returns chunk i decoded, from the memo when it has it.
func (p *MiniBlockPage) decodeChunkMemo(i int, b []byte, memo *ChunkMemo) (DecodedChunk, error) {
	if memo == nil {
		return p.DecodeChunk(i, b)
	}
	if dc, ok := memo.chunks.get(i); ok {
		return dc, nil
	}
	dc, err := p.decodeChunk(i, b, memo.arena)
	if err == nil {
		memo.chunks.put(i, dc)
	} else {
		memo.arena.putChunk(dc)
	}
	return dc, err
}
