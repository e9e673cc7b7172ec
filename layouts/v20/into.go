package v20

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodingspb"
	"github.com/lancego/lancego/layouts"
)

// This file is the scan's decode: a scan's pages are views of a local
// file's memory map (or pooled read buffers), given back once the scan
// has passed them, so nothing decoded may refer to them. DecodeInto writes
// the values of the encodings Lance 2.0 writes most (flat, nullable
// wrappers, binary, bit-packed) straight into the leaf's accumulator,
// which a scan sizes once per batch (Expect) in memory from the Arrow
// allocator: one copy from the page to the array, none in between.

// NewViewedPage is NewPage for a scan's page: bit-packed values are not
// unpacked whole here but range by range by DecodeInto (into the
// accumulator) and Decode (into a fresh buffer), so the page holds no
// copy of its values.
func NewViewedPage(enc *pb.ArrayEncoding, dt arrow.DataType, rows uint64, bufs Buffers) (*Page, error) {
	return newPage(enc, dt, rows, bufs, true)
}

// Expect prepares l for a scan's batch of rows values: the memory it
// reserves for fixed-width values (and variable-width bytes) comes from
// mem and is handed to the Arrow array built from l (Free gives back what
// was not), sized on the first values for all rows at once, and every
// append copies, so the pages decoded from may be given back after the
// batch.
func (l *Leaf) Expect(mem memory.Allocator, rows uint64) {
	l.values.SetAllocator(mem)
	l.expect, l.copy = rows, true
}

// Free gives back memory reserved from the allocator of Expect that no
// Arrow array took over; l must not be used afterwards.
func (l *Leaf) Free() { l.values.Free() }

// Expect reserves the offsets of rows more lists.
func (l *List) Expect(rows uint64) {
	if rows == 0 || rows > 1<<28 {
		return
	}
	if l.offsets == nil {
		l.offsets = make([]int64, 1, rows+1)
		return
	}
	l.offsets = slices.Grow(l.offsets, int(rows))
}

// DecodeInto appends rows [from, to) of a value page to l, like Decode
// and Append, but without an intermediate copy for flat, nullable, binary
// and bit-packed values, and never leaving l referring to the page's
// buffers (see NewViewedPage).
func (p *Page) DecodeInto(from, to uint64, l *Leaf) error {
	if from > to || to > p.rows {
		return fmt.Errorf("%w: rows [%d,%d) of a page of %d", ErrCorrupt, from, to, p.rows)
	}
	if p.enc.GetList() != nil || p.enc.GetStruct() != nil {
		return fmt.Errorf("%w: a list or struct page holds no values", ErrCorrupt)
	}
	n0 := l.values.N
	valid, err := p.into(p.enc, p.dt, p.rows, from, to, 0, l)
	if err != nil {
		return err
	}
	n := to - from
	if uint64(l.values.N-n0) != n {
		return fmt.Errorf("%w: decoded %d values, want %d", ErrCorrupt, l.values.N-n0, n)
	}
	if valid != nil && uint64(len(valid))*8 < n {
		return fmt.Errorf("%w: validity of %d bytes for %d values", ErrCorrupt, len(valid), n)
	}
	l.valid.appendBits(valid, n)
	return nil
}

// into appends values [from, to) of a page of rows values encoded as enc
// to l's values and returns their validity (nil when all are valid).
func (p *Page) into(enc *pb.ArrayEncoding, dt arrow.DataType, rows, from, to uint64, depth int, l *Leaf) ([]byte, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("%w: encoding nested deeper than %d", ErrCorrupt, maxDepth)
	}
	switch e := enc.GetArrayEncoding().(type) {
	case *pb.ArrayEncoding_Nullable:
		switch n := e.Nullable.GetNullability().(type) {
		case *pb.Nullable_NoNulls:
			return p.into(n.NoNulls.GetValues(), dt, rows, from, to, depth+1, l)
		case *pb.Nullable_SomeNulls:
			return p.someNullsInto(n.SomeNulls, dt, rows, from, to, depth, l)
		}
	case *pb.ArrayEncoding_Binary:
		if valid, ok, err := p.binaryInto(e.Binary, rows, from, to, depth, l); ok {
			return valid, err
		}
	case *pb.ArrayEncoding_Bitpacked, *pb.ArrayEncoding_BitpackedForNonNeg:
		if ok, err := p.unpackInto(enc, from, to, l); ok {
			return nil, err
		}
	}
	b, valid, err := p.decode(enc, dt, rows, from, to, depth)
	if err != nil {
		return nil, err
	}
	if b.NumValues != to-from {
		return nil, fmt.Errorf("%w: decoded %d values, want %d", ErrCorrupt, b.NumValues, to-from)
	}
	return valid, l.appendBlock(&b)
}

