package codecs

import (
	"encoding/binary"
	"math/rand/v2"
	"slices"
)

// FSST symbol-table construction, after Boncz, Neumann and Leis, "FSST: Fast
// Random Access String Compression" (VLDB 2020): compress a sample with the
// current table while counting how often each symbol and each pair of
// adjacent symbols occurs, turn the counts into gain-ranked candidates
// (symbols and concatenations of two symbols, at most 8 bytes), keep the best
// 255 and repeat; the table that compressed the sample best wins.

// FSSTMinInputBytes is the amount of string data below which Lance's FSST
// encoder is switched off (strings are stored verbatim).
const FSSTMinInputBytes = 32 << 10

// FSSTMinMaxLen is the smallest maximum string length for which Lance picks
// FSST on its own.
const FSSTMinMaxLen = 5

const (
	fsstSampleTarget = 16 << 10 // bytes of sample the table is trained on
	fsstSamplePiece  = 512      // longest piece taken from one string
	fsstMaxSymbols   = 255      // codes 0..254; 255 is the escape
	fsstCodeBase     = 256      // construction codes: 0..255 bytes, 256+ symbols
	fsstMaxCodes     = fsstCodeBase + fsstMaxSymbols
)

// fsstRounds are the sample fractions (out of 128) of the training rounds;
// they set the minimum count of a candidate and stop pair counting at 128.
var fsstRounds = [...]int{8, 38, 68, 98, 108, 128}

// fsstSym is a symbol of 1..8 bytes, first byte least significant.
type fsstSym struct {
	val uint64
	n   uint8
}

// concat joins a and b, truncated to 8 bytes.
func (a fsstSym) concat(b fsstSym) fsstSym {
	n := min(int(a.n)+int(b.n), 8)
	v := a.val | b.val<<(8*a.n)
	if n < 8 {
		v &= 1<<(8*n) - 1
	}
	return fsstSym{val: v, n: uint8(n)}
}

// symOf loads the first n (≤ 8) bytes of s as a symbol.
func symOf(s []byte, n int) fsstSym {
	var b [8]byte
	copy(b[:], s[:n])
	return fsstSym{val: binary.LittleEndian.Uint64(b[:]), n: uint8(n)}
}

// fsstMatcher finds the longest symbol at a position: at most one symbol
// of 3+ bytes per 3-byte prefix, 2-byte symbols by their two bytes, single
// bytes (or escapes) by their byte.
type fsstMatcher struct {
	syms []fsstSym // symbol i has code fsstCodeBase+i
	one  [256]int16
	two  []int16 // 65536 entries, -1 = none
	// threeKey/threeCode are an open-addressing table from the 3-byte
	// prefix of each longer symbol to its code (a Go map was the hot spot
	// of compression).
	threeKey  [fsstHashSize]uint32
	threeCode [fsstHashSize]int16
	// scratch of rebuild and fill
	gains map[fsstSym]int64
	cands []candidate
}

// fsstHashSize is the size of the 3-byte prefix table (4x the symbols).
const fsstHashSize = 1024

// fsstNoKey marks an empty prefix slot (prefixes have 24 bits).
const fsstNoKey = ^uint32(0)

func prefixSlot(k uint32) uint32 { return (k * 0x9E3779B1) >> 22 }

// findThree returns the code of the symbol with 3-byte prefix k.
func (m *fsstMatcher) findThree(k uint32) (int16, bool) {
	for i := prefixSlot(k); m.threeKey[i] != fsstNoKey; i = (i + 1) & (fsstHashSize - 1) {
		if m.threeKey[i] == k {
			return m.threeCode[i], true
		}
	}
	return 0, false
}

// putThree records prefix k for code; false when k is taken.
func (m *fsstMatcher) putThree(k uint32, code int16) bool {
	i := prefixSlot(k)
	for ; m.threeKey[i] != fsstNoKey; i = (i + 1) & (fsstHashSize - 1) {
		if m.threeKey[i] == k {
			return false
		}
	}
	m.threeKey[i], m.threeCode[i] = k, code
	return true
}

// newMatcher returns an empty matcher (every byte escaped).
func newMatcher() *fsstMatcher {
	m := &fsstMatcher{two: make([]int16, 1<<16)}
	for i := range m.two {
		m.two[i] = -1
	}
	m.reset()
	return m
}

