package layouts

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/codecs"
	pb23 "github.com/lancego/lancego/format/pb/encodings23pb"
	"google.golang.org/protobuf/proto"
)

// errPathsDiffer: a sparse page's tree read (AppendStructure, AppendValues)
// and its levels read (AppendRows, Unravel) disagree.
var errPathsDiffer = errors.New("sparse tree and levels reads differ")

// sparseOut accumulates both reads of a sparse page's rows.
type sparseOut struct {
	lv    Levels
	vals  Values // levels read
	node  *PathNode
	dvals Values // tree read
	rvals Values // tree read, indexed items by runs (ItemRuns)
}

// node returns the levels read's structure after checking that the tree
// read built the same structure and values.
func (o *sparseOut) finish(p *SparsePage) (*PathNode, error) {
	node, err := Unravel(p.Set, o.lv)
	if err != nil {
		return nil, err
	}
	if o.node == nil && o.lv.N == 0 {
		return node, nil
	}
	if err := sameNodes(node, o.node); err != nil {
		return nil, fmt.Errorf("%w: structure: %v", errPathsDiffer, err)
	}
	leaf := node
	for leaf.Child != nil {
		leaf = leaf.Child
	}
	if err := sameValidValues(&o.vals, &o.dvals, leaf); err != nil {
		return nil, fmt.Errorf("%w: values: %v", errPathsDiffer, err)
	}
	if err := sameValidValues(&o.vals, &o.rvals, leaf); err != nil {
		return nil, fmt.Errorf("%w: values by item runs: %v", errPathsDiffer, err)
	}
	return node, nil
}

// sameNodes compares two structures slot by slot (a nil bitmap is all
// valid).
func sameNodes(a, b *PathNode) error {
	for depth := 0; a != nil || b != nil; depth++ {
		if a == nil || b == nil {
			return fmt.Errorf("depth %d: one chain ends", depth)
		}
		if a.Kind != b.Kind || a.Len != b.Len || a.NullCount != b.NullCount {
			return fmt.Errorf("depth %d: kind %d/%d len %d/%d nulls %d/%d", depth, a.Kind, b.Kind, a.Len, b.Len, a.NullCount, b.NullCount)
		}
		for i := 0; i < a.Len; i++ {
			if (a.Validity == nil || getBit(a.Validity, i)) != (b.Validity == nil || getBit(b.Validity, i)) {
				return fmt.Errorf("depth %d: validity of slot %d", depth, i)
			}
		}
		if a.Kind == LayerList {
			if len(a.Offsets) != a.Len+1 || len(b.Offsets) != b.Len+1 {
				return fmt.Errorf("depth %d: %d/%d offsets for %d slots", depth, len(a.Offsets), len(b.Offsets), a.Len)
			}
			for i := range a.Offsets {
				if a.Offsets[i]-a.Offsets[0] != b.Offsets[i]-b.Offsets[0] {
					return fmt.Errorf("depth %d: offset %d: %d/%d", depth, i, a.Offsets[i], b.Offsets[i])
				}
			}
		}
		a, b = a.Child, b.Child
	}
	return nil
}

// sameValidValues compares two accumulators' values where the leaf node
// is valid (a null slot's placeholder may be its stored value or zeros).
func sameValidValues(a, b *Values, leaf *PathNode) error {
	if a.N != b.N || a.Kind != b.Kind || leaf.Len != a.N {
		return fmt.Errorf("%d/%d values of kind %d/%d for %d leaf slots", a.N, b.N, a.Kind, b.Kind, leaf.Len)
	}
	if a.Kind != codecs.KindVariable && (a.Kind != codecs.KindFixed || a.Bits%8 != 0 || len(a.FSL) > 0) {
		return sameValues(a, b)
	}
	for i := range a.N {
		if slotValid(leaf, i) && !bytes.Equal(valueBytes(a, i), valueBytes(b, i)) {
			return fmt.Errorf("value %d: %x / %x", i, valueBytes(a, i), valueBytes(b, i))
		}
	}
	return nil
}

