package dataset

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lancego/lancego/expr"
)

// scalarIdxDataset is written by pylance (testdata/make_scalar_idx.py):
// BTREE, BITMAP, LABEL_LIST and ZONEMAP indices, deletions and an
// unindexed fragment.
var scalarIdxDataset = filepath.Join("testdata", "scalar_idx.lance")

// indexFuzzSeeds are filters each index answers, alone and combined.
var indexFuzzSeeds = []string{
	"id = 17", "id IN (1, 2, 3, 250)", "id > 190", "id BETWEEN 95 AND 105", "id IS NULL",
	"NOT (id < 190)", "id != 5 AND id < 10", "cat = 'blue'", "cat IN ('red', 'green')", "cat IS NULL",
	"cat != 'red'", "array_has_any(tags, ['c'])", "array_has_all(tags, ['a', 'b'])",
	"array_contains(tags, 'b')", "ts > 1500", "ts = 100", "ts IS NULL", "ts IS NOT NULL AND id < 30",
	"(id < 50 OR id > 180) AND cat = 'red'", "cat = 'blue' OR ts < 100", "id < 100 AND txt LIKE '%1%'",
	"NOT array_has_any(tags, ['a']) AND cat IS NOT NULL", "id IN (NULL, 3)", "ts BETWEEN 300 AND 200",
	"cat LIKE 'bl%'", "cat NOT LIKE 'r%'", "starts_with(cat, 'gr')", "cat LIKE 'b_ue%'", "cat LIKE '%'",
}

// indexedVsScanned runs filter with the dataset's scalar indices and by
// scanning: both must fail, or return the same rows in the same order and
// the same count.
func indexedVsScanned(t *testing.T, ds *Dataset, filter string) {
	ctx := context.Background()
	e, err := expr.Parse(filter)
	if err != nil {
		return
	}
	got, _, err := scanAddrs(ctx, ds, filter, DatasetScanOptions{})
	plain, _, perr := scanAddrs(ctx, ds, filter, DatasetScanOptions{NoScalarIndex: true})
	if (err == nil) != (perr == nil) {
		t.Fatalf("%q: with indices err %v, without %v", filter, err, perr)
	}
	if err != nil {
		return
	}
	if !slices.Equal(got, plain) {
		t.Fatalf("%q: with indices %d rows %v, scanned %d rows %v", filter, len(got), headS(got), len(plain), headS(plain))
	}
	n, err := ds.CountRowsWhere(ctx, e)
	if err != nil && !errors.Is(err, ErrUnsupported) {
		t.Fatalf("%q: count: %v", filter, err)
	}
	if err == nil && n != uint64(len(got)) {
		t.Fatalf("%q: count %d, scan %d rows", filter, n, len(got))
	}
}

// TestIndexFuzzSeedsUseIndices checks the fuzz seeds reach the index
// code: most of them are answered by an index of the committed dataset.
func TestIndexFuzzSeedsUseIndices(t *testing.T) {
	ds, err := OpenDataset(context.Background(), scalarIdxDataset)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	used := 0
	for _, f := range indexFuzzSeeds {
		indexedVsScanned(t, ds, f)
		var st IndexScanStats
		if _, _, err := scanAddrs(context.Background(), ds, f, DatasetScanOptions{OnIndexStats: func(s IndexScanStats) { st = s }}); err != nil {
			t.Fatalf("%q: %v", f, err)
		}
		if len(st.Uses) > 0 {
			used++
		}
	}
	if used < len(indexFuzzSeeds)*3/4 {
		t.Errorf("only %d of %d seeds used an index", used, len(indexFuzzSeeds))
	}
}

// FuzzIndexedFilter: any filter text gives the same rows (and count) with
// the scalar indices as by scanning, or an error both ways; never a panic.
func FuzzIndexedFilter(f *testing.F) {
	for _, s := range indexFuzzSeeds {
		f.Add(s)
	}
	ds, err := OpenDataset(context.Background(), scalarIdxDataset)
	if err != nil {
		f.Fatal(err)
	}
	defer ds.Close()
	f.Fuzz(func(t *testing.T, filter string) {
		if len(filter) > 400 {
			return
		}
		indexedVsScanned(t, ds, filter)
	})
}
