package layouts

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/internal/lebits"
	"github.com/lancego/lancego/internal/uninit"
)

// Values accumulates decoded leaf values across chunks and pages, in the
// shape the codecs produced them (fixed, variable, struct), so that one
// Arrow array can be built at the end.
type Values struct {
	Kind codecs.BlockKind
	// Bits is the item width of fixed-width values (1 for bitmaps).
	Bits uint64
	// N is the number of values (rows of FSL data).
	N int
	// Data holds fixed-width items or the bytes of variable-width values.
	Data []byte
	// Offsets holds N+1 offsets into Data for variable-width values.
	Offsets []int64
	// FSL are the fixed-size-list layers of fixed-width data, outer first.
	FSL []FSLValues
	// Children are the fields of a packed struct.
	Children []Values
	// mem, when set (SetAllocator), is where reserve takes fixed-width
	// data from; owned is that allocation until the builder hands it to
	// Arrow (handed) or Free gives it back.
	mem    memory.Allocator
	owned  []byte
	handed bool
	// ownedOffs is the allocation from mem that Offsets was made in
	// (newOffsets for a batch's FSST offsets, growOffsetsMem for gathered
	// dictionary strings); the builder copies offsets, so Free gives it
	// back.
	ownedOffs []byte
	// gathered is the dictionary the last table gather expanded: Reserve
	// sizes the bytes of values still to come from it.
	gathered *dictTable
}

// uninitAllocator is an allocator that can skip zeroing (bufpool.Pool).
type uninitAllocator interface {
	AllocateUninit(size int) []byte
}

// SetAllocator makes the accumulator take the memory it reserves for
// fixed-width values from mem, so that the Arrow buffer built from it is
// given back to mem when released. The caller must then Free the
// accumulator when no array was built from it.
func (v *Values) SetAllocator(mem memory.Allocator) { v.mem = mem }

// Free gives back memory reserved from the allocator and not handed to
// an Arrow buffer; v must not be used afterwards.
func (v *Values) Free() {
	if v == nil {
		return
	}
	v.freeOffsets()
	if v.owned == nil {
		return
	}
	v.mem.Free(v.owned)
	v.owned, v.Data = nil, nil
}

// pooledOffsetsMin is the smallest offsets scratch (in values) newOffsets
// takes from the allocator: below a pool's minimum buffer it is plain
// memory anyway.
const pooledOffsetsMin = 2048

// newOffsets returns an empty offsets slice with room for n entries,
// unzeroed. With a pooling allocator (bufpool.Pool) and no scratch taken
// yet, it comes from the allocator and Free gives it back: a scan's
// batches then reuse one offsets buffer instead of allocating 8 bytes a
// value each (an eighth of str_short's allocation, and with it of its
// garbage collections).
func (v *Values) newOffsets(n int) []int64 {
	u, ok := v.mem.(uninitAllocator)
	if !ok || v.ownedOffs != nil || n < pooledOffsetsMin || n > maxPooledOffsets {
		return uninit.Int64s(n)[:0]
	}
	b := u.AllocateUninit(8 * n)
	if len(b) < 8*n || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%8 != 0 {
		return uninit.Int64s(n)[:0] // not usable as int64s; b is left to the collector
	}
	v.ownedOffs = b
	return unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(b))), n)[:0]
}

// maxPooledOffsets bounds newOffsets' pooled scratch (32 MiB).
const maxPooledOffsets = 4 << 20

// ownsData reports whether Data lives in the allocation from mem.
func (v *Values) ownsData() bool {
	return v.owned != nil && cap(v.Data) > 0 && unsafe.SliceData(v.Data) == unsafe.SliceData(v.owned) &&
		len(v.Data) <= len(v.owned)
}

// FSLValues is one fixed-size-list layer: its dimension and item validity
// (one bit per item at this layer, nil when all valid).
type FSLValues struct {
	Dim      uint64
	Validity []byte
}

// itemsPerValue returns the number of items each value holds.
func (v *Values) itemsPerValue() uint64 {
	n := uint64(1)
	for _, l := range v.FSL {
		n *= l.Dim
	}
	return n
}

