package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	lance "github.com/lancego/lancego"
)

// TestPipeline runs the pipeline and checks every version it committed
// against the ids the generator's rule gives: version 1 the created rows,
// one more batch per append, then the ids the delete filter does not
// select (computed here in Go, not by the filter engine).
func TestPipeline(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	var out bytes.Buffer
	args := []string{"-dir", dir, "-rows", "500", "-batches", "3", "-appends", "2",
		"-delete", "id % 7 = 0", "-rows-per-file", "700"}
	if err := run(ctx, args, &out); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	t.Logf("output:\n%s", out.String())
	url := filepath.Join(dir, "pipeline.lance")

	upTo := func(n int64, keep func(int64) bool) []int64 {
		var ids []int64
		for id := int64(0); id < n; id++ {
			if keep == nil || keep(id) {
				ids = append(ids, id)
			}
		}
		return ids
	}
	want := map[uint64][]int64{
		1: upTo(1500, nil),
		2: upTo(2000, nil),
		3: upTo(2500, nil),
		4: upTo(2500, func(id int64) bool { return id%7 != 0 }),
	}
	for v, ids := range want {
		got := readIDs(t, ctx, url, v)
		if !slices.Equal(got, ids) {
			t.Errorf("version %d: %d ids, want %d (first %v)", v, len(got), len(ids), got[:min(5, len(got))])
		}
	}
	for _, line := range []string{
		"create   version 1: 1500 rows",
		"append   version 3: 2500 rows",
		"delete   version 4: 2142 rows",
		"versions: 1 2 3 4\n",
		"read latest (version 4): 2142 rows, ids 1..2498",
		"read version 1 (version 1): 1500 rows, ids 0..1499",
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("output lacks %q", line)
		}
	}
	checkPylance(t, url, 4, want[4])
}

// readIDs reads the ids of version v in scan order.
func readIDs(t *testing.T, ctx context.Context, url string, v uint64) []int64 {
	t.Helper()
	ds, err := lance.OpenDataset(ctx, url, lance.WithVersion(v))
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	var ids []int64
	o := lance.DatasetScanOptions{ReadOptions: lance.ReadOptions{Columns: []string{"id"}}}
	for rec, err := range ds.Batches(ctx, o) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, rec.Column(0).(*array.Int64).Int64Values()...)
		rec.Release()
	}
	return ids
}

// checkPylance reads the final dataset with pylance ($LANCE_PY) and
// compares its version, row count and ids.
func checkPylance(t *testing.T, url string, version uint64, ids []int64) {
	py := os.Getenv("LANCE_PY")
	if py == "" {
		t.Log("LANCE_PY not set: pylance check skipped")
		return
	}
	script := `import json, sys, lance
ds = lance.dataset(sys.argv[1])
t = ds.to_table(columns=["id", "category", "amount"])
print(json.dumps({"version": ds.version, "rows": ds.count_rows(),
    "versions": [v["version"] for v in ds.versions()],
    "ids": t.column("id").to_pylist(),
    "categories": t.column("category").to_pylist()}))`
	outb, err := exec.Command(py, "-c", script, url).Output()
	if err != nil {
		t.Fatalf("pylance: %v", err)
	}
	var got struct {
		Version    uint64   `json:"version"`
		Rows       int      `json:"rows"`
		Versions   []uint64 `json:"versions"`
		IDs        []int64  `json:"ids"`
		Categories []string `json:"categories"`
	}
	if err := json.Unmarshal(outb, &got); err != nil {
		t.Fatalf("pylance output %q: %v", outb, err)
	}
	if got.Version != version || !slices.Equal(got.Versions, []uint64{1, 2, 3, 4}) {
		t.Errorf("pylance: version %d, versions %v", got.Version, got.Versions)
	}
	if got.Rows != len(ids) || !slices.Equal(got.IDs, ids) {
		t.Errorf("pylance: %d rows, ids equal: %v; want %d rows", got.Rows, slices.Equal(got.IDs, ids), len(ids))
	}
	for i, c := range got.Categories {
		if want := categories[got.IDs[i]%3]; c != want {
			t.Fatalf("pylance: row %d (id %d): category %q, want %q", i, got.IDs[i], c, want)
		}
	}
}

// TestPipelineFlags checks that bad command lines fail before any write.
func TestPipelineFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-rows", "0"},
		{"-batches", "0"},
		{"-appends", "-1"},
		{"-nosuchflag"},
		{"extra"},
	} {
		var out bytes.Buffer
		if err := run(context.Background(), args, &out); err == nil {
			t.Errorf("run %q: no error", args)
		}
	}
}

// TestPipelineBadDelete checks that a delete filter that does not parse
// fails the run, naming the step.
func TestPipelineBadDelete(t *testing.T) {
	var out bytes.Buffer
	err := run(context.Background(), []string{"-dir", t.TempDir(), "-rows", "10", "-batches", "1", "-appends", "0", "-delete", "id >>= 3"}, &out)
	if err == nil || !strings.Contains(err.Error(), "delete where") {
		t.Fatalf("err = %v", err)
	}
}