// someNullsInto is decodeNullable's some-nulls case for into.
func (p *Page) someNullsInto(s *pb.Nullable_SomeNull, dt arrow.DataType, rows, from, to uint64, depth int, l *Leaf) ([]byte, error) {
	vb, _, err := p.decode(s.GetValidity(), arrow.FixedWidthTypes.Boolean, rows, from, to, depth+1)
	if err != nil {
		return nil, fmt.Errorf("validity: %w", err)
	}
	if vb.Kind != codecs.KindFixed || vb.BitsPerValue != 1 || vb.NumValues != to-from {
		return nil, fmt.Errorf("%w: validity is not a bitmap", ErrCorrupt)
	}
	inner, err := p.into(s.GetValues(), dt, rows, from, to, depth+1, l)
	if err != nil {
		return nil, err
	}
	if inner != nil { // never written by Lance, but both must hold
		return andBits(vb.Data, inner, to-from), nil
	}
	return vb.Data, nil
}

// appendBlock appends a decoded block to l's values (copying when l is a
// scan's), sizing them for the batch on the first block.
func (l *Leaf) appendBlock(b *codecs.Block) error {
	v := &l.values
	if v.Kind == 0 && l.expect > 0 {
		v.InitShape(b)
		v.Reserve(l.expect)
		l.startOffsets(l.expect)
		l.expect = 0
	}
	l.reserveOffsets(b)
	if l.copy {
		return v.AppendCopy(b, 0, b.NumValues)
	}
	return v.Append(b, 0, b.NumValues)
}

// SpareOffsets gives l a buffer (its contents unused) to hold the offsets
// of variable-width values in, so that a scan's batches reuse the offsets
// of earlier ones (the arrays hold copies of them) rather than allocating.
func (l *Leaf) SpareOffsets(buf []int64) { l.spare = buf }

// startOffsets gives values just shaped variable-width their first offset,
// in the spare buffer if any, with room for n more.
func (l *Leaf) startOffsets(n uint64) {
	v := &l.values
	if v.Kind != codecs.KindVariable || len(v.Offsets) != 1 || n > 1<<28 {
		return
	}
	if l.spare != nil {
		v.Offsets = append(l.spare[:0], 0)
		l.spare = nil
	}
	v.Offsets = slices.Grow(v.Offsets, int(n))
}

