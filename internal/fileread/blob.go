package fileread

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/layouts"
)

// leafType is the Arrow type a leaf column's values decode to.
func leafType(leaf *layouts.Field) arrow.DataType {
	if leaf.BlobV2 {
		return nil
	}
	return leaf.Type
}

// decodeBlobPiece decodes blob v1 descriptors, fetches the blobs and
// appends their bytes; levels come from the descriptors' null markers.
func (f *File) decodeBlobPiece(ctx context.Context, leaf *layouts.Field, p *piece, data []byte, vals *layouts.Values, memos *chunkMemos) (layouts.Levels, error) {
	var innerLv layouts.Levels
	desc := &layouts.Values{}
	if err := decodeRows(p.page.blob.inner, p, data, &innerLv, desc, nil, memos); err != nil {
		return layouts.Levels{}, fmt.Errorf("blob descriptors: %w", err)
	}
	refs, err := layouts.BlobRefs(desc, false)
	if err != nil {
		return layouts.Levels{}, err
	}
	lv, err := layouts.BlobV1Levels(refs, p.page.blob.set)
	if err != nil {
		return lv, err
	}
	return lv, f.appendBlobs(ctx, refs, vals, false)
}

// decodeBlobV2Piece decodes blob v2 descriptors (a full-zip page) and
// appends {data, uri} values.
func (f *File) decodeBlobV2Piece(ctx context.Context, p *piece, data []byte, vals *layouts.Values, memos *chunkMemos) (layouts.Levels, error) {
	var lv layouts.Levels
	desc := &layouts.Values{}
	if err := decodeRows(p.page, p, data, &lv, desc, layouts.BlobV2DescriptorType(), memos); err != nil {
		return lv, fmt.Errorf("blob descriptors: %w", err)
	}
	refs, err := layouts.BlobRefs(desc, true)
	if err != nil {
		return lv, err
	}
	return lv, f.appendBlobs(ctx, refs, vals, true)
}

func (f *File) appendBlobs(ctx context.Context, refs []layouts.BlobRef, vals *layouts.Values, v2 bool) error {
	var want []format.Range
	for _, r := range refs {
		if r.Size > 0 {
			want = append(want, format.Range{Offset: r.Position, Length: r.Size})
		}
	}
	got, err := f.fetch(ctx, want, 0)
	if err != nil {
		return err
	}
	data := make([][]byte, len(refs))
	next := 0
	for i, r := range refs {
		if r.Size > 0 {
			data[i] = got[next]
			next++
		}
	}
	resolved, err := layouts.BlobData(refs, data, v2)
	if err != nil {
		return err
	}
	return appendAll(vals, resolved)
}

// appendAll appends every value of src to dst.
func appendAll(dst, src *layouts.Values) error {
	if src.N == 0 {
		return nil
	}
	blk := src.Block()
	return dst.Append(&blk, 0, uint64(src.N))
}
