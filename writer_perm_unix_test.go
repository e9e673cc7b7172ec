//go:build unix

package lance

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestWriterFileModes checks that lance.Create and a dataset write leave
// their files (data file, manifest, transaction) 0666 less the umask, as
// other tools' files are, so that a service running as another user can
// read them (they were 0600, from os.CreateTemp).
func TestWriterFileModes(t *testing.T) {
	ctx := context.Background()
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil)
	b := array.NewInt64Builder(mem)
	b.AppendValues([]int64{1, 2, 3}, nil)
	col := b.NewArray()
	defer col.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, 3)
	defer rec.Release()
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	dir := t.TempDir()
	w, err := Create(ctx, filepath.Join(dir, "f.lance"), schema)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	rdr, err := array.NewRecordReader(schema, []arrow.RecordBatch{rec})
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Release()
	ds, err := CreateDataset(ctx, filepath.Join(dir, "ds"), rdr)
	if err != nil {
		t.Fatal(err)
	}
	ds.Close()
	n := 0
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		fi, err := os.Stat(path)
		if err == nil && fi.Mode().Perm() != 0o640 {
			t.Errorf("%s: mode %03o, want 0640 (umask 027)", path, fi.Mode().Perm())
		}
		return err
	})
	if err != nil || n < 3 {
		t.Fatalf("walked %d files: %v", n, err)
	}
}
