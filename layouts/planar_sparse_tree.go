package layouts

import (
	"encoding/binary"
	"fmt"
	mathbits "math/bits"
	"slices"

	"github.com/lancego/lancego/internal/uninit"
)

// A sparse structure is built straight into the PathNodes of the whole page
// (validity bitmaps, list offsets), without rep/def levels: validity sets
// become bitmaps (a slot is null when its own set or a layer above in the
// same domain says so, as the levels would), list layers offsets from their
// non-empty positions and counts, fixed-size lists pass their nulls on to
// their children. Where a null parent owns list children (a struct row
// that is null above a non-empty list slot), the levels drop those
// children and everything under them, and so does the tree: each domain
// keeps a bitmap of the slots still reached, the nodes hold only those
// (compacted), and the leaf remembers the terminal slot of each of its
// slots (raw) for the value plane, which counts terminal slots. A read of
// rows [from, to) appends the slice of every layer those rows reach.

// sparseTree is a sparse page's structure as page-wide PathNodes.
type sparseTree struct {
	top, leaf *PathNode
	// rank[w] counts the valid (materialized) leaf slots before slot 64·w
	// (nil when every leaf slot is valid).
	rank   []uint32
	numMat uint64
	// raw[s] is the terminal slot of leaf slot s (nil when every terminal
	// slot is reached, and leaf slot = terminal slot).
	raw []uint32
}

// treeLayer is buildTree's state between layers: the raw slot domain,
// the null bitmap of the layers above over it, and which of its slots
// are still reached (nil: all).
type treeLayer struct {
	domain      uint64
	above, keep []byte
}

// buildTree builds the page's nodes.
func (ps *sparseParsed) buildTree() (*sparseTree, error) {
	st := treeLayer{domain: ps.numRows}
	var top, prev *PathNode
	for i, spec := range ps.specs {
		kept := int(st.domain)
		if st.keep != nil {
			kept = countOnes(st.keep, 0, int(st.domain))
		}
		node := &PathNode{Kind: spec.kind, Len: kept}
		nulls := orBitmaps(st.above, ps.nullsOf[i], int(st.domain))
		node.Validity, node.NullCount = validityOf(compactBits(nulls, st.keep, int(st.domain), kept), kept)
		switch spec.kind {
		case LayerItem:
			st.above = nulls
		case LayerList:
			st = ps.lists[i].build(node, st, kept)
		case LayerFSL:
			st.above = expandBits(nulls, int(st.domain), spec.dim)
			st.keep = expandBits(st.keep, int(st.domain), spec.dim)
			st.domain *= spec.dim
		}
		if top == nil {
			top = node
		} else {
			prev.Child = node
		}
		prev = node
	}
	if prev == nil || prev.Kind != LayerItem {
		return nil, fmt.Errorf("%w: sparse structure: inner-most layer is a list", ErrCorrupt)
	}
	t := &sparseTree{top: top, leaf: prev, numMat: uint64(prev.Len - prev.NullCount)}
	if prev.Validity != nil {
		t.rank = rankWords(prev.Validity, prev.Len)
	}
	if st.keep != nil {
		t.raw = setPositions(st.keep, int(st.domain), prev.Len)
	}
	return t, nil
}

// build sets a list node's offsets over its kept slots and returns the
// state of its child domain. A non-empty slot's children are kept when the
// slot is kept and no layer above makes it null (its own validity cannot:
// parseSparse refuses null non-empty positions).
func (ls *listSets) build(node *PathNode, st treeLayer, kept int) treeLayer {
	drops := st.keep != nil
	for _, p := range ls.nonEmpty {
		drops = drops || isSet(st.above, int32(p))
	}
	if !drops {
		node.Offsets = listOffsets(ls.nonEmpty, ls.counts, st.domain)
		return treeLayer{domain: ls.children}
	}
	keep := make([]byte, (ls.children+7)/8)
	offs := make([]int64, 1, kept+1)
	k, child, at := 0, uint64(0), int64(0)
	for s := uint64(0); s < st.domain; s++ {
		here := k < len(ls.nonEmpty) && ls.nonEmpty[k] == s
		var c uint64
		if here {
			c = ls.counts[k]
			k++
		}
		if st.keep != nil && !isSet(st.keep, int32(s)) {
			child += c
			continue
		}
		if c > 0 && !isSet(st.above, int32(s)) {
			setRange(keep, child, child+c)
			at += int64(c)
		}
		child += c
		offs = append(offs, at)
	}
	node.Offsets = offs
	return treeLayer{domain: ls.children, keep: keep}
}

// setRange sets bits [a, b) of bm.
func setRange(bm []byte, a, b uint64) {
	for ; a < b; a++ {
		bm[a/8] |= 1 << (a % 8)
	}
}

