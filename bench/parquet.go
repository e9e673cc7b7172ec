package bench

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"sort"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// ParquetRowGroupRows is the row-group length of the Parquet files.
const ParquetRowGroupRows = 128 << 10

// WriteParquet writes d's rows to d.ParquetPath with pqarrow (snappy,
// dictionary on, like pyarrow's defaults) and returns time and size.
func WriteParquet(d *Dataset) (Measure, error) {
	recs, err := LoadRecords(d)
	if err != nil {
		return Measure{}, err
	}
	defer ReleaseAll(recs)
	tmp := d.ParquetPath() + ".tmp"
	out, err := os.Create(tmp)
	if err != nil {
		return Measure{}, err
	}
	defer out.Close()
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithMaxRowGroupLength(ParquetRowGroupRows), parquet.WithDictionaryDefault(true))
	t0 := time.Now()
	w, err := pqarrow.NewFileWriter(Schema(d.Name), out, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return Measure{}, err
	}
	for _, r := range recs {
		if err := w.WriteBuffered(r); err != nil {
			return Measure{}, err
		}
	}
	if err := w.Close(); err != nil {
		return Measure{}, err
	}
	dt := time.Since(t0).Seconds()
	fi, err := os.Stat(tmp)
	if err != nil {
		return Measure{}, err
	}
	if err := os.Rename(tmp, d.ParquetPath()); err != nil {
		return Measure{}, err
	}
	return Measure{Seconds: dt, Rows: d.Rows, FileBytes: fi.Size()}, nil
}

// openParquet opens a Parquet file for Arrow reads.
func openParquet(path string, batch int) (*pqarrow.FileReader, func(), error) {
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		return nil, nil, err
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: int64(batch)}, memory.DefaultAllocator)
	if err != nil {
		pf.Close()
		return nil, nil, err
	}
	return fr, func() { pf.Close() }, nil
}

// PqarrowScan reads one column of a Parquet file in batches (open timed
// too, as pyarrow's ParquetFile is) warmups times untimed, then reps times,
// and returns the fastest timed run.
func PqarrowScan(ctx context.Context, path, column string, batch, warmups int, rep Repeat) (Measure, error) {
	for range warmups {
		if _, err := pqScanOnce(ctx, path, column, batch); err != nil {
			return Measure{}, err
		}
	}
	rows := 0
	best, err := timeBest(rep, func() error {
		n, err := pqScanOnce(ctx, path, column, batch)
		rows = n
		return err
	})
	return Measure{Seconds: best, Rows: rows}, err
}

func pqScanOnce(ctx context.Context, path, column string, batch int) (int, error) {
	fr, closeFn, err := openParquet(path, batch)
	if err != nil {
		return 0, err
	}
	defer closeFn()
	rr, err := fr.GetRecordReader(ctx, leafIndices(fr, column), nil)
	if err != nil {
		return 0, err
	}
	defer rr.Release()
	rows := 0
	for rr.Next() {
		rows += int(rr.RecordBatch().NumRows())
	}
	return rows, rr.Err()
}

// leafField returns the index of a top-level field by name.
func leafField(fr *pqarrow.FileReader, column string) int {
	for i, f := range fr.Manifest.Fields {
		if f.Field.Name == column {
			return i
		}
	}
	return -1
}

// leafIndices returns the Parquet leaf columns of a top-level field.
func leafIndices(fr *pqarrow.FileReader, column string) []int {
	i := leafField(fr, column)
	if i < 0 {
		return nil
	}
	var out []int
	var walk func(f pqarrow.SchemaField)
	walk = func(f pqarrow.SchemaField) {
		if len(f.Children) == 0 {
			out = append(out, f.ColIndex)
		}
		for _, c := range f.Children {
			walk(c)
		}
	}
	walk(fr.Manifest.Fields[i])
	return out
}

// PqarrowTake reads the row groups holding each index set and takes the
// rows from them (Parquet has no row index finer than a page).
func PqarrowTake(ctx context.Context, path string, sets [][]uint64) (Measure, error) {
	fr, closeFn, err := openParquet(path, 64<<10)
	if err != nil {
		return Measure{}, err
	}
	defer closeFn()
	md := fr.ParquetReader().MetaData()
	starts := make([]int64, md.NumRowGroups()+1)
	for i := range md.NumRowGroups() {
		starts[i+1] = starts[i] + md.RowGroup(i).NumRows()
	}
	runtime.GC()
	var times []float64
	for _, idx := range sets {
		t0 := time.Now()
		if err := pqTakeOnce(ctx, fr, starts, idx); err != nil {
			return Measure{}, err
		}
		times = append(times, time.Since(t0).Seconds())
	}
	return fromTimes(times, len(sets[0])), nil
}

func pqTakeOnce(ctx context.Context, fr *pqarrow.FileReader, starts []int64, idx []uint64) error {
	var groups []int
	local := make([]int64, len(idx))
	var base int64
	for k, r := range idx {
		g := sort.Search(len(starts)-1, func(i int) bool { return starts[i+1] > int64(r) })
		if len(groups) == 0 || groups[len(groups)-1] != g {
			if len(groups) > 0 {
				base += starts[groups[len(groups)-1]+1] - starts[groups[len(groups)-1]]
			}
			groups = append(groups, g)
		}
		local[k] = base + int64(r) - starts[g]
	}
	all := make([]int, fr.ParquetReader().MetaData().Schema.NumColumns())
	for i := range all {
		all[i] = i
	}
	tbl, err := fr.ReadRowGroups(ctx, all, groups)
	if err != nil {
		return err
	}
	defer tbl.Release()
	ib := array.NewInt64Builder(memory.DefaultAllocator)
	ib.AppendValues(local, nil)
	ind := ib.NewArray()
	defer ib.Release()
	defer ind.Release()
	for i := range int(tbl.NumCols()) {
		col := tbl.Column(i).Data()
		whole, err := concatChunks(col)
		if err != nil {
			return err
		}
		got, err := compute.TakeArray(ctx, whole, ind)
		whole.Release()
		if err != nil {
			return err
		}
		if got.Len() != len(idx) {
			return fmt.Errorf("parquet take: %d rows, want %d", got.Len(), len(idx))
		}
		got.Release()
	}
	return nil
}

func concatChunks(c *arrow.Chunked) (arrow.Array, error) {
	if len(c.Chunks()) == 1 {
		a := c.Chunk(0)
		a.Retain()
		return a, nil
	}
	return array.Concatenate(c.Chunks(), memory.DefaultAllocator)
}
