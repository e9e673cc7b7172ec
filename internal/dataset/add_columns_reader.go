package dataset

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/internal/filewriter"
)

// AddColumnsFrom adds the columns of rdr, whose rows line up with the
// dataset's live rows in scan order (fragment by fragment), as pylance's
// add_columns(reader) does: each fragment gets a data file of its
// physical rows, deleted rows null. The reader is read one fragment's
// rows at a time. A reader with fewer or more rows than the dataset, or a
// column name in use, fails with ErrInvalidArgument and commits nothing.
func (ds *Dataset) AddColumnsFrom(ctx context.Context, rdr array.RecordReader, opts ...DatasetWriteOption) (*Dataset, error) {
	fail := func(err error) (*Dataset, error) {
		return nil, fmt.Errorf("lance: add columns to %s: %w", ds.url, err)
	}
	if rdr.Schema().NumFields() == 0 {
		return fail(fmt.Errorf("%w: the reader has no column", ErrInvalidArgument))
	}
	src := &alignedSource{rdr: rdr, mem: ds.allocator()}
	defer src.release()
	return ds.addColumnsWith(ctx, rdr.Schema().Fields(), func(ctx context.Context, w *filewriter.File, schema *arrow.Schema, i int, m *Fragment) error {
		del, err := ds.deletions(ctx, i)
		if err != nil {
			return err
		}
		live := m.PhysicalRows
		if del != nil {
			live -= del.GetCardinality()
		}
		rec, err := src.take(schema, int64(live))
		if err != nil {
			return err
		}
		defer rec.Release()
		if del != nil && !del.IsEmpty() {
			full, err := spreadOverDeleted(ctx, ds.allocator(), rec, del, m.PhysicalRows)
			if err != nil {
				return err
			}
			defer full.Release()
			rec = full
		}
		if rec.NumRows() == 0 {
			return nil
		}
		return w.Write(ctx, rec)
	}, func() error {
		if src.more() {
			return fmt.Errorf("%w: the reader has more rows than the dataset (%d)", ErrInvalidArgument, src.used)
		}
		return rdr.Err()
	}, opts)
}

// alignedSource hands out a reader's rows n at a time.
type alignedSource struct {
	rdr  array.RecordReader
	mem  memory.Allocator
	cur  arrow.RecordBatch // retained; rows from off on not yet used
	off  int64
	used int64
	done bool
}

func (s *alignedSource) release() {
	if s.cur != nil {
		s.cur.Release()
		s.cur = nil
	}
}

// next makes cur a batch with unused rows; false at the end.
func (s *alignedSource) next() bool {
	for s.cur == nil || s.off >= s.cur.NumRows() {
		s.release()
		if s.done || !s.rdr.Next() {
			s.done = true
			return false
		}
		s.cur, s.off = s.rdr.RecordBatch(), 0
		s.cur.Retain()
	}
	return true
}

func (s *alignedSource) more() bool { return s.next() }

// take returns the next n rows as one batch of schema.
func (s *alignedSource) take(schema *arrow.Schema, n int64) (arrow.RecordBatch, error) {
	var parts []arrow.RecordBatch
	defer func() {
		for _, p := range parts {
			p.Release()
		}
	}()
	for got := int64(0); got < n; {
		if !s.next() {
			if err := s.rdr.Err(); err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("%w: the reader ended after %d rows, before producing values for all rows of the dataset", ErrInvalidArgument, s.used+got)
		}
		k := min(n-got, s.cur.NumRows()-s.off)
		parts = append(parts, s.cur.NewSlice(s.off, s.off+k))
		s.off += k
		got += k
	}
	s.used += n
	cols := make([]arrow.Array, schema.NumFields())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for j := range cols {
		pieces := make([]arrow.Array, len(parts))
		for k, p := range parts {
			pieces[k] = p.Column(j)
		}
		if len(pieces) == 0 {
			cols[j] = array.MakeArrayOfNull(s.mem, schema.Field(j).Type, 0)
			continue
		}
		c, err := array.Concatenate(pieces, s.mem)
		if err != nil {
			return nil, err
		}
		cols[j] = c
	}
	return array.NewRecordBatch(schema, cols, n), nil
}

// spreadOverDeleted places the rows of live at the physical rows del does
// not delete, nulls at the deleted ones.
func spreadOverDeleted(ctx context.Context, mem memory.Allocator, live arrow.RecordBatch, del *Deletions, physical uint64) (arrow.RecordBatch, error) {
	b := array.NewInt64Builder(mem)
	defer b.Release()
	b.Reserve(int(physical))
	k := int64(0)
	for p := uint64(0); p < physical; p++ {
		if p <= uint64(^uint32(0)) && del.Contains(uint32(p)) {
			b.AppendNull()
			continue
		}
		b.Append(k)
		k++
	}
	if k != live.NumRows() {
		return nil, fmt.Errorf("%w: %d live rows, %d values", format.ErrCorrupt, k, live.NumRows())
	}
	idx := b.NewInt64Array()
	defer idx.Release()
	ctx = compute.WithAllocator(ctx, mem)
	cols := make([]arrow.Array, live.NumCols())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for j := range cols {
		c, err := compute.TakeArray(ctx, live.Column(j), idx)
		if err != nil {
			return nil, err
		}
		cols[j] = c
	}
	return array.NewRecordBatch(live.Schema(), cols, int64(physical)), nil
}
