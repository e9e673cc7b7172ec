package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	lance "github.com/lancego/lancego"
	"github.com/lancego/lancego/internal/testkit"
)

// TestConvertDatasetAndDelete creates, appends to and deletes from a
// dataset through the CLI.
func TestConvertDatasetAndDelete(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "in.csv")
	var b strings.Builder
	b.WriteString("id,name\n")
	for i := range 100 {
		fmt.Fprintf(&b, "%d,n%d\n", i, i)
	}
	if err := os.WriteFile(csvPath, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ds := filepath.Join(dir, "ds")
	steps := []struct {
		args []string
		want string
	}{
		{[]string{"convert", csvPath, ds, "--dataset", "--max-rows-per-file", "40"}, "version 1: 100 rows in 3 fragments"},
		{[]string{"convert", csvPath, ds, "--dataset", "--mode", "append"}, "version 2: 200 rows in 4 fragments"},
		{[]string{"delete", ds, "--filter", "id < 10"}, "deleted 20 rows: version 3 has 180 rows"},
		{[]string{"delete", ds, "--filter", "id > 1000"}, "no row matches"},
		{[]string{"count", ds, "--filter", "id % 5 = 0"}, "36\n"},
		{[]string{"delete", ds, "--filter", "id % 5 = 0"}, "deleted 36 rows: version 4 has 144 rows"},
		{[]string{"count", ds}, "144\n"},
		{[]string{"count", ds, "--filter", "_rowoffset < 10 AND id > 20", "--version", "3"}, "0\n"},
		{[]string{"count", ds, "--filter", "_rowoffset < 10 OR id = 99", "--version", "3"}, "12\n"},
		{[]string{"convert", csvPath, ds, "--dataset", "--mode", "overwrite"}, "version 5: 100 rows in 1 fragments"},
	}
	for _, s := range steps {
		var out, errb bytes.Buffer
		if err := run(ctx, s.args, &out, &errb); err != nil {
			t.Fatalf("%v: %v\n%s", s.args, err, errb.String())
		}
		if !strings.Contains(out.String(), s.want) {
			t.Fatalf("%v: %q, want %q", s.args, out.String(), s.want)
		}
		if s.args[0] == "delete" && strings.Contains(s.want, "version 4") {
			checkPylanceIDs(t, ds, 4)
		}
	}
	var out bytes.Buffer
	if err := run(ctx, []string{"convert", csvPath, ds, "--dataset"}, &out, &out); err == nil {
		t.Fatal("create over an existing dataset succeeded")
	}
	d, err := lance.OpenDataset(ctx, ds, lance.WithVersion(3))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if n, _ := d.CountRows(ctx); n != 180 {
		t.Fatalf("version 3 has %d rows", n)
	}
}

// TestConvertDatasetMaxBytes splits a dataset by --max-bytes-per-file:
// about 20 MB of hardly compressible CSV values (more than one page
// budget of strings, so pages are written before the end) make one
// fragment by default and several with a 1 MiB limit, each of at least
// 1 MiB but the last.
func TestConvertDatasetMaxBytes(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "in.csv")
	var b strings.Builder
	b.WriteString("id,name\n")
	r := rand.New(rand.NewPCG(3, 4))
	for range 300_000 {
		fmt.Fprintf(&b, "%d,n%016x%016x%016x\n", r.Int64N(1<<52), r.Uint64(), r.Uint64(), r.Uint64())
	}
	if err := os.WriteFile(csvPath, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args     []string
		minFrags int
		maxFrags int
	}{
		{nil, 1, 1},
		{[]string{"--max-bytes-per-file", "1048576"}, 2, 100},
	} {
		ds := filepath.Join(dir, fmt.Sprintf("ds%d", tc.minFrags))
		var out, errb bytes.Buffer
		args := append([]string{"convert", csvPath, ds, "--dataset"}, tc.args...)
		if err := run(ctx, args, &out, &errb); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, errb.String())
		}
		d, err := lance.OpenDataset(ctx, ds)
		if err != nil {
			t.Fatal(err)
		}
		frags, err := d.Fragments(ctx)
		d.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(frags) < tc.minFrags || len(frags) > tc.maxFrags {
			t.Fatalf("%v: %d fragments, want %d..%d", args, len(frags), tc.minFrags, tc.maxFrags)
		}
		var rows uint64
		for i, f := range frags {
			rows += f.PhysicalRows
			if i < len(frags)-1 && f.DataFiles[0].Size < 1<<20 {
				t.Fatalf("%v: fragment %d has %d bytes", args, i, f.DataFiles[0].Size)
			}
		}
		if rows != 300_000 {
			t.Fatalf("%v: %d rows", args, rows)
		}
	}
}

