package layouts

import (
	"fmt"

	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	pb23 "github.com/lancego/lancego/format/pb/encodings23pb"
)

// maxSparseEntries bounds the rows, slots and rep/def entries of one
// sparse page (each entry costs ~12 bytes while the page initializes).
const maxSparseEntries = 1 << 24

// sparseLevels is a sparse structural plane expanded to the rep/def levels
// the 2.1/2.2 path uses, so Unravel and BuildArray read it unchanged.
type sparseLevels struct {
	set LayerSet
	lv  Levels
	// rowStart[r] is the first entry of row r (NumRows+1 entries; nil
	// without lists, where entry = row).
	rowStart []int32
	// slot[e] is the terminal slot entry e reaches, or -1.
	slot []int32
	// terminal is the size of the terminal (leaf slot) domain.
	terminal uint64
}

// sparseBuilder expands layers outer to inner.
type sparseBuilder struct {
	rep, def []uint16
	slot     []int32
	domain   uint64
	payloads [][]byte // structural payload buffers, consumed in order
}

// nextPayload takes the next structural payload when enc has one.
func (b *sparseBuilder) nextPayload(enc *pb.CompressiveEncoding, field string) ([]byte, error) {
	if !codecs.SequenceHasPayload(enc) {
		return nil, nil
	}
	if len(b.payloads) == 0 {
		return nil, fmt.Errorf("%w: sparse structure: field %s: its payload buffer is missing", ErrCorrupt, field)
	}
	p := b.payloads[0]
	b.payloads = b.payloads[1:]
	return p, nil
}

// positions decodes a strictly increasing position sequence below limit.
func (b *sparseBuilder) positions(enc *pb.CompressiveEncoding, n, limit uint64, field string) ([]uint64, error) {
	if enc == nil {
		return nil, fmt.Errorf("%w: sparse structure: field %s: missing descriptor", ErrCorrupt, field)
	}
	if n > limit {
		return nil, fmt.Errorf("%w: sparse structure: field %s: %d positions in a domain of %d", ErrCorrupt, field, n, limit)
	}
	payload, err := b.nextPayload(enc, field)
	if err != nil {
		return nil, err
	}
	// n is at most the domain (at most maxSparseEntries): exact capacity.
	pos, err := codecs.DecodeSequence(make([]uint64, 0, n), enc, 64, payload, n)
	if err != nil {
		return nil, fmt.Errorf("sparse structure: field %s: %w", field, err)
	}
	for i, p := range pos {
		if p >= limit || (i > 0 && p <= pos[i-1]) {
			return nil, fmt.Errorf("%w: sparse structure: field %s: position %d (%d) not strictly increasing below %d", ErrCorrupt, field, i, p, limit)
		}
	}
	return pos, nil
}

// nulls decodes a validity set over the current domain into a null bitmap
// (nil when nothing is null).
func (b *sparseBuilder) nulls(v *pb23.SparseValiditySet, field string) ([]byte, error) {
	if v == nil {
		return nil, fmt.Errorf("%w: sparse structure: field %s: missing validity set", ErrCorrupt, field)
	}
	if bm, ok, err := b.rangeNulls(v, field+".positions"); ok || err != nil {
		return bm, err
	}
	pos, err := b.positions(v.GetPositions(), v.GetNumPositions(), b.domain, field+".positions")
	if err != nil {
		return nil, err
	}
	var bm []byte
	switch v.GetMeaning() {
	case pb23.SparseValiditySet_SPARSE_VALIDITY_NULL_POSITIONS:
		if len(pos) == 0 {
			return nil, nil
		}
		bm = make([]byte, (b.domain+7)/8)
		for _, p := range pos {
			bm[p/8] |= 1 << (p % 8)
		}
	case pb23.SparseValiditySet_SPARSE_VALIDITY_VALID_POSITIONS:
		if uint64(len(pos)) == b.domain {
			return nil, nil
		}
		bm = make([]byte, (b.domain+7)/8)
		for i := range bm {
			bm[i] = 0xff
		}
		for _, p := range pos {
			bm[p/8] &^= 1 << (p % 8)
		}
	default:
		return nil, fmt.Errorf("%w: sparse structure: field %s.meaning: %v", ErrCorrupt, field, v.GetMeaning())
	}
	return bm, nil
}

