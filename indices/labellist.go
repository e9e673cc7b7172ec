package indices

// LABEL_LIST scalar index (spec indices.md §2.3): the BITMAP layout over
// the distinct list elements (no NULL key); global buffer 1 (metadata
// "lance:label_list_nulls") holds the rows whose list is NULL. Answers of
// array_has_any / array_has_all / array_contains are exact.

import (
	"context"
	"fmt"

	"github.com/RoaringBitmap/roaring/v2/roaring64"

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
	if bm.NumKeys() > 0 && bm.keys.IsNull(0) {
		bm.Close()
		return nil, fmt.Errorf("%w: %s: label list with a NULL key", ErrCorrupt, bm.url)
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