// sameValues compares two accumulators' values.
func sameValues(a, b *Values) error {
	if a.N != b.N || a.Kind != b.Kind {
		return fmt.Errorf("%d/%d values of kind %d/%d", a.N, b.N, a.Kind, b.Kind)
	}
	if a.Kind == 0 {
		return nil
	}
	return sameBlocks(a.Block(), b.Block())
}

func sameBlocks(a, b codecs.Block) error {
	if a.Kind != b.Kind || a.NumValues != b.NumValues || a.BitsPerValue != b.BitsPerValue || len(a.Children) != len(b.Children) || len(a.FSL) != len(b.FSL) {
		return fmt.Errorf("block shapes differ")
	}
	if a.BitsPerValue%8 == 0 && !bytes.Equal(a.Data, b.Data) {
		return fmt.Errorf("data differ")
	}
	if !bytes.Equal(a.Offsets, b.Offsets) {
		return fmt.Errorf("offsets differ")
	}
	for i := range a.Children {
		if err := sameBlocks(a.Children[i], b.Children[i]); err != nil {
			return fmt.Errorf("child %d: %w", i, err)
		}
	}
	return nil
}

// decodeSparseBoth decodes rows [from, to) of a sparse page as the reader
// does (the value reader's rows, then structure and values), both ways.
func decodeSparseBoth(p *SparsePage, bufs [][]byte, from, to uint64, out *sparseOut, leaf arrow.DataType) error {
	lo, hi, ok, err := p.ValueRows(from, to)
	if err != nil {
		return err
	}
	var inner *Values
	if ok {
		if inner, err = decodeSparseValueRows(p, bufs, lo, hi); err != nil {
			return err
		}
	}
	errL := p.AppendRows(from, to, lo, inner, &out.lv, &out.vals, leaf)
	node, errT := p.AppendStructure(out.node, from, to)
	if errT == nil {
		out.node = node
		errT = p.AppendValues(from, to, lo, inner, &out.dvals, leaf)
	}
	if (errL == nil) != (errT == nil) {
		return fmt.Errorf("%w: rows [%d,%d): levels read: %v, tree read: %v", errPathsDiffer, from, to, errL, errT)
	}
	if errL != nil {
		return errL
	}
	if ok && p.Mini != nil && p.Direct() {
		if err := checkDecodeChunked(p, bufs, lo, hi, inner); err != nil {
			return err
		}
	}
	return decodeItemRuns(p, bufs, from, to, lo, inner, out, leaf)
}

// checkDecodeChunked decodes terminal slots [lo, hi) of a chunked page
// with DecodeChunked and compares them with want (the same slots decoded
// by the Mini page): one value per leaf slot among them (terminal slots
// the structure drops are skipped), the same where the slot is
// materialized, and elsewhere the same or a placeholder (empty, zeros).
func checkDecodeChunked(p *SparsePage, bufs [][]byte, lo, hi uint64, want *Values) error {
	span, err := p.Mini.ChunksForRows(lo, hi)
	if err != nil {
		return err
	}
	var chunks [][]byte
	for c := span.First; c <= span.Last; c++ {
		ch := p.Mini.Chunks[c]
		chunks = append(chunks, bufs[1][ch.Offset:ch.Offset+ch.Size])
	}
	var got Values
	if err := p.DecodeChunked(span, chunks, lo, hi, &got, nil); err != nil {
		return fmt.Errorf("%w: DecodeChunked: %v", errPathsDiffer, err)
	}
	var leafSlots []uint64 // the leaf slot of each value got, in order
	for s := uint64(0); s < uint64(p.tree.leaf.Len); s++ {
		if r := p.tree.rawSlot(s); r >= lo && r < hi {
			leafSlots = append(leafSlots, s)
		}
	}
	if got.N != len(leafSlots) || (got.N > 0 && got.Kind != want.Kind) {
		return fmt.Errorf("%w: DecodeChunked: %d values of kind %d, want %d of kind %d", errPathsDiffer, got.N, got.Kind, len(leafSlots), want.Kind)
	}
	if p.tree.raw == nil && got.Kind != codecs.KindVariable {
		return sameValues(want, &got)
	}
	for i, s := range leafSlots {
		g, w := valueBytes(&got, i), valueBytes(want, int(p.tree.rawSlot(s)-lo))
		placeholder := len(g) == 0 || !slices.ContainsFunc(g, func(b byte) bool { return b != 0 })
		if !bytes.Equal(g, w) && (p.tree.materialized(s) || !placeholder) {
			return fmt.Errorf("%w: DecodeChunked: leaf slot %d: %q, want %q", errPathsDiffer, s, g, w)
		}
	}
	return nil
}