// compactBits returns the bits of bm (n bits) at the set positions of
// keep, packed (kept of them; bm itself when keep is nil, nil when bm is).
func compactBits(bm, keep []byte, n, kept int) []byte {
	if bm == nil || keep == nil {
		return bm
	}
	out := make([]byte, (kept+7)/8)
	j := 0
	for w := 0; w < (n+63)/64; w++ {
		for m := word64(keep, w); m != 0; m &= m - 1 {
			i := 64*w + mathbits.TrailingZeros64(m)
			if i < n && isSet(bm, int32(i)) {
				out[j/8] |= 1 << (j % 8)
			}
			j++
		}
	}
	return out
}

// setPositions lists the set bits of bm (n bits; count of them).
func setPositions(bm []byte, n, count int) []uint32 {
	out := make([]uint32, 0, count)
	for w := 0; w < (n+63)/64; w++ {
		for m := word64(bm, w); m != 0; m &= m - 1 {
			if i := 64*w + mathbits.TrailingZeros64(m); i < n {
				out = append(out, uint32(i))
			}
		}
	}
	return out
}

// rawSlot returns the terminal slot of leaf slot s.
func (t *sparseTree) rawSlot(s uint64) uint64 {
	if t.raw == nil {
		return s
	}
	return uint64(t.raw[s])
}

// orBitmaps returns a | b over n bits (either may be nil; neither is
// modified).
func orBitmaps(a, b []byte, n int) []byte {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	out := make([]byte, (n+7)/8)
	for i := range out {
		out[i] = a[i] | b[i]
	}
	return out
}

// validityOf inverts a null bitmap of n bits into a validity bitmap and
// counts the nulls (nil, 0 when there are none).
func validityOf(nulls []byte, n int) ([]byte, int) {
	if nulls == nil {
		return nil, 0
	}
	out := make([]byte, (n+7)/8)
	count := 0
	for i, b := range nulls[:len(out)] {
		out[i] = ^b
		count += mathbits.OnesCount8(b)
	}
	if r := n % 8; r != 0 {
		last := nulls[len(out)-1] & (byte(1)<<r - 1)
		count += mathbits.OnesCount8(last) - mathbits.OnesCount8(nulls[len(out)-1])
		out[len(out)-1] &= byte(1)<<r - 1
	}
	if count == 0 {
		return nil, 0
	}
	return out, count
}

// expandBits repeats each of the n bits of bm dim times (nil stays nil).
func expandBits(bm []byte, n int, dim uint64) []byte {
	if bm == nil {
		return nil
	}
	out := make([]byte, (uint64(n)*dim+7)/8)
	for i := 0; i < n; i++ {
		if isSet(bm, int32(i)) {
			for j := uint64(0); j < dim; j++ {
				k := uint64(i)*dim + j
				out[k/8] |= 1 << (k % 8)
			}
		}
	}
	return out
}

// listOffsets turns non-empty positions (strictly increasing, below
// domain) and their counts into domain+1 offsets.
func listOffsets(nonEmpty, counts []uint64, domain uint64) []int64 {
	offs := uninit.Int64s(int(domain) + 1) // every entry is written below
	offs[0] = 0
	prev, at := uint64(0), int64(0)
	for k, p := range nonEmpty {
		for s := prev; s < p; s++ {
			offs[s+1] = at
		}
		at += int64(counts[k])
		offs[p+1] = at
		prev = p + 1
	}
	for s := prev; s < domain; s++ {
		offs[s+1] = at
	}
	return offs
}

// rankWords counts the set bits before each 64-bit word of bm (n bits).
func rankWords(bm []byte, n int) []uint32 {
	words := (n + 63) / 64
	rank := make([]uint32, words+1)
	c := uint32(0)
	for w := 0; w < words; w++ {
		rank[w] = c
		c += uint32(mathbits.OnesCount64(word64(bm, w)))
	}
	rank[words] = c
	return rank
}

// word64 loads the w-th 64-bit word of a bitmap (zero past its end).
func word64(bm []byte, w int) uint64 {
	i := 8 * w
	if i+8 <= len(bm) {
		return binary.LittleEndian.Uint64(bm[i:])
	}
	var b [8]byte
	copy(b[:], bm[i:])
	return binary.LittleEndian.Uint64(b[:])
}

// matRank counts the materialized leaf slots before slot t.
func (t *sparseTree) matRank(s uint64) uint64 {
	if t.rank == nil {
		return s
	}
	w := s / 64
	r := uint64(t.rank[w])
	if b := s % 64; b != 0 {
		r += uint64(mathbits.OnesCount64(word64(t.leaf.Validity, int(w)) & (1<<b - 1)))
	}
	return r
}

