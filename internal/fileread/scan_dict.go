package fileread

import (
	"context"
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/layouts"
)

// Dictionary scans (ScanOptions.Dictionary): a string or binary column
// whose every page is a mini-block page with a dictionary comes back as
// dictionary<int32, T> arrays. A batch's indices are unpacked from the
// page's chunks straight into the output buffer; its dictionary is the
// page's decoded dictionary (decoded once per page, when the page is
// initialized, and kept with it), handed to Arrow without a copy. A batch
// spanning pages gets their dictionaries concatenated and the later pages'
// indices shifted.

// dictIndexType is the index type of the dictionary arrays a dictionary
// scan returns.
var dictIndexType = arrow.PrimitiveTypes.Int32

// errDictFilter refuses ScanOptions.Dictionary with a Filter.
func errDictFilter() error {
	return fmt.Errorf("%w: ScanOptions.Dictionary is not supported with a Filter", ErrInvalidArgument)
}

// scanProjection is projection for a scan: with opts.Dictionary, the
// dictionary columns get their dictionary types (dictSchema).
func (f *File) scanProjection(opts ScanOptions) ([]int, *arrow.Schema, error) {
	cols, schema, err := f.projection(opts.Columns)
	if err != nil || !opts.Dictionary {
		return cols, schema, err
	}
	return cols, f.dictSchema(cols, schema), nil
}

// dictSchema returns schema with the type of every projected column a
// dictionary scan returns unexpanded replaced by its dictionary type.
func (f *File) dictSchema(cols []int, schema *arrow.Schema) *arrow.Schema {
	fields := schema.Fields()
	changed := false
	for i, c := range cols {
		if f.dictColumn(c) {
			fields[i].Type = &arrow.DictionaryType{IndexType: dictIndexType, ValueType: fields[i].Type}
			changed = true
		}
	}
	if !changed {
		return schema
	}
	md := schema.Metadata()
	return arrow.NewSchema(fields, &md)
}

// dictColumn reports whether top-level field c is a string or binary
// column stored in mini-block dictionary pages only, without lists.
func (f *File) dictColumn(c int) bool {
	if f.v20 != nil || f.legacy != nil || c >= len(f.fields) {
		return false
	}
	top := f.fields[c]
	if !top.IsLeaf() || top.BlobV1 || top.BlobV2 {
		return false
	}
	switch top.Type.ID() {
	case arrow.STRING, arrow.BINARY, arrow.LARGE_STRING, arrow.LARGE_BINARY:
	default:
		return false
	}
	pages := f.meta.Columns[top.Column].GetPages()
	for _, pg := range pages {
		mb := pageLayoutOf(pg).GetMiniBlockLayout()
		if mb == nil || mb.GetDictionary() == nil {
			return false
		}
		set, err := layouts.NewLayerSet(mb.GetLayers())
		if err != nil || set.HasLists() {
			return false
		}
	}
	return len(pages) > 0
}

// dictRead records, during one dictionary read of a leaf, which page each
// run of decoded indices came from.
type dictRead struct {
	segs []dictSeg
}

// dictSeg is values [lo, hi) of the read's indices, from page st.
type dictSeg struct {
	st     *pageState
	lo, hi int
}

func (d *dictRead) note(st *pageState, lo, hi int) {
	if n := len(d.segs); n > 0 && d.segs[n-1].st == st && d.segs[n-1].hi == lo {
		d.segs[n-1].hi = hi
		return
	}
	d.segs = append(d.segs, dictSeg{st, lo, hi})
}

// decodeIndices decodes a piece of a dictionary page into indices.
func decodeIndices(st *pageState, p *piece, data []byte, lv *layouts.Levels, vals *layouts.Values, memos *chunkMemos, d *dictRead) error {
	if st.mini == nil || !st.mini.DictionaryValues() || st.blob != nil {
		return fmt.Errorf("%w: a dictionary scan met a page without a string dictionary", layouts.ErrCorrupt)
	}
	chunks := make([][]byte, 0, p.span.Last-p.span.First+1)
	base := st.mini.Chunks[p.span.First].Offset
	for c := p.span.First; c <= p.span.Last; c++ {
		ch := st.mini.Chunks[c]
		chunks = append(chunks, data[ch.Offset-base:ch.Offset-base+ch.Size])
	}
	lo := vals.N
	if err := st.mini.DecodeIndices(p.span, chunks, p.from, p.to, lv, vals, memos.of(st)); err != nil {
		return err
	}
	d.note(st, lo, vals.N)
	return nil
}