// initFrom sets the shape of an empty accumulator from a first block.
func (v *Values) initFrom(b *codecs.Block) {
	v.Kind, v.Bits = b.Kind, b.BitsPerValue
	if len(b.FSL) > 0 && v.FSL == nil {
		v.FSL = make([]FSLValues, len(b.FSL))
		for i, l := range b.FSL {
			v.FSL[i].Dim = l.Dimension
		}
	}
	if b.Kind == codecs.KindVariable && v.Offsets == nil {
		v.Offsets = []int64{0}
	}
	if b.Kind == codecs.KindStruct && v.Children == nil {
		v.Children = make([]Values, len(b.Children))
		for i := range b.Children {
			v.Children[i].initFrom(&b.Children[i])
		}
	}
}

// Append adds values [from, to) of b. The accumulator may keep referring
// to b's memory instead of copying it.
func (v *Values) Append(b *codecs.Block, from, to uint64) error {
	return v.appendBlock(b, from, to, true)
}

// AppendCopy is Append that always copies b's values, for blocks whose
// memory is given back before the accumulator's (views of a scan's pages).
func (v *Values) AppendCopy(b *codecs.Block, from, to uint64) error {
	return v.appendBlock(b, from, to, false)
}

// ReserveBytes makes room for n more bytes of data (any shape; with an
// allocator, from it), so that appends of a known size grow nothing.
func (v *Values) ReserveBytes(n int) {
	if n > 0 && n <= 1<<31 {
		v.growData(n)
	}
}

// appendBlock is Append; alias says whether v may refer to b's memory.
func (v *Values) appendBlock(b *codecs.Block, from, to uint64, alias bool) error {
	if from > to || to > b.NumValues {
		return fmt.Errorf("%w: value range [%d,%d) of a block of %d", ErrCorrupt, from, to, b.NumValues)
	}
	if v.Kind == 0 {
		v.initFrom(b)
	}
	if err := v.checkShape(b); err != nil {
		return err
	}
	var err error
	switch b.Kind {
	case codecs.KindFixed:
		err = v.appendFixed(b, from, to, alias)
	case codecs.KindVariable:
		err = v.appendVariable(b, from, to)
	case codecs.KindStruct:
		for i := range b.Children {
			if err = v.Children[i].appendBlock(&b.Children[i], from, to, alias); err != nil {
				return err
			}
		}
	default:
		err = fmt.Errorf("%w: block kind %d", ErrCorrupt, b.Kind)
	}
	if err == nil {
		v.N += int(to - from)
	}
	return err
}

func (v *Values) checkShape(b *codecs.Block) error {
	if b.Kind != v.Kind || b.BitsPerValue != v.Bits || len(b.FSL) != len(v.FSL) ||
		len(b.Children) != len(v.Children) {
		return fmt.Errorf("%w: chunks of one column decode to different value shapes", ErrCorrupt)
	}
	for i, l := range b.FSL {
		if l.Dimension != v.FSL[i].Dim {
			return fmt.Errorf("%w: fixed-size list dimension changes between chunks", ErrCorrupt)
		}
	}
	return nil
}

func (v *Values) appendFixed(b *codecs.Block, from, to uint64, alias bool) error {
	per := v.itemsPerValue()
	items := uint64(v.N) * per
	if err := v.appendFSLValidity(b, from, to); err != nil {
		return err
	}
	if v.Bits == 1 {
		need := (to*per + 7) / 8
		if uint64(len(b.Data)) < need {
			return fmt.Errorf("%w: bitmap of %d bytes for %d bits", ErrCorrupt, len(b.Data), to*per)
		}
		v.Data = appendBits(v.Data, int(items), b.Data, int(from*per), int((to-from)*per))
		return nil
	}
	w := v.Bits / 8
	lo, hi := from*per*w, to*per*w
	if v.Bits%8 != 0 || hi > uint64(len(b.Data)) {
		return fmt.Errorf("%w: %d-bit values: need %d bytes, block has %d", ErrCorrupt, v.Bits, hi, len(b.Data))
	}
	if v.Data == nil && from == 0 && alias {
		v.Data = b.Data[:hi:hi] // zero copy for the first block
		return nil
	}
	v.Data = append(v.Data, b.Data[lo:hi]...)
	return nil
}