// materialized reports whether leaf slot s holds a value.
func (t *sparseTree) materialized(s uint64) bool {
	return t.leaf.Validity == nil || isSet(t.leaf.Validity, int32(s))
}

// slots returns the leaf slots [lo, hi) rows [from, to) reach.
func (t *sparseTree) slots(from, to uint64) (uint64, uint64) {
	for n := t.top; n != nil; n = n.Child {
		switch n.Kind {
		case LayerList:
			from, to = uint64(n.Offsets[from]), uint64(n.Offsets[to])
		case LayerFSL:
			dim := uint64(n.Child.Len / max(n.Len, 1))
			from, to = from*dim, to*dim
		}
	}
	return from, to
}

// appendRows appends the slices of every layer rows [from, to) reach to
// dst (a node chain of the same shape; nil starts one) and returns it.
func (t *sparseTree) appendRows(dst *PathNode, from, to uint64) (*PathNode, error) {
	if dst == nil {
		var prev *PathNode
		for n := t.top; n != nil; n = n.Child {
			c := &PathNode{Kind: n.Kind}
			if prev == nil {
				dst = c
			} else {
				prev.Child = c
			}
			prev = c
		}
	}
	d := dst
	for n := t.top; n != nil; n, d = n.Child, d.Child {
		if d == nil || d.Kind != n.Kind {
			return nil, fmt.Errorf("%w: pages of one column have different nesting", ErrCorrupt)
		}
		k := int(to - from)
		if n.Validity != nil || d.Validity != nil {
			if d.Validity == nil {
				d.Validity = appendBits(nil, 0, nil, 0, d.Len)
			}
			d.Validity = appendBitsFast(d.Validity, d.Len, n.Validity, int(from), k)
			if n.Validity != nil {
				d.NullCount += k - countOnes(n.Validity, int(from), k)
			}
		}
		switch n.Kind {
		case LayerList:
			if d.Offsets == nil {
				d.Offsets = make([]int64, 1, k+1)
			}
			d.Offsets = slices.Grow(d.Offsets, k)
			base := d.Offsets[len(d.Offsets)-1] - n.Offsets[from]
			for _, o := range n.Offsets[from+1 : to+1] {
				d.Offsets = append(d.Offsets, base+o)
			}
			from, to = uint64(n.Offsets[from]), uint64(n.Offsets[to])
		case LayerFSL:
			dim := uint64(n.Child.Len / max(n.Len, 1))
			from, to = from*dim, to*dim
		}
		d.Len += k
	}
	return dst, nil
}

// appendBitsFast is appendBits copying a byte at a time when the bit
// offsets differ in alignment.
func appendBitsFast(dst []byte, dstLen int, src []byte, off, n int) []byte {
	need := (dstLen + n + 7) / 8
	if len(dst) < need {
		dst = slices.Grow(dst, need-len(dst))[:need]
		clear(dst[(dstLen+7)/8:])
	}
	if src == nil || (dstLen%8 == 0 && off%8 == 0) || n < 16 {
		return appendBits(dst, dstLen, src, off, n)
	}
	i := 0
	for ; i+8 <= n; i += 8 {
		b := bitsAt(src, off+i)
		j := dstLen + i
		lo := uint(j % 8)
		dst[j/8] = dst[j/8]&(byte(1)<<lo-1) | b<<lo
		if lo != 0 {
			dst[j/8+1] = b >> (8 - lo)
		}
	}
	for ; i < n; i++ {
		if getBit(src, off+i) {
			setBit(dst, dstLen+i)
		} else {
			clearBit(dst, dstLen+i)
		}
	}
	return dst
}

// bitsAt returns the 8 bits of bm starting at bit i (zero past its end).
func bitsAt(bm []byte, i int) byte {
	k, s := i/8, uint(i%8)
	v := uint16(bm[k])
	if s != 0 && k+1 < len(bm) {
		v |= uint16(bm[k+1]) << 8
	}
	return byte(v >> s)
}

// countOnes counts the set bits among bits [off, off+n) of bm.
func countOnes(bm []byte, off, n int) int {
	c := 0
	for n > 0 && off%8 != 0 {
		if getBit(bm, off) {
			c++
		}
		off, n = off+1, n-1
	}
	for ; n >= 64; off, n = off+64, n-64 {
		c += mathbits.OnesCount64(binary.LittleEndian.Uint64(bm[off/8:]))
	}
	for ; n >= 8; off, n = off+8, n-8 {
		c += mathbits.OnesCount8(bm[off/8])
	}
	for ; n > 0; off, n = off+1, n-1 {
		if getBit(bm, off) {
			c++
		}
	}
	return c
}
