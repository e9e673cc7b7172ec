package layouts

import (
	"encoding/binary"
	"fmt"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lancego/lancego/codecs"
)

// LeafData is everything decoded for one leaf column over a run of rows.
type LeafData struct {
	Node   *PathNode
	Values *Values
}

// BuildArray assembles the Arrow array of field f from the decoded data of
// its leaves (in f.Leaves() order), all covering the same rows.
//
// Buffers the decoder builds (validity bitmaps, offsets, copies) come from
// mem; value buffers decoded in place are handed to Arrow without copying.
func BuildArray(mem memory.Allocator, f *Field, leaves []LeafData) (arrow.Array, error) {
	bld := &builder{mem: mem}
	defer bld.release()
	nodes := make([]*PathNode, len(leaves))
	for i, l := range leaves {
		nodes[i] = l.Node
	}
	d, err := bld.buildData(f, nodes, leaves)
	if err != nil {
		return nil, err
	}
	defer d.Release()
	return array.MakeFromData(d), nil
}

func (bld *builder) buildData(f *Field, nodes []*PathNode, leaves []LeafData) (arrow.ArrayData, error) {
	if len(nodes) == 0 || nodes[0] == nil {
		return nil, fmt.Errorf("%w: field %q has no stored columns", ErrUnsupported, f.Name)
	}
	n := nodes[0]
	if f.BlobV2 {
		return bld.buildBlobV2(f, n, leaves[0].Values)
	}
	if f.IsLeaf() {
		if n.Child != nil {
			return nil, fmt.Errorf("%w: leaf %q has nested levels", ErrCorrupt, f.Name)
		}
		return bld.buildLeaf(f.Type, leaves[0].Values, n.Validity, n.NullCount, n.Len)
	}
	switch f.Type.ID() {
	case arrow.STRUCT:
		return bld.buildStruct(f, nodes, leaves)
	case arrow.LIST, arrow.LARGE_LIST, arrow.MAP:
		return bld.buildList(f, nodes, leaves)
	case arrow.FIXED_SIZE_LIST:
		return bld.buildNestedFSL(f, nodes, leaves)
	}
	return nil, fmt.Errorf("%w: field %q of type %s", ErrUnsupported, f.Name, f.Type)
}

func childNodes(nodes []*PathNode) []*PathNode {
	out := make([]*PathNode, len(nodes))
	for i, n := range nodes {
		out[i] = n.Child
	}
	return out
}

func (bld *builder) buildStruct(f *Field, nodes []*PathNode, leaves []LeafData) (arrow.ArrayData, error) {
	n := nodes[0]
	kids := childNodes(nodes)
	var children []arrow.ArrayData
	defer func() {
		for _, c := range children {
			c.Release()
		}
	}()
	at := 0
	for _, c := range f.Children {
		k := len(c.Leaves())
		if at+k > len(kids) {
			return nil, fmt.Errorf("%w: struct %q has fewer columns than fields", ErrCorrupt, f.Name)
		}
		d, err := bld.buildData(c, kids[at:at+k], leaves[at:at+k])
		if err != nil {
			return nil, err
		}
		if d.Len() != n.Len {
			d.Release()
			return nil, fmt.Errorf("%w: struct %q child %q has %d rows, want %d", ErrCorrupt, f.Name, c.Name, d.Len(), n.Len)
		}
		children = append(children, d)
		at += k
	}
	return array.NewData(f.Type, n.Len, []*memory.Buffer{bld.validityBuffer(n.Validity)}, children, n.NullCount, 0), nil
}

func (bld *builder) buildList(f *Field, nodes []*PathNode, leaves []LeafData) (arrow.ArrayData, error) {
	n := nodes[0]
	if len(f.Children) != 1 || n.Kind != LayerList {
		return nil, fmt.Errorf("%w: list %q shape", ErrCorrupt, f.Name)
	}
	child, err := bld.buildData(f.Children[0], childNodes(nodes), leaves)
	if err != nil {
		return nil, err
	}
	defer child.Release()
	if last := n.Offsets[len(n.Offsets)-1]; last != int64(child.Len()) {
		return nil, fmt.Errorf("%w: list %q offsets end at %d, child has %d", ErrCorrupt, f.Name, last, child.Len())
	}
	var offs *memory.Buffer
	if f.Type.ID() == arrow.LARGE_LIST {
		offs = bld.int64Buffer(n.Offsets)
	} else {
		b, err := bld.int32Buffer(n.Offsets)
		if err != nil {
			return nil, err
		}
		offs = b
	}
	return array.NewData(f.Type, n.Len, []*memory.Buffer{bld.validityBuffer(n.Validity), offs},
		[]arrow.ArrayData{child}, n.NullCount, 0), nil
}

// builder assembles Arrow data, allocating the buffers it creates from
// mem. It holds one reference to each until release, after which the
// arrays that retained them own them.
type builder struct {
	mem  memory.Allocator
	bufs []*memory.Buffer
}

// alloc returns a zeroed buffer of n bytes from the allocator.
func (bld *builder) alloc(n int) *memory.Buffer {
	buf := memory.NewResizableBuffer(bld.mem)
	buf.Resize(n)
	clear(buf.Bytes())
	bld.bufs = append(bld.bufs, buf)
	return buf
}