// binaryInto is decodeBinary writing offsets and bytes straight into l's
// values. It reports false (and does nothing) when l holds values of
// another shape, for the generic path to report.
func (p *Page) binaryInto(b *pb.Binary, rows, from, to uint64, depth int, l *Leaf) ([]byte, bool, error) {
	v := &l.values
	if v.Kind == 0 {
		v.InitShape(&codecs.Block{Kind: codecs.KindVariable, OffsetBits: 64})
		l.startOffsets(l.expect)
		l.expect = 0
	}
	if v.Kind != codecs.KindVariable || v.Bits != 0 || len(v.FSL) > 0 || len(v.Children) > 0 {
		return nil, false, nil
	}
	lo := from
	if from > 0 {
		lo = from - 1 // the end of the value before from is from's start
	}
	idx, _, err := p.decode(b.GetIndices(), nil, rows, lo, to, depth+1)
	if err != nil {
		return nil, true, fmt.Errorf("binary indices: %w", err)
	}
	if err := checkUints(&idx, to-lo, "binary indices"); err != nil {
		return nil, true, err
	}
	f := b.GetBytes().GetFlat()
	if f == nil || f.GetBitsPerValue() != 8 {
		return nil, true, fmt.Errorf("%w: binary bytes are not a flat byte buffer", ErrUnsupported)
	}
	data, err := p.flatBytes(f)
	if err != nil {
		return nil, true, err
	}
	ends := binaryEnds{idx: &idx, skip: from - lo, adj: b.GetNullAdjustment()}
	var start uint64
	if from > 0 {
		start, _ = ends.norm(uintAt(&idx, 0))
	}
	dbase := p.pageBase(f.GetBuffer()) // the bytes may be a window
	if start < dbase {
		return nil, true, fmt.Errorf("%w: binary values start at %d, before the bytes read from %d", ErrCorrupt, start, dbase)
	}
	n := to - from
	v.Offsets = slices.Grow(v.Offsets, int(n))
	valid, end, err := ends.appendOffsets(v, n, start, dbase+uint64(len(data)))
	if err != nil {
		return nil, true, fmt.Errorf("%w (values from row %d)", err, from)
	}
	v.ReserveBytes(int(end - start))
	v.Data = append(v.Data, data[start-dbase:end-dbase]...)
	v.N += int(n)
	return valid, true, nil
}

// appendOffsets64 is appendOffsets for 64-bit indices.
func (e *binaryEnds) appendOffsets64(v *layouts.Values, n, start, limit uint64) ([]byte, uint64, error) {
	base := v.Offsets[len(v.Offsets)-1] - int64(start)
	prev := start
	var valid []byte
	words := e.idx.Data[8*e.skip : 8*(e.skip+n)]
	adj := e.adj
	for i := uint64(0); i < n; i++ {
		end := binary.LittleEndian.Uint64(words[8*i:])
		if adj != 0 && end >= adj {
			end -= adj
			if valid == nil {
				valid = setBits(n)
			}
			valid[i/8] &^= 1 << (i % 8)
		}
		if end < prev || end > limit {
			return nil, 0, fmt.Errorf("%w: binary value %d ends at %d (previous %d, bytes end at %d)", ErrCorrupt, i, end, prev, limit)
		}
		v.Offsets = append(v.Offsets, base+int64(end))
		prev = end
	}
	return valid, prev, nil
}

// binaryEnds reads the end offsets of a binary page's values.
type binaryEnds struct {
	idx  *codecs.Block
	skip uint64 // index of the first value's end in idx
	adj  uint64 // null adjustment (0: none)
}

// norm returns the real end of an index entry and whether it is valid.
func (e *binaryEnds) norm(x uint64) (uint64, bool) {
	if e.adj != 0 && x >= e.adj {
		return x - e.adj, false
	}
	return x, true
}

// appendOffsets appends the offsets of n values starting at byte start to
// v (each at most limit) and returns their validity and last end.
func (e *binaryEnds) appendOffsets(v *layouts.Values, n, start, limit uint64) ([]byte, uint64, error) {
	base := v.Offsets[len(v.Offsets)-1] - int64(start)
	prev := start
	var valid []byte
	if e.idx.BitsPerValue == 64 { // what Lance writes: no per-value width switch
		return e.appendOffsets64(v, n, start, limit)
	}
	for i := uint64(0); i < n; i++ {
		end, ok := e.norm(uintAt(e.idx, e.skip+i))
		if end < prev || end > limit {
			return nil, 0, fmt.Errorf("%w: binary value %d ends at %d (previous %d, bytes end at %d)", ErrCorrupt, i, end, prev, limit)
		}
		if !ok {
			if valid == nil {
				valid = setBits(n)
			}
			valid[i/8] &^= 1 << (i % 8)
		}
		v.Offsets = append(v.Offsets, base+int64(end))
		prev = end
	}
	return valid, prev, nil
}