// rangeNulls is nulls for a validity set whose positions are a Range
// (start, start+step, ...; pylance writes every other slot so), setting
// the bitmap's bits without decoding the positions; ok is false for other
// sequences.
func (b *sparseBuilder) rangeNulls(v *pb23.SparseValiditySet, field string) (bm []byte, ok bool, err error) {
	r := v.GetPositions().GetRange()
	n := v.GetNumPositions()
	if r == nil || n == 0 || n > b.domain {
		return nil, false, nil // checked and decoded by positions
	}
	start, step := r.GetStart(), r.GetStep()
	if r.GetUncompressedBitsPerValue() != 64 || step == 0 || start >= b.domain || (n-1) > (b.domain-1-start)/step {
		return nil, true, fmt.Errorf("%w: sparse structure: field %s: range %d + %d·k (%d positions) not strictly increasing below %d", ErrCorrupt, field, start, step, n, b.domain)
	}
	meaning := v.GetMeaning()
	if meaning == pb23.SparseValiditySet_SPARSE_VALIDITY_VALID_POSITIONS && n == b.domain {
		return nil, true, nil
	}
	bm = make([]byte, (b.domain+7)/8)
	switch meaning {
	case pb23.SparseValiditySet_SPARSE_VALIDITY_NULL_POSITIONS:
		for k, p := uint64(0), start; k < n; k, p = k+1, p+step {
			bm[p/8] |= 1 << (p % 8)
		}
	case pb23.SparseValiditySet_SPARSE_VALIDITY_VALID_POSITIONS:
		for i := range bm {
			bm[i] = 0xff
		}
		for k, p := uint64(0), start; k < n; k, p = k+1, p+step {
			bm[p/8] &^= 1 << (p % 8)
		}
	default:
		return nil, true, fmt.Errorf("%w: sparse structure: field %s.meaning: %v", ErrCorrupt, field, meaning)
	}
	return bm, true, nil
}

func isSet(bm []byte, i int32) bool { return bm != nil && bm[i/8]&(1<<(i%8)) != 0 }

// sparseParsed is a sparse structure's layers decoded and checked, outer-
// most first: each layer's null bitmap over its domain (nil when nothing is
// null) and a list layer's non-empty positions and counts.
type sparseParsed struct {
	specs    []layerSpec
	nullsOf  [][]byte
	lists    []listSets
	numRows  uint64
	terminal uint64
}

type listSets struct {
	nonEmpty, counts []uint64
	children         uint64
}

// parseSparse decodes and checks a sparse structure of numRows rows;
// payloads are the page's structural payload buffers in order (value
// buffers removed).
func parseSparse(s *pb23.SparseStructure, numRows uint64, payloads [][]byte) (*sparseParsed, error) {
	if numRows > maxSparseEntries {
		return nil, fmt.Errorf("%w: sparse page of %d rows", ErrCorrupt, numRows)
	}
	layers := s.GetLayers()
	if len(layers) > 64 {
		return nil, fmt.Errorf("%w: sparse structure: %d layers (at most 64)", ErrCorrupt, len(layers))
	}
	b := &sparseBuilder{domain: numRows, payloads: payloads}
	ps := &sparseParsed{specs: make([]layerSpec, len(layers)), nullsOf: make([][]byte, len(layers)),
		lists: make([]listSets, len(layers)), numRows: numRows}
	for i, l := range layers {
		field := fmt.Sprintf("structure.sparse.layers[%d]", i)
		switch x := l.GetLayer().(type) {
		case *pb23.SparseStructuralLayer_Validity:
			bm, err := b.nulls(x.Validity, field+".validity")
			if err != nil {
				return nil, err
			}
			ps.nullsOf[i], ps.specs[i] = bm, layerSpec{kind: LayerItem, null: bm != nil}
		case *pb23.SparseStructuralLayer_List:
			ls, bm, err := b.listLayer(x.List, field+".list")
			if err != nil {
				return nil, err
			}
			ps.nullsOf[i], ps.specs[i] = bm, layerSpec{kind: LayerList, null: true, empty: true}
			ps.lists[i] = listSets{ls.nonEmpty, ls.counts, x.List.GetNumChildSlots()}
			b.domain = x.List.GetNumChildSlots()
		case *pb23.SparseStructuralLayer_FixedSizeList:
			bm, err := b.fslLayer(x.FixedSizeList, field+".fixed_size_list")
			if err != nil {
				return nil, err
			}
			ps.nullsOf[i], ps.specs[i] = bm, layerSpec{kind: LayerFSL, null: bm != nil, dim: x.FixedSizeList.GetDimension()}
		default:
			return nil, fmt.Errorf("%w: sparse structure: field %s: no layer variant", ErrCorrupt, field)
		}
	}
	if len(b.payloads) != 0 {
		return nil, fmt.Errorf("%w: sparse structure: %d payload buffers left over", ErrCorrupt, len(b.payloads))
	}
	if len(layers) == 0 {
		ps.specs = []layerSpec{{kind: LayerItem}}
		ps.nullsOf = make([][]byte, 1)
		ps.lists = make([]listSets, 1)
	}
	ps.terminal = b.domain
	return ps, nil
}