func (v *Values) appendFSLValidity(b *codecs.Block, from, to uint64) error {
	cum := uint64(1)
	for i, l := range b.FSL {
		cum *= l.Dimension
		dst := &v.FSL[i]
		have := uint64(v.N) * cum
		if l.Validity == nil && dst.Validity == nil {
			continue
		}
		if dst.Validity == nil {
			dst.Validity = appendBits(nil, 0, nil, 0, int(have))
		}
		if l.Validity != nil && uint64(len(l.Validity))*8 < to*cum {
			return fmt.Errorf("%w: fixed-size list validity too short", ErrCorrupt)
		}
		dst.Validity = appendBits(dst.Validity, int(have), l.Validity, int(from*cum), int((to-from)*cum))
	}
	return nil
}

func readOffset(b []byte, bits int, i uint64) uint64 {
	if bits == 32 {
		return uint64(binary.LittleEndian.Uint32(b[i*4:]))
	}
	return binary.LittleEndian.Uint64(b[i*8:])
}

func (v *Values) appendVariable(b *codecs.Block, from, to uint64) error {
	if b.OffsetBits != 32 && b.OffsetBits != 64 {
		return fmt.Errorf("%w: %d-bit offsets", ErrCorrupt, b.OffsetBits)
	}
	w := uint64(b.OffsetBits / 8)
	if uint64(len(b.Offsets))/w < b.NumValues+1 {
		return fmt.Errorf("%w: %d offsets for %d values", ErrCorrupt, uint64(len(b.Offsets))/w, b.NumValues)
	}
	start := readOffset(b.Offsets, b.OffsetBits, from)
	end := readOffset(b.Offsets, b.OffsetBits, to)
	if start > end || end > uint64(len(b.Data)) {
		return fmt.Errorf("%w: value bytes [%d,%d) outside %d", ErrCorrupt, start, end, len(b.Data))
	}
	base := v.Offsets[len(v.Offsets)-1] - int64(start)
	prev := start
	for i := from + 1; i <= to; i++ {
		o := readOffset(b.Offsets, b.OffsetBits, i)
		if o < prev || o > end {
			return fmt.Errorf("%w: offsets decrease or exceed the data", ErrCorrupt)
		}
		v.Offsets = append(v.Offsets, base+int64(o))
		prev = o
	}
	v.Data = append(v.Data, b.Data[start:end]...)
	return nil
}

// AppendGather appends dict[idx[i]] for i in [from, to), where idx is a
// fixed-width block of 8/16/32/64-bit unsigned indices.
func (v *Values) AppendGather(dict *codecs.Block, idx *codecs.Block, from, to uint64) error {
	if idx.Kind != codecs.KindFixed || idx.BitsPerValue%8 != 0 || idx.BitsPerValue == 0 ||
		idx.BitsPerValue > 64 || len(idx.FSL) > 0 {
		return fmt.Errorf("%w: dictionary indices are not fixed-width integers", ErrCorrupt)
	}
	w := idx.BitsPerValue / 8
	if to > idx.NumValues || uint64(len(idx.Data)) < to*w {
		return fmt.Errorf("%w: dictionary index block too short", ErrCorrupt)
	}
	if dict.Kind == codecs.KindVariable {
		if v.Kind == 0 {
			v.initFrom(dict)
		}
		if err := v.checkShape(dict); err == nil {
			return v.gatherVariable(dict, idx, from, to, w)
		}
	}
	for i := from; i < to; i++ {
		k := lebits.Uint(idx.Data[i*w:], int(w))
		if k >= dict.NumValues {
			return fmt.Errorf("%w: dictionary index %d of %d entries", ErrCorrupt, k, dict.NumValues)
		}
		if err := v.Append(dict, k, k+1); err != nil {
			return err
		}
	}
	return nil
}

