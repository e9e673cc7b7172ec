package layouts

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lancego/lancego/codecs"
)

// buildFSL builds a (possibly nested) fixed-size list of fixed-width items.
func (bld *builder) buildFSL(t *arrow.FixedSizeListType, v *Values, vb *memory.Buffer, nulls, n int) (arrow.ArrayData, error) {
	if v.Kind != codecs.KindFixed || len(v.FSL) == 0 {
		return nil, fmt.Errorf("%w: %s column decoded without list dimensions", ErrCorrupt, t)
	}
	return bld.buildFSLLevel(t, v, 0, vb, nulls, n)
}

func (bld *builder) buildFSLLevel(dt arrow.DataType, v *Values, level int, vb *memory.Buffer, nulls, n int) (arrow.ArrayData, error) {
	t, ok := dt.(*arrow.FixedSizeListType)
	if !ok {
		if level != len(v.FSL) {
			return nil, fmt.Errorf("%w: fixed-size list depth %d, type says %d", ErrCorrupt, len(v.FSL), level)
		}
		fw, ok := dt.(arrow.FixedWidthDataType)
		if !ok {
			return nil, fmt.Errorf("%w: fixed-size list of %s", ErrUnsupported, dt)
		}
		return bld.buildFixed(dt, fw.BitWidth(), v, vb, nulls, n, 0)
	}
	if level >= len(v.FSL) || v.FSL[level].Dim != uint64(t.Len()) {
		return nil, fmt.Errorf("%w: fixed-size list dimensions differ from %s", ErrCorrupt, t)
	}
	items := n * int(t.Len())
	iv := v.FSL[level].Validity
	inulls := 0
	if iv != nil {
		if len(iv)*8 < items {
			return nil, fmt.Errorf("%w: fixed-size list validity too short", ErrCorrupt)
		}
		inulls = countZeros(iv, 0, items)
	}
	child, err := bld.buildFSLLevel(t.Elem(), v, level+1, bld.validityBuffer(iv), inulls, items)
	if err != nil {
		return nil, err
	}
	defer child.Release()
	return array.NewData(t, n, []*memory.Buffer{vb}, []arrow.ArrayData{child}, nulls, 0), nil
}

// buildNestedFSL builds a fixed-size list whose item is nested (a struct):
// its node's slots each own Dim consecutive child slots.
func (bld *builder) buildNestedFSL(f *Field, nodes []*PathNode, leaves []LeafData) (arrow.ArrayData, error) {
	n := nodes[0]
	t := f.Type.(*arrow.FixedSizeListType)
	if len(f.Children) != 1 || n.Kind != LayerFSL {
		return nil, fmt.Errorf("%w: fixed-size list %q shape", ErrCorrupt, f.Name)
	}
	child, err := bld.buildData(f.Children[0], childNodes(nodes), leaves)
	if err != nil {
		return nil, err
	}
	defer child.Release()
	if uint64(child.Len()) != uint64(n.Len)*uint64(t.Len()) {
		return nil, fmt.Errorf("%w: fixed-size list %q of %d slots has %d items, want %d each", ErrCorrupt, f.Name, n.Len, child.Len(), t.Len())
	}
	return array.NewData(t, n.Len, []*memory.Buffer{bld.validityBuffer(n.Validity)}, []arrow.ArrayData{child}, n.NullCount, 0), nil
}

// buildPackedStruct builds a struct whose children were stored packed.
func (bld *builder) buildPackedStruct(t *arrow.StructType, v *Values, vb *memory.Buffer, nulls, n int) (arrow.ArrayData, error) {
	if v.Kind != codecs.KindStruct || len(v.Children) != t.NumFields() {
		return nil, fmt.Errorf("%w: packed struct %s decoded with %d children", ErrCorrupt, t, len(v.Children))
	}
	children := make([]arrow.ArrayData, 0, len(v.Children))
	defer func() {
		for _, c := range children {
			c.Release()
		}
	}()
	for i, f := range t.Fields() {
		c, err := bld.buildLeaf(f.Type, &v.Children[i], nil, 0, n)
		if err != nil {
			return nil, fmt.Errorf("packed struct field %q: %w", f.Name, err)
		}
		children = append(children, c)
	}
	return array.NewData(t, n, []*memory.Buffer{vb}, children, nulls, 0), nil
}

