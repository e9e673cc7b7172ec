package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	lance "github.com/lancego/lancego"
)

// TestIndexCreateDrop: `lance index create` builds BTREE, BITMAP and
// ZONEMAP indices on a dataset we wrote, `index list --json` shows them covering
// every fragment, `count --filter` answers as before with them, a second
// create of the same name replaces it and --no-replace refuses, an
// unbuildable type is a clear error, and `index drop` removes them.
func TestIndexCreateDrop(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "ds.lance")
	writeSeededDataset(t, dir)
	runOK := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if err := run(ctx, args, &out, &errb); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, errb.String())
		}
		return out.String()
	}
	filters := []string{"i = 7", "i > 500 AND i < 600", "i IS NULL", "s = 'v0014'", "s < 'v0100'", "s IS NULL",
		"d = date '2000-01-01'", "d > date '2020-01-01'", "f > 20", "f IS NULL"}
	before := map[string]string{}
	for _, f := range filters {
		before[f] = runOK("count", dir, "--filter", f)
	}
	out := runOK("index", "create", dir, "--column", "i", "--type", "btree")
	if !strings.Contains(out, "created index i_idx") || !strings.Contains(out, "BTREE on i") {
		t.Fatalf("create output:\n%s", out)
	}
	runOK("index", "create", dir, "--column", "s", "--type", "BITMAP", "--name", "s_bits")
	// d has no NULLs: zoned from its seeds; f has NULLs: read
	if out := runOK("index", "create", dir, "--column", "d", "--type", "zonemap", "--stats"); !strings.Contains(out, "ZONEMAP on d") || !strings.Contains(out, "bytes") {
		t.Fatalf("zonemap output:\n%s", out)
	}
	runOK("index", "create", dir, "--column", "f", "--type", "zonemap")
	var reps []indexReport
	if err := json.Unmarshal([]byte(runOK("index", "list", dir, "--json")), &reps); err != nil {
		t.Fatal(err)
	}
	if len(reps) != 4 || reps[0].Name != "i_idx" || reps[1].Name != "s_bits" || reps[1].Type != "BITMAP" || reps[2].Type != "ZONEMAP" ||
		len(reps[0].Fragments) != 3 || reps[0].RowsIndexed != 500 {
		t.Fatalf("listing: %+v", reps)
	}
	for _, f := range filters {
		if got := runOK("count", dir, "--filter", f); got != before[f] {
			t.Errorf("count %q: %s with the indices, %s before", f, got, before[f])
		}
	}
	runOK("index", "create", dir, "--column", "i", "--type", "btree", "--batch-size", "16")
	var errb bytes.Buffer
	if err := run(ctx, []string{"index", "create", dir, "--column", "i", "--type", "btree", "--no-replace"}, &bytes.Buffer{}, &errb); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("--no-replace: %v", err)
	}
	if err := run(ctx, []string{"index", "create", dir, "--column", "i", "--type", "ivf_pq"}, &bytes.Buffer{}, &errb); err == nil || !strings.Contains(err.Error(), "IVF_PQ") {
		t.Fatalf("ivf_pq: %v", err)
	}
	if got := runOK("count", dir, "--filter", "i > 500 AND i < 600"); got != before["i > 500 AND i < 600"] {
		t.Errorf("after replace: %s, before %s", got, before["i > 500 AND i < 600"])
	}
	// an append leaves the new fragment unindexed until optimize
	appendOwnRows(t, dir)
	if out := runOK("index", "optimize", dir); strings.Count(out, "rebuilt, now also covering fragments [3]") != 4 {
		t.Fatalf("optimize:\n%s", out)
	}
	if out := runOK("index", "optimize", dir); strings.Count(out, "covers every fragment") != 4 {
		t.Fatalf("second optimize:\n%s", out)
	}
	for _, f := range filters {
		want := strings.Fields(before[f])[0]
		got := strings.Fields(runOK("count", dir, "--filter", f))[0]
		if g, w := atoiOr(got), atoiOr(want); g != 2*w {
			t.Errorf("count %q after the append and optimize: %s, want twice %s", f, got, want)
		}
	}
	runOK("index", "drop", dir, "i_idx")
	runOK("index", "drop", dir, "s_bits")
	runOK("index", "drop", dir, "d_idx")
	runOK("index", "drop", dir, "f_idx")
	if out := runOK("index", "list", dir, "--json"); strings.TrimSpace(out) != "[]" {
		t.Fatalf("after drop: %s", out)
	}
	if err := run(ctx, []string{"index", "drop", dir, "i_idx"}, &bytes.Buffer{}, &errb); err == nil {
		t.Fatal("drop of a dropped index: no error")
	}
}

// appendOwnRows appends the dataset's rows to itself (the root API).
func appendOwnRows(t *testing.T, dir string) {
	t.Helper()
	ctx := context.Background()
	ds, err := lance.OpenDataset(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	rdr, err := ds.Scan(ctx, lance.DatasetScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Release()
	out, err := ds.Append(ctx, rdr)
	if err != nil {
		t.Fatal(err)
	}
	out.Close()
}

func atoiOr(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
