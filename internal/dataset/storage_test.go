package dataset

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/lancego/lancego/internal/filewriter"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// copyTree copies the directory src to a new temporary directory.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// treeFiles lists the files under dir (relative paths, sorted).
func treeFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// ownRows returns a reader of the dataset's own rows (its schema).
func ownRows(t *testing.T, ds *Dataset) array.RecordReader {
	t.Helper()
	rdr, err := ds.Scan(context.Background(), DatasetScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return rdr
}

// storageOf is what pylance reads of a dataset's storage: its data
// storage version, rows and the file versions of its last fragment.
type storageOf struct {
	Storage string  `json:"storage"`
	Rows    int     `json:"rows"`
	Last    [][]int `json:"last"`
}

// pylanceStorage reads dir with pylance.
func pylanceStorage(t *testing.T, dir string) storageOf {
	t.Helper()
	script := `import json, sys, lance
ds = lance.dataset(sys.argv[1])
last = ds.get_fragments()[-1].metadata.data_files()
print(json.dumps({"storage": ds.data_storage_version, "rows": ds.count_rows(),
                  "last": [[f.file_major_version, f.file_minor_version] for f in last]}))`
	out, err := exec.Command(datasetPython(), "-c", script, dir).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("pylance: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("pylance: %v", err)
	}
	var s storageOf
	if err := json.Unmarshal(out, &s); err != nil {
		t.Fatalf("pylance: %v: %s", err, out)
	}
	return s
}

// lastFileVersion returns the recorded version of the last fragment's
// first data file.
func lastFileVersion(t *testing.T, ds *Dataset) []int {
	t.Helper()
	m, err := ds.fragment(len(ds.frags) - 1)
	if err != nil {
		t.Fatal(err)
	}
	return []int{int(m.Files[0].Major), int(m.Files[0].Minor)}
}

// TestDatasetWriteStorageVersion appends to and overwrites copies of the
// 2.0, legacy and 2.1 datasets pylance 14.0.2 wrote, and checks that we
// decide as pylance does (dataset_storage.go), writing nothing where we
// refuse: without a file version, an append or overwrite writes files of
// the dataset's own version, so of a 2.0 or legacy dataset it is refused
// (ErrUnsupported, naming the dataset and its version), and of a 2.1 one
// writes 2.1 files; an explicit version appends files of that version to
// a 2.0 dataset, whose storage version stays 2.0 (pylance reads the result
// so), is refused for a legacy dataset (ErrInvalidArgument: v1 and v2
// files do not mix), and overwrites with a dataset of that version.
func TestDatasetWriteStorageVersion(t *testing.T) {
	if datasetPython() == "" {
		t.Skip("no LANCE_PY")
	}
	ctx := context.Background()
	v21 := WithFileOptions(filewriter.WithFileVersion("2.1"))
	v22 := WithFileOptions(filewriter.WithFileVersion("2.2"))
	for _, tc := range []struct {
		ver       string
		overwrite bool
		opts      []DatasetWriteOption
		err       error    // refused with this, nothing written
		storage   string   // else the storage version after
		last      []int    // and the file version of the last fragment
		mention   []string // words the error names
	}{
		{ver: "2.0", err: ErrUnsupported, mention: []string{"2.0", "append"}},
		{ver: "2.0", overwrite: true, err: ErrUnsupported, mention: []string{"2.0", "overwrite"}},
		{ver: "legacy", err: ErrUnsupported, mention: []string{"0.1"}},
		{ver: "legacy", overwrite: true, err: ErrUnsupported, mention: []string{"0.1"}},
		{ver: "legacy", opts: []DatasetWriteOption{v21}, err: ErrInvalidArgument, mention: []string{"0.1", "2.1", "mixed"}},
		{ver: "2.0", opts: []DatasetWriteOption{v21}, storage: "2.0", last: []int{2, 1}},
		{ver: "2.0", opts: []DatasetWriteOption{v22}, storage: "2.0", last: []int{2, 2}},
		{ver: "2.0", overwrite: true, opts: []DatasetWriteOption{v21}, storage: "2.1", last: []int{2, 1}},
		{ver: "legacy", overwrite: true, opts: []DatasetWriteOption{v22}, storage: "2.2", last: []int{2, 2}},
		{ver: "2.1", storage: "2.1", last: []int{2, 1}},
		{ver: "2.1", overwrite: true, storage: "2.1", last: []int{2, 1}},
		{ver: "2.1", opts: []DatasetWriteOption{v22}, storage: "2.1", last: []int{2, 2}},
	} {
		name := tc.ver + "/append"
		if tc.overwrite {
			name = tc.ver + "/overwrite"
		}
		if len(tc.opts) > 0 {
			name += "/explicit-" + tc.storage + "-" + strings.Trim(strings.ReplaceAll(fmtInts(tc.last), " ", "."), "[]")
		}
		t.Run(name, func(t *testing.T) {
			dir := copyTree(t, filepath.Join(pylanceDatasets(t, tc.ver), "history"))
			before := treeFiles(t, dir)
			ds, err := OpenDataset(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			defer ds.Close()
			rdr := ownRows(t, ds)
			defer rdr.Release()
			write := ds.Append
			if tc.overwrite {
				write = ds.Overwrite
			}
			out, err := write(ctx, rdr, tc.opts...)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("err = %v, want %v", err, tc.err)
				}
				for _, w := range append(tc.mention, dir) {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not name %q", err, w)
					}
				}
				if after := treeFiles(t, dir); !slices.Equal(before, after) {
					t.Errorf("a refused write changed the dataset: %d files before, %d after", len(before), len(after))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer out.Close()
			if got := out.man.DataVersion; got != tc.storage {
				t.Errorf("storage version %q, want %q", got, tc.storage)
			}
			if got := lastFileVersion(t, out); !slices.Equal(got, tc.last) {
				t.Errorf("new data file version %v, want %v", got, tc.last)
			}
			// Files of another version than the storage version's: the
			// mixed-version capability, in both flags (pylance needs it).
			mixed := !tc.overwrite && tc.storage != fmt.Sprintf("%d.%d", tc.last[0], tc.last[1])
			const bit = FlagMixedDataFileVersions
			if got := out.man.ReaderFlags&bit != 0 && out.man.WriterFlags&bit != 0; got != mixed {
				t.Errorf("mixed-version capability %v, want %v (flags %#x, %#x)", got, mixed, out.man.ReaderFlags, out.man.WriterFlags)
			}
			rows, err := out.CountRows(ctx)
			if err != nil {
				t.Fatal(err)
			}
			want := storageOf{Storage: tc.storage, Rows: int(rows), Last: [][]int{tc.last}}
			if got := pylanceStorage(t, dir); got.Storage != want.Storage || got.Rows != want.Rows || !slices.Equal(got.Last[0], tc.last) {
				t.Errorf("pylance reads %+v, want %+v", got, want)
			}
		})
	}
}

// fmtInts renders a file version.
func fmtInts(v []int) string { b, _ := json.Marshal(v); return string(b) }

// TestDatasetAppendInfersStorageVersion appends to a Lance 0.15 dataset
// whose manifest has no data_storage_format, over 2.0 files: Lance infers
// 2.0 from the files, so a default append is refused, and an explicit
// 2.1 append records the inferred 2.0 in the new manifest, as Lance does.
func TestDatasetAppendInfersStorageVersion(t *testing.T) {
	ctx := context.Background()
	dir := copyTree(t, filepath.Join("..", "..", "testdata", "compat", "v0.15.0", "v2_with_files.lance"))
	ds, err := OpenDataset(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	if ds.man.DataVersion != "" {
		t.Fatalf("manifest has data storage version %q, want none", ds.man.DataVersion)
	}
	rdr := ownRows(t, ds)
	defer rdr.Release()
	if _, err := ds.Append(ctx, rdr); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "2.0") {
		t.Fatalf("default append: err = %v, want ErrUnsupported naming 2.0", err)
	}
	rdr2 := ownRows(t, ds)
	defer rdr2.Release()
	out, err := ds.Append(ctx, rdr2, WithFileOptions(filewriter.WithFileVersion("2.1")))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if out.man.DataVersion != "2.0" {
		t.Errorf("storage version after the append %q, want 2.0", out.man.DataVersion)
	}
	if datasetPython() != "" {
		if got := pylanceStorage(t, dir); got.Storage != "2.0" || !slices.Equal(got.Last[0], []int{2, 1}) {
			t.Errorf("pylance reads %+v", got)
		}
	}
}

// TestDatasetReadsPylanceMixedVersions reads a dataset pylance 14.0.2
// made by appending 2.1 files to a 2.0 one (which sets the mixed
// data-file-version capability, reader flag 256): we open it and read the
// rows pylance reads.
func TestDatasetReadsPylanceMixedVersions(t *testing.T) {
	if datasetPython() == "" {
		t.Skip("no LANCE_PY")
	}
	ctx := context.Background()
	dir := copyTree(t, filepath.Join(pylanceDatasets(t, "2.0"), "history"))
	script := `import sys, lance
ds = lance.dataset(sys.argv[1])
lance.write_dataset(ds.to_table(limit=7), sys.argv[1], mode="append", data_storage_version="2.1")`
	if out, err := exec.Command(datasetPython(), "-c", script, dir).CombinedOutput(); err != nil {
		t.Fatalf("pylance append: %v\n%s", err, out)
	}
	want := pylanceStorage(t, dir)
	if want.Storage != "2.0" || !slices.Equal(want.Last[0], []int{2, 1}) {
		t.Fatalf("pylance wrote %+v", want)
	}
	ds, err := OpenDataset(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	if ds.man.ReaderFlags&FlagMixedDataFileVersions == 0 {
		t.Fatalf("pylance did not set the mixed-version capability (flags %#x)", ds.man.ReaderFlags)
	}
	n := 0
	for rec, err := range ds.Batches(ctx, DatasetScanOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		n += int(rec.NumRows())
		rec.Release()
	}
	if n != want.Rows {
		t.Fatalf("we read %d rows, pylance %d", n, want.Rows)
	}
}