// valueBuffer returns the Arrow buffer of v's data: the allocation v
// reserved it in, handed over (released to v's allocator with the array),
// or else v's memory as it is. Data already handed over is copied, so no
// two arrays share an allocation one of them frees.
func (bld *builder) valueBuffer(v *Values) *memory.Buffer {
	switch {
	case v.handed:
		return memory.NewBufferBytes(append([]byte(nil), v.Data...))
	case v.owned == nil:
		return memory.NewBufferBytes(v.Data)
	case !v.ownsData():
		data := v.Data
		v.Free() // the data moved out of the allocation
		v.Data = data
		return memory.NewBufferBytes(data)
	}
	buf := memory.NewBufferWithAllocator(v.owned, v.mem)
	buf.ResizeNoShrink(len(v.Data))
	v.owned, v.handed = nil, true
	bld.bufs = append(bld.bufs, buf)
	return buf
}

// allocFull returns a buffer of n bytes from the allocator that the caller
// overwrites in full (not zeroed when the allocator can skip it).
func (bld *builder) allocFull(n int) *memory.Buffer {
	u, ok := bld.mem.(uninitAllocator)
	if !ok || n == 0 {
		return bld.alloc(n)
	}
	buf := memory.NewBufferWithAllocator(u.AllocateUninit(n), bld.mem)
	bld.bufs = append(bld.bufs, buf)
	return buf
}

func (bld *builder) release() {
	for _, b := range bld.bufs {
		b.Release()
	}
	bld.bufs = nil
}

func (bld *builder) validityBuffer(bm []byte) *memory.Buffer {
	if bm == nil {
		return nil
	}
	buf := bld.allocFull(len(bm))
	copy(buf.Bytes(), bm)
	return buf
}

func (bld *builder) int64Buffer(v []int64) *memory.Buffer {
	buf := bld.allocFull(8 * len(v))
	b := buf.Bytes()
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], uint64(x))
	}
	return buf
}

func (bld *builder) int32Buffer(v []int64) (*memory.Buffer, error) {
	if len(v) > 0 && v[len(v)-1] > math.MaxInt32 {
		return nil, fmt.Errorf("%w: %d bytes exceed 32-bit offsets", ErrUnsupported, v[len(v)-1])
	}
	buf := bld.allocFull(4 * len(v))
	b := buf.Bytes()
	if len(b) > 0 && isLittleEndian() && uintptr(unsafe.Pointer(&b[0]))%4 == 0 {
		out := unsafe.Slice((*int32)(unsafe.Pointer(&b[0])), len(v)) // no bounds check per offset
		for i, x := range v {
			out[i] = int32(x)
		}
		return buf, nil
	}
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
	}
	return buf, nil
}

// buildLeaf makes the Arrow data of a leaf column from its values.
func (bld *builder) buildLeaf(dt arrow.DataType, v *Values, validity []byte, nulls, n int) (arrow.ArrayData, error) {
	if v.N != n {
		return nil, fmt.Errorf("%w: %d values for %d slots", ErrCorrupt, v.N, n)
	}
	vb := bld.validityBuffer(validity)
	switch t := dt.(type) {
	case *arrow.NullType:
		return array.NewData(dt, n, []*memory.Buffer{nil}, nil, n, 0), nil
	case *arrow.DictionaryType:
		return bld.buildDictionary(t, v, validity, nulls, n)
	case *arrow.StringType, *arrow.BinaryType, *arrow.LargeStringType, *arrow.LargeBinaryType:
		return bld.buildVariable(dt, v, vb, nulls, n)
	case *arrow.FixedSizeListType:
		return bld.buildFSL(t, v, vb, nulls, n)
	case *arrow.StructType:
		return bld.buildPackedStruct(t, v, vb, nulls, n)
	case arrow.FixedWidthDataType:
		return bld.buildFixed(dt, t.BitWidth(), v, vb, nulls, n, 0)
	}
	return nil, fmt.Errorf("%w: leaf type %s", ErrUnsupported, dt)
}

func (bld *builder) buildFixed(dt arrow.DataType, bits int, v *Values, vb *memory.Buffer, nulls, n int, itemOff int) (arrow.ArrayData, error) {
	if v.Kind != codecs.KindFixed || v.Bits != uint64(bits) {
		return nil, fmt.Errorf("%w: %s column decoded as %d-bit values", ErrCorrupt, dt, v.Bits)
	}
	need := (uint64(itemOff+n)*uint64(bits) + 7) / 8
	if uint64(len(v.Data)) < need {
		return nil, fmt.Errorf("%w: %s values need %d bytes, have %d", ErrCorrupt, dt, need, len(v.Data))
	}
	return array.NewData(dt, n, []*memory.Buffer{vb, bld.valueBuffer(v)}, nil, nulls, itemOff), nil
}

func (bld *builder) buildVariable(dt arrow.DataType, v *Values, vb *memory.Buffer, nulls, n int) (arrow.ArrayData, error) {
	if v.Kind != codecs.KindVariable || len(v.Offsets) != n+1 {
		return nil, fmt.Errorf("%w: %s column decoded as kind %d", ErrCorrupt, dt, v.Kind)
	}
	var offs *memory.Buffer
	switch dt.ID() {
	case arrow.LARGE_STRING, arrow.LARGE_BINARY:
		offs = bld.int64Buffer(v.Offsets)
	default:
		b, err := bld.int32Buffer(v.Offsets)
		if err != nil {
			return nil, err
		}
		offs = b
	}
	return array.NewData(dt, n, []*memory.Buffer{vb, offs, bld.valueBuffer(v)}, nil, nulls, 0), nil
}