// gatherVariable appends dictionary strings by index. It appends to
// local slices (appending to v's fields stored a slice header to the heap
// per value, each a GC write barrier while a collection runs) sized for
// the whole batch when the caller reserved it (reserveGather), copies
// values of up to 16 bytes as two words (shortCopy), and leaves v as it
// was on error.
func (v *Values) gatherVariable(dict, idx *codecs.Block, from, to, w uint64) error {
	if dict.OffsetBits != 32 && dict.OffsetBits != 64 ||
		uint64(len(dict.Offsets)) < (dict.NumValues+1)*uint64(dict.OffsetBits/8) {
		return fmt.Errorf("%w: dictionary offsets", ErrCorrupt)
	}
	if w == 4 && dict.OffsetBits == 32 && dict.NumValues <= 2*(to-from)+64 && checkedOffsets32(dict) {
		return v.gatherFlat32(dict, idx, from, to)
	}
	data, offs := v.Data, growOffsets(v.Offsets, int(to-from))
	last := offs[len(offs)-1]
	ob := uint64(dict.OffsetBits / 8)
	for i := from; i < to; i++ {
		k := lebits.Uint(idx.Data[i*w:], int(w))
		if k >= dict.NumValues {
			return fmt.Errorf("%w: dictionary index %d of %d entries", ErrCorrupt, k, dict.NumValues)
		}
		var lo, hi uint64
		if o := dict.Offsets[k*ob : (k+2)*ob]; ob == 4 {
			lo, hi = uint64(binary.LittleEndian.Uint32(o)), uint64(binary.LittleEndian.Uint32(o[4:]))
		} else {
			lo, hi = binary.LittleEndian.Uint64(o), binary.LittleEndian.Uint64(o[8:])
		}
		if lo > hi || hi > uint64(len(dict.Data)) {
			return fmt.Errorf("%w: dictionary value %d outside its data", ErrCorrupt, k)
		}
		if n := len(data); hi-lo <= 16 && lo+16 <= uint64(len(dict.Data)) && cap(data)-n >= 16 {
			shortCopy(data[n:n+16], dict.Data[lo:lo+16])
			data = data[:n+int(hi-lo)]
		} else {
			data = v.roomFor(data, int(hi-lo))
			data = append(data, dict.Data[lo:hi]...)
		}
		last += int64(hi - lo)
		offs = append(offs, last)
	}
	v.Data, v.Offsets = data, offs
	v.N += int(to - from)
	return nil
}

// checkedOffsets32 reports whether the 32-bit offsets of a variable-width
// dictionary are non-decreasing and within its data, so that a gather may
// trust every pair (a dictionary small against the gather is checked once
// per call rather than once per value).
func checkedOffsets32(dict *codecs.Block) bool {
	n := dict.NumValues
	if n >= 1<<31 || uint64(len(dict.Offsets)) < (n+1)*4 {
		return false
	}
	offs := dict.Offsets[:(n+1)*4]
	prev := binary.LittleEndian.Uint32(offs)
	for i := 4; i+4 <= len(offs); i += 4 {
		o := binary.LittleEndian.Uint32(offs[i:])
		if o < prev {
			return false
		}
		prev = o
	}
	return uint64(prev) <= uint64(len(dict.Data))
}

// gatherFlat32 is gatherVariable for 32-bit indices into a dictionary
// whose 32-bit offsets checkedOffsets32 accepted: per value only the index
// is checked, and values of up to 32 bytes are copied as four words
// (Lance's short dictionary strings; memmove calls were a third of the
// gather of 8-24 byte strings). It leaves v as it was on error.
func (v *Values) gatherFlat32(dict, idx *codecs.Block, from, to uint64) error {
	n := uint32(dict.NumValues)
	table := dict.Offsets[:(dict.NumValues+1)*4]
	src := dict.Data
	data, offs := v.Data, growOffsets(v.Offsets, int(to-from))
	last := offs[len(offs)-1]
	ix := idx.Data[from*4 : to*4]
	for i := 0; i+4 <= len(ix); i += 4 {
		k := binary.LittleEndian.Uint32(ix[i:])
		if k >= n {
			return fmt.Errorf("%w: dictionary index %d of %d entries", ErrCorrupt, k, n)
		}
		var l int
		data, l = v.appendEntry32(data, src, table, k)
		last += int64(l)
		offs = append(offs, last)
	}
	v.Data, v.Offsets = data, offs
	v.N += int(to - from)
	return nil
}

// appendEntry32 appends entry k of a dictionary with checked 32-bit
// offsets table over src to data (v's data with values appended since),
// short entries as one 32-byte word copy, and returns data and the entry's
// length. k must be below the dictionary's entry count.
func (v *Values) appendEntry32(data, src, table []byte, k uint32) ([]byte, int) {
	o := table[k*4 : k*4+8]
	lo, hi := binary.LittleEndian.Uint32(o), binary.LittleEndian.Uint32(o[4:])
	l := int(hi - lo)
	if m := len(data); l <= 32 && int(lo)+32 <= len(src) && cap(data)-m >= 32 {
		wordCopy32(data[m:m+32], src[lo:lo+32])
		return data[:m+l], l
	}
	data = v.roomFor(data, l)
	return append(data, src[lo:hi]...), l
}