// readDictField reads rows of dictionary column c as a dictionary array
// of type dt.
func (f *File) readDictField(ctx context.Context, c int, dt *arrow.DictionaryType, ranges []RowRange, nrows uint64, sc *scanCache) (arrow.Array, error) {
	top := f.fields[c]
	if nrows == 0 {
		return array.MakeArrayOfNull(f.cfg.Mem, dt, 0), nil
	}
	d := &dictRead{}
	ld, err := f.readLeafWith(ctx, top, ranges, sc, d)
	if err != nil {
		return nil, err
	}
	defer ld.Values.Free()
	a, err := f.buildDictArray(top, dt, ld, d)
	if err != nil {
		return nil, fmt.Errorf("lance: %s: field %q: %w", f.url, top.Name, err)
	}
	return f.checkFieldRows(top, a, nrows)
}

// buildDictArray checks and shifts the indices of ld and builds the
// dictionary array from them and the pages' dictionaries.
func (f *File) buildDictArray(top *layouts.Field, dt *arrow.DictionaryType, ld layouts.LeafData, d *dictRead) (arrow.Array, error) {
	v := ld.Values
	if err := widenIndices(v); err != nil {
		return nil, err
	}
	if ld.Node == nil || ld.Node.Child != nil {
		return nil, fmt.Errorf("%w: dictionary column with nested levels", layouts.ErrCorrupt)
	}
	dicts, err := f.segmentDictionaries(dt.ValueType, d.segs)
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, a := range dicts {
			a.Release()
		}
	}()
	if err := fixIndices(v, ld.Node.Validity, d.segs, dicts); err != nil {
		return nil, err
	}
	idxField := *top
	idxField.Type = dictIndexType
	indices, err := buildArray(f.cfg.Mem, &idxField, []layouts.LeafData{ld})
	if err != nil {
		return nil, err
	}
	defer indices.Release()
	dict := dicts[0]
	if len(dicts) > 1 {
		if dict, err = array.Concatenate(dicts, f.cfg.Mem); err != nil {
			return nil, err
		}
		defer dict.Release()
	}
	return array.NewDictionaryArray(dt, indices, dict), nil
}

// segmentDictionaries returns one dictionary array per distinct page of
// segs, in the order of first appearance (segs of one page are adjacent
// or repeat an earlier page; each gets the page's position here).
func (f *File) segmentDictionaries(vt arrow.DataType, segs []dictSeg) ([]arrow.Array, error) {
	if len(segs) == 0 {
		return nil, fmt.Errorf("%w: dictionary read of no pages", layouts.ErrCorrupt)
	}
	var out []arrow.Array
	seen := map[*pageState]bool{}
	for _, s := range segs {
		if seen[s.st] {
			continue
		}
		seen[s.st] = true
		a, err := blockDictionary(vt, s.st.mini.Dictionary)
		if err != nil {
			for _, x := range out {
				x.Release()
			}
			return nil, fmt.Errorf("page %d dictionary: %w", s.st.index, err)
		}
		out = append(out, a)
	}
	return out, nil
}

// blockDictionary wraps a decoded variable-width dictionary block as an
// Arrow array of type vt, without copying when its offsets have vt's
// width. Its offsets are checked (non-decreasing, within the data) since
// readers of the array trust them.
func blockDictionary(vt arrow.DataType, b *codecs.Block) (arrow.Array, error) {
	ob := uint64(b.OffsetBits / 8)
	n := b.NumValues
	if b.Kind != codecs.KindVariable || ob != 4 && ob != 8 || n >= 1<<31 || uint64(len(b.Offsets)) < (n+1)*ob {
		return nil, fmt.Errorf("%w: dictionary values are not variable-width with %d offsets", layouts.ErrCorrupt, n+1)
	}
	want := uint64(4)
	if vt.ID() == arrow.LARGE_STRING || vt.ID() == arrow.LARGE_BINARY {
		want = 8
	}
	prev := uint64(0)
	for i := uint64(0); i <= n; i++ {
		o := readOffsetBytes(b.Offsets, ob, i)
		if (i > 0 && o < prev) || o > uint64(len(b.Data)) {
			return nil, fmt.Errorf("%w: dictionary offsets decrease or exceed its %d bytes", layouts.ErrCorrupt, len(b.Data))
		}
		prev = o
	}
	if want == 4 && prev >= 1<<31 {
		return nil, fmt.Errorf("%w: dictionary of %d bytes in 32-bit offsets", layouts.ErrCorrupt, prev)
	}
	offs := b.Offsets[:(n+1)*ob]
	if ob != want { // rewrite the offsets at vt's width
		conv := make([]byte, (n+1)*want)
		for i := uint64(0); i <= n; i++ {
			o := readOffsetBytes(b.Offsets, ob, i)
			if want == 4 {
				binary.LittleEndian.PutUint32(conv[i*4:], uint32(o))
			} else {
				binary.LittleEndian.PutUint64(conv[i*8:], o)
			}
		}
		offs = conv
	}
	data := array.NewData(vt, int(n), []*memory.Buffer{nil, memory.NewBufferBytes(offs), memory.NewBufferBytes(b.Data)}, nil, 0, 0)
	defer data.Release()
	return array.MakeFromData(data), nil
}

