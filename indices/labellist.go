package indices

// LABEL_LIST scalar index (spec indices.md §2.3): the BITMAP layout over
// the distinct list elements (a NULL key first when lists hold NULL
// elements; no query uses it); global buffer 1 (metadata
// "lance:label_list_nulls") holds the rows whose list is NULL. Answers of
// array_has_any / array_has_all / array_contains are exact.

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/internal/fileread"
)

// LabelList is an opened LABEL_LIST segment.
type LabelList struct {
	bm *Bitmap
}

// OpenLabelList opens the LABEL_LIST segment in directory dir.
func OpenLabelList(ctx context.Context, dir string, opts ...fileread.Option) (*LabelList, error) {
	return OpenLabelListWith(ctx, pathOpener{opts}, dir)
}

// OpenLabelListWith opens the LABEL_LIST segment in directory dir relative
// to op.
func OpenLabelListWith(ctx context.Context, op Opener, dir string) (*LabelList, error) {
	bm, err := OpenBitmapWith(ctx, op, dir)
	if err != nil {
		return nil, err
	}
	return &LabelList{bm: bm}, nil
}

// Close releases the segment.
func (l *LabelList) Close() error { return l.bm.Close() }

// HasAny returns the rows whose list holds at least one of labels.
func (l *LabelList) HasAny(ctx context.Context, labels []Key) (*roaring64.Bitmap, error) {
	return l.bm.In(ctx, labels)
}

// HasAll returns the rows whose list holds every one of labels (no labels:
// the answer is left to a scan, nil with ErrNoAnswer-like semantics are not
// guessed: an empty label list returns an error).
func (l *LabelList) HasAll(ctx context.Context, labels []Key) (*roaring64.Bitmap, error) {
	if len(labels) == 0 {
		return nil, fmt.Errorf("indices: %s: array_has_all with no labels is not answered by the index", l.bm.url)
	}
	var out *roaring64.Bitmap
	for _, k := range labels {
		r, err := l.bm.Equal(ctx, k)
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = r
		} else {
			out.And(r)
		}
	}
	return out, nil
}

// Contains returns the rows whose list holds label (array_contains, array_has).
func (l *LabelList) Contains(ctx context.Context, label Key) (*roaring64.Bitmap, error) {
	return l.bm.Equal(ctx, label)
}

// NullLists returns the rows whose list is NULL (global buffer named by
// "lance:label_list_nulls"); an index without it reports none.
func (l *LabelList) NullLists(ctx context.Context) (*roaring64.Bitmap, error) {
	rows, ok, err := nullBitmapBuffer(ctx, l.bm.file, "lance:label_list_nulls")
	if err != nil || !ok {
		return roaring64.New(), err
	}
	return rows, nil
}

// LABEL_LIST details and index version as pylance 14.0.2 writes them (an
// empty LabelListIndexDetails message; version 1, which stores row ids).
const (
	LabelListDetailsTypeURL = "/lance.table.LabelListIndexDetails"
	LabelListIndexVersion   = 1
)

// BuildLabelList writes a LABEL_LIST segment of in, whose Values are a
// list column (List or LargeList of a type BuildBitmap takes), through
// sink: bitmap_page_lookup.lance keyed by the distinct elements (a NULL
// element is the NULL key) with the rows holding each, schema metadata
// lance:label_list_nulls = "1" and lance:index_stats, and global buffer 1
// the RowAddrTreeMap of the rows whose list is NULL. Empty lists are in
// no bitmap.
func BuildLabelList(ctx context.Context, sink FileSink, in ScalarBuild) ([]IndexFile, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	var child arrow.Array
	var offsets func(i int) (int64, int64)
	switch l := in.Values.(type) {
	case *array.List:
		child, offsets = l.ListValues(), l.ValueOffsets
	case *array.LargeList:
		child, offsets = l.ListValues(), l.ValueOffsets
	default:
		return nil, fmt.Errorf("%w: a LABEL_LIST index on a %s column (it takes lists)", ErrUnsupported, in.Values.DataType())
	}
	if !ScalarBuildable(child.DataType()) {
		return nil, fmt.Errorf("%w: a LABEL_LIST index on lists of %s", ErrUnsupported, child.DataType())
	}
	var rows []int32
	var ids, nullLists []uint64
	for i := 0; i < in.Values.Len(); i++ {
		if in.Values.IsNull(i) {
			nullLists = append(nullLists, in.IDs[i])
			continue
		}
		lo, hi := offsets(i)
		if lo < 0 || hi < lo || hi > int64(child.Len()) || hi > math.MaxInt32 {
			return nil, fmt.Errorf("%w: list %d has offsets %d..%d of %d elements", ErrCorrupt, i, lo, hi, child.Len())
		}
		for j := lo; j < hi; j++ {
			rows, ids = append(rows, int32(j)), append(ids, in.IDs[i])
		}
	}
	elems, err := takeRows(ctx, in.mem(), child, rows)
	if err != nil {
		return nil, err
	}
	defer elems.Release()
	slices.Sort(nullLists)
	nulls, err := AppendRowAddrTreeMap(nil, nullLists)
	if err != nil {
		return nil, err
	}
	f, err := writeBitmapFile(ctx, sink, ScalarBuild{Values: elems, IDs: ids, Mem: in.Mem}, []string{"lance:label_list_nulls", "1"}, [][]byte{nulls})
	if err != nil {
		return nil, err
	}
	return []IndexFile{f}, nil
}