// layerSet is the parsed structure's layer set.
func (ps *sparseParsed) layerSet() LayerSet {
	inner := make([]layerSpec, len(ps.specs)) // inner-most first
	for i, k := range ps.specs {
		inner[len(ps.specs)-1-i] = k
	}
	return layerSetOf(inner)
}

// newSparseLevels expands a sparse structure of numRows rows; payloads are
// the page's structural payload buffers in order (value buffers removed).
func newSparseLevels(s *pb23.SparseStructure, numRows uint64, payloads [][]byte) (*sparseLevels, error) {
	ps, err := parseSparse(s, numRows, payloads)
	if err != nil {
		return nil, err
	}
	return ps.levels()
}

// levels expands the parsed structure into rep/def levels.
func (ps *sparseParsed) levels() (*sparseLevels, error) {
	set := ps.layerSet()
	out := &sparseLevels{set: set, terminal: ps.terminal}
	b := &sparseBuilder{}
	b.start(ps.numRows, set.MaxRep)
	for i, d := range set.Layers {
		var err error
		switch d.Kind {
		case LayerItem:
			b.applyValidity(ps.nullsOf[i], d)
		case LayerFSL:
			err = b.applyFSL(ps.nullsOf[i], d)
		default:
			err = b.applyList(ps.nullsOf[i], ps.lists[i].nonEmpty, ps.lists[i].counts, d)
		}
		if err != nil {
			return nil, err
		}
	}
	return out, out.finish(b, ps.numRows)
}

type listParts struct{ nonEmpty, counts []uint64 }

// listLayer decodes and checks a list layer over the current domain.
func (b *sparseBuilder) listLayer(l *pb23.SparseListLayer, field string) (listParts, []byte, error) {
	n := l.GetNumNonEmptyPositions()
	pos, err := b.positions(l.GetNonEmptyPositions(), n, b.domain, field+".non_empty_positions")
	if err != nil {
		return listParts{}, nil, err
	}
	if l.GetCounts() == nil {
		return listParts{}, nil, fmt.Errorf("%w: sparse structure: field %s.counts: missing descriptor", ErrCorrupt, field)
	}
	payload, err := b.nextPayload(l.GetCounts(), field+".counts")
	if err != nil {
		return listParts{}, nil, err
	}
	// n passed positions' check against the domain: exact capacity.
	counts, err := codecs.DecodeSequence(make([]uint64, 0, n), l.GetCounts(), 64, payload, n)
	if err != nil {
		return listParts{}, nil, fmt.Errorf("sparse structure: field %s.counts: %w", field, err)
	}
	var sum uint64
	for i, c := range counts {
		if c == 0 || c > l.GetNumChildSlots()-sum || sum > l.GetNumChildSlots() {
			return listParts{}, nil, fmt.Errorf("%w: sparse structure: field %s.counts: count %d (%d) is 0 or exceeds num_child_slots %d", ErrCorrupt, field, i, c, l.GetNumChildSlots())
		}
		sum += c
	}
	if sum != l.GetNumChildSlots() {
		return listParts{}, nil, fmt.Errorf("%w: sparse structure: field %s.counts: sum %d != num_child_slots %d", ErrCorrupt, field, sum, l.GetNumChildSlots())
	}
	if sum > maxSparseEntries {
		return listParts{}, nil, fmt.Errorf("%w: sparse structure: field %s.num_child_slots: %d", ErrCorrupt, field, sum)
	}
	bm, err := b.nulls(l.GetValidity(), field+".validity")
	if err != nil {
		return listParts{}, nil, err
	}
	for _, p := range pos {
		if isSet(bm, int32(p)) {
			return listParts{}, nil, fmt.Errorf("%w: sparse structure: field %s.non_empty_positions: position %d is null", ErrCorrupt, field, p)
		}
	}
	return listParts{pos, counts}, bm, nil
}