// roomFor returns data (v's data with values appended since) with room
// for n more bytes, grown through growData: from the allocator and at
// least doubling, where append grows large slices by a quarter (a take
// gathering 10,000 long strings one row at a time allocated 7x its
// output). The bytes up to len(data) and v's other fields are unchanged.
func (v *Values) roomFor(data []byte, n int) []byte {
	if cap(data)-len(data) >= n {
		return data
	}
	v.Data = data
	v.growData(n)
	return v.Data
}

// wordCopy32 copies 32 bytes as four words (see shortCopy).
func wordCopy32(dst, src []byte) {
	_, _ = dst[31], src[31]
	binary.LittleEndian.PutUint64(dst, binary.LittleEndian.Uint64(src))
	binary.LittleEndian.PutUint64(dst[8:], binary.LittleEndian.Uint64(src[8:]))
	binary.LittleEndian.PutUint64(dst[16:], binary.LittleEndian.Uint64(src[16:]))
	binary.LittleEndian.PutUint64(dst[24:], binary.LittleEndian.Uint64(src[24:]))
}

// shortCopy copies 16 bytes as two words: for short strings, cheaper than
// a memmove call. The bytes past the value are overwritten by the next
// one or lie beyond the slice's length.
func shortCopy(dst, src []byte) {
	binary.LittleEndian.PutUint64(dst, binary.LittleEndian.Uint64(src))
	binary.LittleEndian.PutUint64(dst[8:], binary.LittleEndian.Uint64(src[8:]))
}

// growOffsets returns offs with room for n more, growing geometrically
// without zeroing (appends write every offset they expose).
func growOffsets(offs []int64, n int) []int64 {
	need := len(offs) + n
	if cap(offs) >= need {
		return offs
	}
	grown := uninit.Int64s(max(need, 2*cap(offs)))
	return grown[:copy(grown, offs)]
}

// maxGatherReserve bounds the data reserveGather reserves at once.
const maxGatherReserve = 64 << 20

// reserveGather makes room for n values gathered from the variable-width
// dictionary dict, together size bytes (at most maxGatherReserve are
// reserved), so that the chunks of a batch append without regrowing.
func (v *Values) reserveGather(dict *codecs.Block, n, size uint64) {
	if v.Kind != codecs.KindVariable || dict.Kind != codecs.KindVariable || n == 0 || n > 1<<28 {
		return
	}
	v.growOffsetsMem(int(n))
	v.growData(int(min(size, maxGatherReserve)))
}

// gatherSize returns the bytes AppendGather would append for indices
// [from, to) of idx into the variable-width dict, skipping indices it
// would refuse (the gather reports them).
func gatherSize(dict, idx *codecs.Block, from, to uint64) uint64 {
	w := idx.BitsPerValue / 8
	ob := uint64(dict.OffsetBits / 8)
	if idx.Kind != codecs.KindFixed || idx.BitsPerValue%8 != 0 || w == 0 || w > 8 || to > idx.NumValues ||
		uint64(len(idx.Data)) < to*w || ob != 4 && ob != 8 || uint64(len(dict.Offsets)) < (dict.NumValues+1)*ob {
		return 0
	}
	var total uint64
	for i := from; i < to; i++ {
		k := lebits.Uint(idx.Data[i*w:], int(w))
		if k >= dict.NumValues {
			continue
		}
		var lo, hi uint64
		if o := dict.Offsets[k*ob : (k+2)*ob]; ob == 4 {
			lo, hi = uint64(binary.LittleEndian.Uint32(o)), uint64(binary.LittleEndian.Uint32(o[4:]))
		} else {
			lo, hi = binary.LittleEndian.Uint64(o), binary.LittleEndian.Uint64(o[8:])
		}
		if lo <= hi {
			total += hi - lo
		}
	}
	return total
}