// buildDictionary builds an Arrow dictionary array from materialized values.
func (bld *builder) buildDictionary(t *arrow.DictionaryType, v *Values, validity []byte, nulls, n int) (arrow.ArrayData, error) {
	idxWidth := t.IndexType.(arrow.FixedWidthDataType).BitWidth() / 8
	uniq, idx, err := dedupe(v, validity, n)
	if err != nil {
		return nil, err
	}
	if uniq.N > 0 && uint64(uniq.N-1) > maxIndex(t.IndexType) {
		return nil, fmt.Errorf("%w: %d distinct values overflow %s indices", ErrUnsupported, uniq.N, t.IndexType)
	}
	dict, err := bld.buildLeaf(t.ValueType, uniq, nil, 0, uniq.N)
	if err != nil {
		return nil, err
	}
	defer dict.Release()
	ibuf := bld.alloc(n * idxWidth)
	ib := ibuf.Bytes()
	for i, k := range idx {
		putIndex(ib[i*idxWidth:], idxWidth, k)
	}
	d := array.NewData(t, n, []*memory.Buffer{bld.validityBuffer(validity), ibuf}, nil, nulls, 0)
	d.SetDictionary(dict)
	return d, nil
}

func maxIndex(dt arrow.DataType) uint64 {
	w := dt.(arrow.FixedWidthDataType).BitWidth()
	switch dt.ID() {
	case arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
		return 1<<uint(w) - 1
	}
	return 1<<uint(w-1) - 1
}

func putIndex(b []byte, w int, k uint64) {
	switch w {
	case 1:
		b[0] = byte(k)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(k))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(k))
	default:
		binary.LittleEndian.PutUint64(b, k)
	}
}

// dedupe returns the distinct valid values of v (first-seen order) and the
// index of each slot's value (0 for null slots).
func dedupe(v *Values, validity []byte, n int) (*Values, []uint64, error) {
	seen := map[string]uint64{}
	uniq := v.emptyLike()
	idx := make([]uint64, n)
	for i := 0; i < n; i++ {
		if validity != nil && !getBit(validity, i) {
			continue
		}
		key, err := valueKey(v, i)
		if err != nil {
			return nil, nil, err
		}
		k, ok := seen[key]
		if !ok {
			k = uint64(len(seen))
			seen[key] = k
			if err := appendValueOf(uniq, v, i); err != nil {
				return nil, nil, err
			}
		}
		idx[i] = k
	}
	return uniq, idx, nil
}

func valueKey(v *Values, i int) (string, error) {
	switch v.Kind {
	case codecs.KindVariable:
		return string(v.Data[v.Offsets[i]:v.Offsets[i+1]]), nil
	case codecs.KindFixed:
		if v.Bits%8 == 0 && len(v.FSL) == 0 {
			w := int(v.Bits / 8)
			return string(v.Data[i*w : (i+1)*w]), nil
		}
	}
	return "", fmt.Errorf("%w: dictionary of this value type", ErrUnsupported)
}

func appendValueOf(dst, src *Values, i int) error {
	b := codecs.Block{Kind: src.Kind, BitsPerValue: src.Bits, NumValues: uint64(src.N), Data: src.Data}
	if src.Kind == codecs.KindVariable {
		b.OffsetBits = 64
		b.Offsets = make([]byte, 16)
		binary.LittleEndian.PutUint64(b.Offsets, uint64(src.Offsets[i]))
		binary.LittleEndian.PutUint64(b.Offsets[8:], uint64(src.Offsets[i+1]))
		b.NumValues = 1
		return dst.Append(&b, 0, 1)
	}
	return dst.Append(&b, uint64(i), uint64(i+1))
}