// valueBytes returns value i of a variable or byte-wide fixed accumulator.
func valueBytes(v *Values, i int) []byte {
	if v.Kind == codecs.KindVariable {
		return v.Data[v.Offsets[i]:v.Offsets[i+1]]
	}
	w := int(v.Bits/8) * int(v.itemsPerValue())
	return v.Data[i*w : (i+1)*w]
}

// decodeItemRuns appends rows [from, to) to out.rvals reading indexed
// items by runs (other pages: as AppendValues).
func decodeItemRuns(p *SparsePage, bufs [][]byte, from, to, lo uint64, inner *Values, out *sparseOut, leaf arrow.DataType) error {
	runs := p.ItemRuns(from, to)
	if runs == nil {
		return p.AppendValues(from, to, lo, inner, &out.rvals, leaf)
	}
	items := &Values{}
	for _, r := range runs {
		v, err := decodeSparseValueRows(p, bufs, r.Lo, r.Hi)
		if err != nil {
			return err
		}
		b := v.Block()
		if err := items.Append(&b, 0, b.NumValues); err != nil {
			return err
		}
	}
	if err := p.AppendItemRuns(from, to, runs, items, &out.rvals, leaf); err != nil {
		return fmt.Errorf("%w: item runs: %v", errPathsDiffer, err)
	}
	return nil
}

// decodeSparseValueRows decodes the value reader's rows [lo, hi).
func decodeSparseValueRows(p *SparsePage, bufs [][]byte, lo, hi uint64) (*Values, error) {
	inner := &Values{}
	var discard Levels
	if p.Mini != nil {
		span, err := p.Mini.ChunksForRows(lo, hi)
		if err != nil {
			return nil, err
		}
		var chunks [][]byte
		for c := span.First; c <= span.Last; c++ {
			ch := p.Mini.Chunks[c]
			chunks = append(chunks, bufs[1][ch.Offset:ch.Offset+ch.Size])
		}
		return inner, p.Mini.DecodeRows(span, chunks, lo, hi, &discard, inner, nil)
	}
	a, b, err := p.Full.RowBytes(lo, hi)
	if err != nil {
		return nil, err
	}
	data := bufs[p.Layout.DataBuffer]
	if b > uint64(len(data)) {
		return nil, ErrCorrupt
	}
	return inner, p.Full.DecodeRows(data[a:b], &discard, inner)
}

// structListPage is 4 rows of struct<l: list<int32>> with constant items
// 7: struct row 1 null, list row 2 null, item 1 null. With dropped, the
// null struct row 1 owns a child (which levels drop), else rows 0 and 3
// hold [7, null] and [7].
func structListPage(dropped bool) (*pb23.PlanarLayout, [][]byte) {
	children, nonEmpty, pos, counts := uint64(3), uint64(2), le64(0, 3), le64(2, 1)
	if dropped {
		children, nonEmpty, pos, counts = 4, 3, le64(0, 1, 3), le64(2, 1, 1)
	}
	layers := []*pb23.SparseStructuralLayer{validityLayer(validity(nullPos, 1)),
		sparseList(children, nonEmpty, validity(nullPos, 1)), validityLayer(validity(nullPos, 1))}
	pl := &pb23.PlanarLayout{
		Structure: &pb23.StructuralPlane{Codec: &pb23.StructuralPlane_Sparse{Sparse: &pb23.SparseStructure{Layers: layers}}},
		Values:    &pb23.ValuePlane{Codec: &pb23.ValuePlane_Constant{Constant: &pb23.ConstantValue{Scalar: u32s(7)}}},
	}
	return pl, [][]byte{le64(1), pos, counts, le64(2), le64(1)}
}