// AppendEmpty adds n placeholder values (zero bytes, empty strings) for
// slots whose value is null and was not stored.
func (v *Values) AppendEmpty(n int) {
	if n <= 0 {
		return
	}
	switch v.Kind {
	case codecs.KindFixed:
		per := v.itemsPerValue()
		items := uint64(v.N) * per
		cum := uint64(1)
		for i := range v.FSL {
			cum *= v.FSL[i].Dim
			if v.FSL[i].Validity != nil {
				v.FSL[i].Validity = appendBits(v.FSL[i].Validity, v.N*int(cum), nil, 0, n*int(cum))
			}
		}
		if v.Bits == 1 {
			v.Data = appendBits(v.Data, int(items), make([]byte, (uint64(n)*per+7)/8), 0, n*int(per))
		} else {
			v.Data = append(v.Data, make([]byte, uint64(n)*per*(v.Bits/8))...)
		}
	case codecs.KindVariable:
		last := v.Offsets[len(v.Offsets)-1]
		for i := 0; i < n; i++ {
			v.Offsets = append(v.Offsets, last)
		}
	case codecs.KindStruct:
		for i := range v.Children {
			v.Children[i].AppendEmpty(n)
		}
	}
	v.N += n
}

// InitShape gives an empty accumulator the shape of b without adding values.
func (v *Values) InitShape(b *codecs.Block) {
	if v.Kind == 0 {
		v.initFrom(b)
	}
}

// Block returns the accumulated values as a block (sharing memory).
func (v *Values) Block() codecs.Block {
	b := codecs.Block{Kind: v.Kind, NumValues: uint64(v.N), BitsPerValue: v.Bits, Data: v.Data}
	for _, l := range v.FSL {
		b.FSL = append(b.FSL, codecs.FSLLayer{Dimension: l.Dim, Validity: l.Validity})
	}
	if v.Kind == codecs.KindVariable {
		b.OffsetBits = 64
		b.Offsets = make([]byte, 8*len(v.Offsets))
		for i, o := range v.Offsets {
			binary.LittleEndian.PutUint64(b.Offsets[8*i:], uint64(o))
		}
	}
	for i := range v.Children {
		b.Children = append(b.Children, v.Children[i].Block())
	}
	return b
}

// emptyLike returns an empty accumulator with v's shape.
func (v *Values) emptyLike() *Values {
	out := &Values{Kind: v.Kind, Bits: v.Bits}
	for _, l := range v.FSL {
		out.FSL = append(out.FSL, FSLValues{Dim: l.Dim})
	}
	if v.Kind == codecs.KindVariable {
		out.Offsets = []int64{0}
	}
	for i := range v.Children {
		out.Children = append(out.Children, *v.Children[i].emptyLike())
	}
	return out
}

// Reserve makes room for n more values of the shape already accumulated
// (fixed-width values, and strings gathered from a dictionary, sized from
// it; others are left to grow as they append).
func (v *Values) Reserve(n uint64) {
	if t := v.gathered; t != nil && v.Kind == codecs.KindVariable && n > 0 && n <= 1<<28 {
		v.growOffsetsMem(int(n))
		v.growData(int(min(t.bytesFor(n), maxGatherReserve)))
		return
	}
	v.reserve(n)
}

// reserve grows the accumulator's capacity for n more fixed-width values so
// that a batch's chunks append without repeated reallocation.
func (v *Values) reserve(n uint64) {
	if v.Kind != codecs.KindFixed || v.Bits%8 != 0 || n == 0 || n > 1<<28 {
		return
	}
	v.growData(int(n * v.itemsPerValue() * (v.Bits / 8)))
}

// growData makes room for extra more bytes of data. With an allocator,
// the data moves to (or stays in) memory from it: sized exactly the first
// time (a batch reserves what it needs), at least doubling after, so that
// pieces reserving one by one (a take's rows) stay linear. Appending past
// it moves the data to the Go heap (and the builder then gives the
// allocation back).
func (v *Values) growData(extra int) {
	need := len(v.Data) + extra
	if cap(v.Data) >= need {
		return
	}
	if v.mem != nil && !v.handed && (len(v.Data) == 0 || v.ownsData()) {
		size := need
		if len(v.Data) > 0 {
			size = max(need, 2*cap(v.Data)) // regrowing: geometrically, as append does
		}
		var nb []byte
		if u, ok := v.mem.(uninitAllocator); ok {
			nb = u.AllocateUninit(size)
		} else {
			nb = v.mem.Allocate(size)
		}
		copy(nb, v.Data)
		data := nb[:len(v.Data):len(nb)]
		if v.owned != nil {
			v.mem.Free(v.owned)
		}
		v.owned, v.Data = nb, data
		return
	}
	v.Data = uninit.Grow(v.Data, extra) // appends write every byte they expose
}