// TestConvertDatasetAppendStorageVersion appends through the CLI to
// copies of pylance's 2.0 and legacy datasets ($LANCE_DATASETS; skipped
// without): without --version the append is refused (the dataset's own
// version, which lance does not write) and nothing is written; with
// --version 2.1 it appends 2.1 files to the 2.0 dataset and is refused
// for the legacy one (v1 and v2 files do not mix), as pylance decides.
func TestConvertDatasetAppendStorageVersion(t *testing.T) {
	root := os.Getenv("LANCE_DATASETS")
	if root == "" {
		t.Skip("LANCE_DATASETS not set (testdata/pylance/gen_datasets.py)")
	}
	ctx := context.Background()
	src2 := filepath.Join(root, "2.0", "history")
	files, _ := filepath.Glob(filepath.Join(src2, "data", "*.lance"))
	if len(files) != 1 {
		t.Skipf("%s has %d data files, want the one with every column", src2, len(files))
	}
	for _, tc := range []struct {
		ver, version string
		ok           bool
		want         string
	}{
		{"2.0", "", false, "data storage version is 2.0"},
		{"2.0", "2.1", true, "version 12: 600 rows"},
		{"legacy", "", false, "data storage version is 0.1"},
		{"legacy", "2.1", false, "cannot be mixed"},
	} {
		t.Run(tc.ver+"/"+tc.version, func(t *testing.T) {
			ds := filepath.Join(t.TempDir(), "ds")
			if err := os.CopyFS(ds, os.DirFS(filepath.Join(root, tc.ver, "history"))); err != nil {
				t.Fatal(err)
			}
			args := []string{"convert", files[0], ds, "--from", "lance", "--dataset", "--mode", "append"}
			if tc.version != "" {
				args = append(args, "--version", tc.version)
			}
			before, _ := filepath.Glob(filepath.Join(ds, "*", "*"))
			var out, errb bytes.Buffer
			err := run(ctx, args, &out, &errb)
			if tc.ok {
				if err != nil || !strings.Contains(out.String(), tc.want) {
					t.Fatalf("%v: %v %q, want %q", args, err, out.String(), tc.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), ds) {
				t.Fatalf("%v: err = %v, want one naming %s and %q", args, err, ds, tc.want)
			}
			if after, _ := filepath.Glob(filepath.Join(ds, "*", "*")); len(after) != len(before) {
				t.Fatalf("a refused append wrote files: %d before, %d after", len(before), len(after))
			}
		})
	}
}

// checkPylanceIDs has pylance read version v of the dataset the CLI
// wrote (two appends of ids 0..99, then deletes of id < 10 and
// id % 5 = 0) and compares its sorted ids with the rows that must
// survive; skipped without pylance.
func checkPylanceIDs(t *testing.T, ds string, v int) {
	t.Helper()
	py := testkit.LancePython()
	if py == "" {
		t.Log("pylance not available: the read back by real Lance is skipped")
		return
	}
	script := `import sys, lance
d = lance.dataset(sys.argv[1], version=int(sys.argv[2]))
t = d.to_table()
print(" ".join(str(x) for x in sorted(t.column("id").to_pylist())))
print(t.num_rows, d.count_rows(), len(d.get_fragments()))`
	got, err := exec.Command(py, "-c", script, ds, fmt.Sprint(v)).CombinedOutput()
	if err != nil {
		t.Fatalf("pylance read of version %d: %v\n%s", v, err, got)
	}
	var ids []int
	for range 2 {
		for id := 10; id < 100; id++ {
			if id%5 != 0 {
				ids = append(ids, id)
			}
		}
	}
	slices.Sort(ids)
	want := make([]string, len(ids))
	for i, id := range ids {
		want[i] = fmt.Sprint(id)
	}
	lines := strings.Split(strings.TrimSpace(string(got)), "\n")
	if len(lines) != 2 || lines[0] != strings.Join(want, " ") || lines[1] != "144 144 4" {
		t.Fatalf("pylance reads version %d as\n%s\nwant ids %s and 144 rows in 4 fragments", v, got, strings.Join(want, " "))
	}
}