// reset drops every symbol.
func (m *fsstMatcher) reset() {
	for _, s := range m.syms {
		if s.n == 2 {
			m.two[s.val&0xFFFF] = -1 // only entries of symbols are set
		}
	}
	m.syms = m.syms[:0]
	for i := range m.one {
		m.one[i] = int16(i)
	}
	for i := range m.threeKey {
		m.threeKey[i] = fsstNoKey
	}
}

// add inserts s; it fails when the table is full or the 3-byte prefix of a
// longer symbol is taken.
func (m *fsstMatcher) add(s fsstSym) bool {
	if len(m.syms) >= fsstMaxSymbols {
		return false
	}
	code := int16(fsstCodeBase + len(m.syms))
	switch {
	case s.n == 1:
		m.one[s.val&0xFF] = code
	case s.n == 2:
		m.two[s.val&0xFFFF] = code
	default:
		if !m.putThree(uint32(s.val&0xFFFFFF), code) {
			return false
		}
	}
	m.syms = append(m.syms, s)
	return true
}

// sym returns the symbol of a construction code (a byte below 256).
func (m *fsstMatcher) sym(code int) fsstSym {
	if code < fsstCodeBase {
		return fsstSym{val: uint64(code), n: 1}
	}
	return m.syms[code-fsstCodeBase]
}

// longest returns the code and length of the longest symbol starting s.
func (m *fsstMatcher) longest(s []byte) (int, int) {
	if len(s) >= 3 {
		if c, ok := m.findThree(uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16); ok {
			sym := m.syms[int(c)-fsstCodeBase]
			if int(sym.n) <= len(s) && symOf(s, int(sym.n)).val == sym.val {
				return int(c), int(sym.n)
			}
		}
	}
	if len(s) >= 2 {
		if c := m.two[int(s[0])|int(s[1])<<8]; c >= 0 {
			return int(c), 2
		}
	}
	return int(m.one[s[0]]), 1
}

// fsstCounts holds symbol and pair frequencies of one training round.
type fsstCounts struct {
	one  []int32
	pair []int32 // fsstMaxCodes × fsstMaxCodes
}

func newCounts() *fsstCounts {
	return &fsstCounts{one: make([]int32, fsstMaxCodes), pair: make([]int32, fsstMaxCodes*fsstMaxCodes)}
}

// count compresses the sample with m, filling c (pairs only when frac <
// 128), and returns the bytes saved (negative when escapes dominate).
func (m *fsstMatcher) count(sample [][]byte, c *fsstCounts, frac int) int {
	clear(c.one)
	clear(c.pair)
	gain := 0
	for _, w := range sample {
		if len(w) == 0 {
			continue
		}
		prev, n := m.longest(w)
		gain += codeGain(prev, n)
		for pos := n; pos < len(w); {
			c.one[prev]++
			if n != 1 {
				c.one[w[pos]]++
			}
			cur, l := m.longest(w[pos:])
			gain += codeGain(cur, l)
			if frac < 128 {
				c.pair[prev*fsstMaxCodes+cur]++
				if l > 1 {
					c.pair[prev*fsstMaxCodes+int(w[pos])]++
				}
			}
			pos += l
			prev, n = cur, l
		}
		c.one[prev]++
	}
	return gain
}

// codeGain is the bytes saved by emitting one code for n input bytes.
func codeGain(code, n int) int {
	if code < fsstCodeBase {
		return -1 // escape: two bytes for one
	}
	return n - 1
}

// candidate is a symbol with its estimated gain.
type candidate struct {
	sym  fsstSym
	gain int64
}

// rebuild replaces the symbols of m with the best candidates of c.
func (m *fsstMatcher) rebuild(c *fsstCounts, frac int) {
	if m.gains == nil {
		m.gains = map[fsstSym]int64{}
	}
	gains := m.gains
	clear(gains)
	minCount := int64(5 * frac / 128)
	add := func(s fsstSym, count int64) {
		if count >= minCount && count > 0 {
			gains[s] += count * int64(s.n)
		}
	}
	codes := fsstCodeBase + len(m.syms)
	for p1 := 0; p1 < codes; p1++ {
		cnt := int64(c.one[p1])
		if cnt == 0 {
			continue
		}
		s1 := m.sym(p1)
		if s1.n == 1 {
			cnt *= 8 // single bytes avoid escapes: promote them
		}
		add(s1, cnt)
		if frac >= 128 || s1.n == 8 {
			continue
		}
		row := c.pair[p1*fsstMaxCodes : p1*fsstMaxCodes+codes]
		for p2, cnt2 := range row {
			if cnt2 != 0 {
				add(s1.concat(m.sym(p2)), int64(cnt2))
			}
		}
	}
	m.fill(gains)
}

