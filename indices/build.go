package indices

// What the index builders share: where they write (a FileSink over the
// segment's directory), what a scalar builder reads (ScalarBuild), and
// gathering rows of an Arrow array in a new order.

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// FileSink writes the files of an index segment being built; the dataset
// engine implements it over the segment's directory in its store.
type FileSink interface {
	// WriteFile writes the Lance file name (relative to the segment's
	// directory) holding recs, whose schema (with its metadata) is schema,
	// then globals as global buffers 1, 2, ... (buffer 0 being the file's
	// schema), and returns the file's size in bytes.
	WriteFile(ctx context.Context, name string, schema *arrow.Schema, recs []arrow.RecordBatch, globals [][]byte) (uint64, error)
}

// ScalarBuild is the input of a scalar index builder: the indexed
// column's values, one per live row in row-address order, and the id the
// index stores for each (a row address, or a stable row id: see
// indices.md §1.5).
type ScalarBuild struct {
	Values arrow.Array
	IDs    []uint64
	// Mem allocates the builder's Arrow buffers (memory.DefaultAllocator
	// if nil).
	Mem memory.Allocator
}

func (in *ScalarBuild) check() error {
	if in.Values == nil || in.Values.Len() != len(in.IDs) {
		n := 0
		if in.Values != nil {
			n = in.Values.Len()
		}
		return fmt.Errorf("%w: index build of %d values with %d ids", ErrInvalidQuery, n, len(in.IDs))
	}
	return nil
}

func (in *ScalarBuild) mem() memory.Allocator {
	if in.Mem == nil {
		return memory.DefaultAllocator
	}
	return in.Mem
}

// takeRows gathers rows of a (int32 positions; -1 gathers a NULL).
func takeRows(ctx context.Context, mem memory.Allocator, a arrow.Array, rows []int32) (arrow.Array, error) {
	b := array.NewInt32Builder(mem)
	defer b.Release()
	b.Reserve(len(rows))
	for _, r := range rows {
		if r < 0 {
			b.AppendNull()
		} else {
			b.UnsafeAppend(r)
		}
	}
	idx := b.NewArray()
	defer idx.Release()
	return compute.TakeArray(compute.WithAllocator(ctx, mem), a, idx)
}

// uint64Array makes a non-null UInt64 array of vs.
func uint64Array(mem memory.Allocator, vs []uint64) arrow.Array {
	b := array.NewUint64Builder(mem)
	defer b.Release()
	b.AppendValues(vs, nil)
	return b.NewArray()
}

// uint32Array makes a non-null UInt32 array of vs.
func uint32Array(mem memory.Allocator, vs []uint32) arrow.Array {
	b := array.NewUint32Builder(mem)
	defer b.Release()
	b.AppendValues(vs, nil)
	return b.NewArray()
}

// writeOneBatch writes a file of the columns cols (released here) under
// schema, as one record batch (none when the columns are empty).
func writeOneBatch(ctx context.Context, sink FileSink, name string, schema *arrow.Schema, cols []arrow.Array, globals [][]byte) (IndexFile, error) {
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	var recs []arrow.RecordBatch
	if n := cols[0].Len(); n > 0 {
		rec := array.NewRecordBatch(schema, cols, int64(n))
		defer rec.Release()
		recs = append(recs, rec)
	}
	size, err := sink.WriteFile(ctx, name, schema, recs, globals)
	if err != nil {
		return IndexFile{}, fmt.Errorf("index file %s: %w", name, err)
	}
	return IndexFile{Path: name, Size: size}, nil
}

// metadataOf makes schema metadata of key, value pairs.
func metadataOf(kv ...string) *arrow.Metadata {
	var keys, vals []string
	for i := 0; i+1 < len(kv); i += 2 {
		keys, vals = append(keys, kv[i]), append(vals, kv[i+1])
	}
	m := arrow.NewMetadata(keys, vals)
	return &m
}

// ScalarBuildable reports whether the BTREE and BITMAP builders take a
// column of type dt: integers, floats, booleans, dates, times,
// timestamps, strings and binary.
func ScalarBuildable(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
		arrow.FLOAT32, arrow.FLOAT64, arrow.BOOL, arrow.DATE32, arrow.DATE64, arrow.TIME32, arrow.TIME64,
		arrow.TIMESTAMP, arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY:
		return true
	}
	return false
}