// structListField is struct<l: list<int32>>.
func structListField() *Field {
	item := &Field{Name: "item", Type: arrow.PrimitiveTypes.Int32, Nullable: true, Column: 0}
	lt := arrow.ListOfField(arrow.Field{Name: "item", Type: arrow.PrimitiveTypes.Int32, Nullable: true})
	l := &Field{Name: "l", Type: lt, Nullable: true, Column: -1, Children: []*Field{item}}
	return &Field{Name: "s", Type: arrow.StructOf(arrow.Field{Name: "l", Type: lt, Nullable: true}), Nullable: true,
		Column: -1, Children: []*Field{l}}
}

// TestSparseTreeMatchesLevels: a struct above a list reads as a tree
// whether or not a null struct row owns list children (the tree then
// drops them, as levels do); both reads agree (sparseArray checks) and
// give the same array.
func TestSparseTreeMatchesLevels(t *testing.T) {
	for _, dropped := range []bool{false, true} {
		pl, bufs := structListPage(dropped)
		l, err := NewSparseLayout(pl)
		if err != nil {
			t.Fatal(err)
		}
		sizes := make([]uint64, len(bufs))
		p, err := NewSparsePage(pl, l, 4, sizes, bufs, arrow.PrimitiveTypes.Int32)
		if err != nil {
			t.Fatal(err)
		}
		if !p.Direct() || (p.tree.raw != nil) != dropped {
			t.Fatalf("dropped %v: Direct() = %v, terminal slots dropped: %v", dropped, p.Direct(), p.tree.raw != nil)
		}
		for _, step := range []uint64{1, 3, 4} {
			arr, err := sparseArray(t, pl, 4, bufs, structListField(), step)
			if err != nil {
				t.Fatalf("dropped %v step %d: %v", dropped, step, err)
			}
			if got, want := arr.String(), `{[[7 (null)] (null) (null) [7]]}`; got != want {
				t.Fatalf("dropped %v step %d: got %s, want %s", dropped, step, got, want)
			}
			arr.Release()
		}
	}
}

// TestDecodeChunkedGatherPaths reads the leaf slots of every real sparse
// page with dictionary chunked values through both gathers of
// DecodeChunked (32-bit indices into checked 32-bit offsets, and runs
// through AppendGather) and checks each against the Mini page's values.
func TestDecodeChunkedGatherPaths(t *testing.T) {
	seeds, rows := planarSeeds(t)
	pages := 0
	for i, s := range seeds {
		var pl pb23.PlanarLayout
		if err := proto.Unmarshal(s[0], &pl); err != nil {
			t.Fatal(err)
		}
		if pl.GetStructure().GetSparse() == nil || pl.GetValues().GetChunked().GetDictionary() == nil {
			continue
		}
		bufs := trimBufs(s[1:])
		l, err := NewSparseLayout(&pl)
		if err != nil {
			t.Fatal(err)
		}
		sizes := make([]uint64, len(bufs))
		for k, b := range bufs {
			sizes[k] = uint64(len(b))
		}
		p, err := NewSparsePage(&pl, l, rows[i], sizes, bufs, nil)
		if err != nil || !p.Direct() || p.tree.leaf.Validity == nil {
			continue
		}
		pages++
		lo, hi := uint64(0), p.terminal()
		want, err := decodeSparseValueRows(p, bufs, lo, hi)
		if err != nil {
			t.Fatal(err)
		}
		for _, flat := range []bool{true, false} {
			p.dictFlat32 = flat && flatDict32(p.Mini)
			if err := checkDecodeChunked(p, bufs, lo, hi, want); err != nil {
				t.Fatalf("page %d, flat %v: %v", i, flat, err)
			}
		}
	}
	if pages == 0 {
		t.Fatal("no sparse dictionary page with nulls among the seeds")
	}
}