// start makes one entry per row.
func (b *sparseBuilder) start(rows uint64, maxRep uint16) {
	b.rep, b.def, b.slot = nil, make([]uint16, rows), make([]int32, rows)
	if maxRep > 0 {
		b.rep = make([]uint16, rows)
		for i := range b.rep {
			b.rep[i] = maxRep
		}
	}
	for i := range b.slot {
		b.slot[i] = int32(i)
	}
}

// applyValidity marks the still-valid entries whose slot is null.
func (b *sparseBuilder) applyValidity(nulls []byte, d RepDefLayer) {
	if nulls == nil {
		return
	}
	for e, s := range b.slot {
		if s >= 0 && b.def[e] == 0 && isSet(nulls, s) {
			b.def[e] = d.NullCode
		}
	}
}

// applyList expands each entry's list slot into its children.
func (b *sparseBuilder) applyList(nulls []byte, nonEmpty, counts []uint64, d RepDefLayer) error {
	total := uint64(len(b.slot))
	for _, c := range counts {
		total += c
	}
	if total > maxSparseEntries {
		return fmt.Errorf("%w: sparse structure expands to %d entries", ErrCorrupt, total)
	}
	rep := make([]uint16, 0, total)
	def := make([]uint16, 0, total)
	slot := make([]int32, 0, total)
	k, child := 0, uint64(0)
	for e, s := range b.slot {
		for s >= 0 && k < len(nonEmpty) && nonEmpty[k] < uint64(s) {
			child += counts[k]
			k++
		}
		r := uint16(0)
		if b.rep != nil {
			r = b.rep[e]
		}
		here := s >= 0 && k < len(nonEmpty) && nonEmpty[k] == uint64(s)
		switch {
		case s < 0 || b.def[e] != 0: // ended above: children (if any) are dropped
			rep, def, slot = append(rep, r), append(def, b.def[e]), append(slot, -1)
		case isSet(nulls, s):
			rep, def, slot = append(rep, r), append(def, d.NullCode), append(slot, -1)
		case here:
			for j := range counts[k] {
				rr := d.RepNumber - 1
				if j == 0 {
					rr = r
				}
				rep, def, slot = append(rep, rr), append(def, 0), append(slot, int32(child+j))
			}
		default:
			rep, def, slot = append(rep, r), append(def, d.EmptyCode), append(slot, -1)
		}
	}
	b.rep, b.def, b.slot = rep, def, slot
	return nil
}

// finish stores the levels, row starts and terminal slots.
func (s *sparseLevels) finish(b *sparseBuilder, rows uint64) error {
	n := len(b.slot)
	s.lv = Levels{N: n}
	if s.set.MaxRep > 0 {
		s.lv.Rep = b.rep
		s.rowStart = make([]int32, 0, rows+1)
		for e, r := range b.rep {
			if r == s.set.MaxRep {
				s.rowStart = append(s.rowStart, int32(e))
			}
		}
		if uint64(len(s.rowStart)) != rows {
			return fmt.Errorf("%w: sparse structure: %d rows start, page has %d", ErrCorrupt, len(s.rowStart), rows)
		}
		s.rowStart = append(s.rowStart, int32(n))
	}
	if s.set.MaxDef > 0 {
		s.lv.Def = b.def
	}
	s.slot = b.slot
	return s.lv.check(s.set)
}

// entries returns the entry range of rows [from, to).
func (s *sparseLevels) entries(from, to uint64) (int, int) {
	if s.rowStart == nil {
		return int(from), int(to)
	}
	return int(s.rowStart[from]), int(s.rowStart[to])
}