// fill resets m and adds the candidates in decreasing gain order.
func (m *fsstMatcher) fill(gains map[fsstSym]int64) {
	cands := m.cands[:0]
	for s, g := range gains {
		cands = append(cands, candidate{s, g})
	}
	// Candidates in order (a total order: gain, then length, then
	// bytes) until the table is full: a heap yields them without sorting
	// the many that are never reached.
	h := candHeap(cands)
	h.init()
	m.reset()
	for len(h) > 0 && len(m.syms) < fsstMaxSymbols {
		m.add(h.pop())
	}
	m.cands = cands[:0]
}

// candBefore orders candidates: higher gain, then longer, then smaller
// bytes first.
func candBefore(a, b candidate) bool {
	switch {
	case a.gain != b.gain:
		return a.gain > b.gain
	case a.sym.n != b.sym.n:
		return a.sym.n > b.sym.n
	}
	return a.sym.val < b.sym.val
}

// candHeap is a binary heap of candidates, first in candBefore order on top.
type candHeap []candidate

func (h candHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h candHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		c := l
		if r := l + 1; r < len(h) && candBefore(h[r], h[l]) {
			c = r
		}
		if !candBefore(h[c], h[i]) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// pop removes and returns the first candidate's symbol.
func (h *candHeap) pop() fsstSym {
	old := *h
	top := old[0].sym
	n := len(old) - 1
	old[0] = old[n]
	*h = old[:n]
	h.down(0)
	return top
}

// fsstSample picks about fsstSampleTarget bytes of string pieces,
// deterministically (all strings when the data is small).
func fsstSample(data []byte, offsets []uint64) [][]byte {
	n := len(offsets) - 1
	out := make([][]byte, 0, 64)
	if len(data) <= fsstSampleTarget {
		for i := 0; i < n; i++ {
			out = append(out, data[offsets[i]:offsets[i+1]])
		}
		return out
	}
	r := rand.New(rand.NewPCG(0x46535354, uint64(len(data))))
	for size, tries := 0, 0; size < fsstSampleTarget && tries < 1<<20; tries++ {
		i := r.IntN(n)
		s := data[offsets[i]:offsets[i+1]]
		if len(s) > fsstSamplePiece {
			start := r.IntN(len(s) - fsstSamplePiece + 1)
			s = s[start : start+fsstSamplePiece]
		}
		out = append(out, s)
		size += len(s)
	}
	return out
}

// BuildFSSTTable trains a symbol table on the strings
// data[offsets[i]:offsets[i+1]] (len(offsets) ≥ 2, offsets within data).
// Data below FSSTMinInputBytes gets Lance's switched-off table (no symbols,
// strings stored verbatim), as does data no symbol helps. Its training
// tables are allocated afresh; FSSTScratch.BuildTable reuses them.
func BuildFSSTTable(data []byte, offsets []uint64) *FSSTTable {
	var fresh *FSSTScratch
	return fresh.BuildTable(data, offsets)
}

// BuildTable is BuildFSSTTable (same table) with the training tables taken
// from s and given back to it when done. A nil s allocates them afresh.
func (s *FSSTScratch) BuildTable(data []byte, offsets []uint64) *FSSTTable {
	if len(data) < FSSTMinInputBytes || len(offsets) < 2 {
		return &FSSTTable{}
	}
	sample := fsstSample(data, offsets)
	m, c := s.matcher(), s.countsTable()
	defer s.putMatcher(m)
	defer s.putCounts(c)
	best, bestGain := []fsstSym(nil), 0
	for _, frac := range fsstRounds {
		if g := m.count(sample, c, frac); g > bestGain || best == nil {
			best, bestGain = slices.Clone(m.syms), g
		}
		m.rebuild(c, frac)
	}
	if g := m.count(sample, c, 128); g > bestGain {
		best = slices.Clone(m.syms)
	}
	if len(best) == 0 {
		return &FSSTTable{}
	}
	t := &FSSTTable{Compressed: true, NumSymbols: len(best)}
	for i, s := range best {
		t.Symbols[i], t.Lens[i] = s.val, s.n
	}
	return t
}