func readOffsetBytes(b []byte, w, i uint64) uint64 {
	if w == 4 {
		return uint64(binary.LittleEndian.Uint32(b[i*4:]))
	}
	return binary.LittleEndian.Uint64(b[i*8:])
}

// widenIndices makes v's indices 32-bit: 32-bit indices (what Lance
// writes) stay where they were unpacked; 8-, 16- and 64-bit ones are
// rewritten.
func widenIndices(v *layouts.Values) error {
	if v.Kind != codecs.KindFixed || len(v.FSL) > 0 {
		return fmt.Errorf("%w: dictionary indices are not fixed-width integers", layouts.ErrCorrupt)
	}
	w := v.Bits / 8
	if v.Bits == 32 || v.N == 0 {
		v.Bits = 32
		return nil
	}
	if v.Bits%8 != 0 || w == 0 || w > 8 || uint64(len(v.Data)) < uint64(v.N)*w {
		return fmt.Errorf("%w: %d-bit dictionary indices", layouts.ErrCorrupt, v.Bits)
	}
	out := make([]byte, v.N*4)
	for i := range uint64(v.N) {
		var k uint64
		switch w {
		case 1:
			k = uint64(v.Data[i])
		case 2:
			k = uint64(binary.LittleEndian.Uint16(v.Data[i*2:]))
		case 4:
			k = uint64(binary.LittleEndian.Uint32(v.Data[i*4:]))
		default:
			k = binary.LittleEndian.Uint64(v.Data[i*8:])
		}
		if k >= 1<<31 {
			k = 1<<32 - 1 // out of range: fixIndices reports or clears it
		}
		binary.LittleEndian.PutUint32(out[i*4:], uint32(k))
	}
	v.Free() // the narrow indices' allocation, if any
	v.Data, v.Bits = out, 32
	return nil
}

// fixIndices checks each segment's indices against its page's dictionary
// and shifts those of later pages by the entries of the dictionaries
// before theirs. An out-of-range index in a null slot is set to 0 (Arrow
// readers may still look it up); in a valid slot it is an error.
func fixIndices(v *layouts.Values, validity []byte, segs []dictSeg, dicts []arrow.Array) error {
	if uint64(len(v.Data)) < uint64(v.N)*4 {
		return fmt.Errorf("%w: %d dictionary indices in %d bytes", layouts.ErrCorrupt, v.N, len(v.Data))
	}
	pos := map[*pageState]int{}
	bases := make([]uint32, len(dicts))
	total := uint64(0)
	for i, d := range dicts {
		bases[i] = uint32(total)
		if total += uint64(d.Len()); total >= 1<<31 {
			return fmt.Errorf("%w: a batch's dictionaries hold %d entries, beyond 32-bit indices", layouts.ErrCorrupt, total)
		}
	}
	for _, s := range segs {
		if _, ok := pos[s.st]; !ok {
			pos[s.st] = len(pos)
		}
		p := pos[s.st]
		n, base := uint32(dicts[p].Len()), bases[p]
		if s.lo < 0 || s.hi > v.N || s.lo > s.hi {
			return fmt.Errorf("%w: dictionary index run [%d,%d) of %d", layouts.ErrCorrupt, s.lo, s.hi, v.N)
		}
		idx := v.Data[s.lo*4 : s.hi*4]
		bad := false
		for i := 0; i+4 <= len(idx); i += 4 {
			k := binary.LittleEndian.Uint32(idx[i:])
			bad = bad || k >= n
			binary.LittleEndian.PutUint32(idx[i:], k+base)
		}
		if bad {
			if err := clearBadIndices(idx, validity, s.lo, n, base); err != nil {
				return fmt.Errorf("page %d: %w", s.st.index, err)
			}
		}
	}
	return nil
}

// clearBadIndices sets to 0 the shifted indices of idx (slots from lo)
// that were out of range in null slots, and fails on a valid slot's.
func clearBadIndices(idx, validity []byte, lo int, n, base uint32) error {
	for i := 0; i+4 <= len(idx); i += 4 {
		k := binary.LittleEndian.Uint32(idx[i:]) - base
		if k < n {
			continue
		}
		slot := lo + i/4
		if validity == nil || slot/8 >= len(validity) || validity[slot/8]>>(slot%8)&1 == 1 {
			return fmt.Errorf("%w: dictionary index %d of %d entries", layouts.ErrCorrupt, k, n)
		}
		binary.LittleEndian.PutUint32(idx[i:], 0)
	}
	return nil
}
