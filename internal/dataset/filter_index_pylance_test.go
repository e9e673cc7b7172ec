package dataset

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/internal/testkit"
)

// indexFilterCases are, per pylance dataset, filters answered with its
// scalar indices (and some they cannot answer, scanned).
var indexFilterCases = map[string][]string{
	"scalar.lance": {
		"id = 17", "id = 320", "id = 3", "id IN (1, 2, 3, 4, 5, 250, 310)", "id > 290",
		"id >= 10 AND id < 20", "id BETWEEN 95 AND 105", "id IS NULL", "id IS NOT NULL AND id < 5",
		"id != 5 AND id < 10", "NOT (id < 290)", "id NOT IN (1, 2, 3) AND id < 8", "5 < id AND id <= 9",
		"s = 's05'", "s IS NULL", "s >= 's0' AND s < 's1'", "s != 's05'",
		"fl > 70", "fl <= 10", "fl IS NULL", "fl IS NOT NULL AND id < 40",
		"cat = 'blue'", "cat IN ('red', 'blue')", "cat > 'green'", "cat IS NULL", "cat IS NOT NULL",
		"cat != 'red'", "cat = 'zzz'", "b = true", "b IS NULL", "b = false AND id < 50",
		"array_has_any(tags, ['c'])", "array_has_any(tags, ['a', 'c'])", "array_has_all(tags, ['a', 'b'])",
		"array_contains(tags, 'b')", "NOT array_has_any(tags, ['a'])",
		"ts > 2500", "ts = 100", "ts IN (5, 7000)", "ts IS NULL", "ts IS NOT NULL AND id < 30",
		"id < 50 OR cat = 'blue'", "(id < 50 OR id > 280) AND cat = 'red'", "id < 100 AND txt LIKE '%1%'",
		"cat = 'blue' OR txt IS NULL", "id < 30 AND ts > 100",
	},
	"btree_big.lance": {
		"v = 4023", "v = 4024", "v IN (0, 9999, 5000)", "v > 4000 AND v <= 8200", "v IS NULL", "id = 4023", "id > 9990",
	},
	"stable_rowid.lance": {
		"id = 60", "id > 250", "cat = 'xyz1' AND id < 80", "array_has_any(tags, ['a']) AND id < 70", "id IS NULL", "cat != 'xyz1'",
	},
	"zonemap_deleted.lance": {"id = 4", "id = 15", "id > 9990", "id < 20", "id IS NULL"},
	"scalar_delta.lance":    {"id > 290", "cat = 'blue'", "id IN (1, 310)", "id = 305", "array_has_any(tags, ['c'])"},
}

type indexAnswer struct {
	RowAddr []string `json:"rowaddr"`
	ID      []*int64 `json:"id"`
	Count   uint64   `json:"count"`
	Indexed bool     `json:"indexed"`
}

// pylanceIndexAnswers builds the datasets and pylance's answers once.
func pylanceIndexAnswers(t *testing.T) (string, map[string][]indexAnswer) {
	t.Helper()
	py := testkit.LancePython()
	if py == "" {
		t.Skip("no pylance (set LANCE_PY)")
	}
	if _, err := os.Stat("/work/shared/spec/indices/make_indices.py"); err != nil {
		t.Skip("make_indices.py not available")
	}
	arg, _ := json.Marshal(indexFilterCases)
	cmd := exec.Command(py, filepath.Join("testdata", "filter_index_expect.py"), t.TempDir(), string(arg))
	cmd.Stderr = os.Stderr
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("pylance: %v", err)
	}
	var res struct {
		Dir   string                   `json:"dir"`
		Cases map[string][]indexAnswer `json:"cases"`
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	return res.Dir, res.Cases
}

// scanAddrs runs a filtered scan returning the row addresses and ids in
// scan order.
func scanAddrs(ctx context.Context, ds *Dataset, filter string, o DatasetScanOptions) ([]string, []*int64, error) {
	o.FilterSQL = filter
	o.Columns, o.WithRowAddress = []string{"id"}, true
	var addrs []string
	var ids []*int64
	for rec, err := range ds.Batches(ctx, o) {
		if err != nil {
			return nil, nil, err
		}
		id := rec.Column(0).(*array.Int64)
		ra := rec.Column(1).(*array.Uint64)
		for i := 0; i < int(rec.NumRows()); i++ {
			addrs = append(addrs, strconv.FormatUint(ra.Value(i), 10))
			if id.IsNull(i) {
				ids = append(ids, nil)
			} else {
				v := id.Value(i)
				ids = append(ids, &v)
			}
		}
		rec.Release()
	}
	return addrs, ids, nil
}

// TestIndexedFiltersMatchPylance: filtered scans and counts over pylance
// datasets with BTREE, BITMAP, LABEL_LIST and ZONEMAP indices (deletions,
// unindexed fragments, stable row ids, delta segments) return pylance's
// rows in pylance's order, use an index wherever pylance's plan does, and
// agree with the same scan without indices.
func TestIndexedFiltersMatchPylance(t *testing.T) {
	dir, answers := pylanceIndexAnswers(t)
	ctx := context.Background()
	for name, filters := range indexFilterCases {
		ds, err := OpenDataset(ctx, filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range filters {
			want := answers[name][i]
			var st IndexScanStats
			addrs, ids, err := scanAddrs(ctx, ds, f, DatasetScanOptions{OnIndexStats: func(s IndexScanStats) { st = s }})
			if err != nil {
				t.Errorf("%s %q: %v", name, f, err)
				continue
			}
			if !slices.Equal(addrs, want.RowAddr) || !equalIDs(ids, want.ID) {
				t.Errorf("%s %q: %d rows %v, pylance %d rows %v (stats %+v)", name, f, len(addrs), headS(addrs), len(want.RowAddr), headS(want.RowAddr), st)
			}
			if want.Indexed && len(st.Uses) == 0 {
				t.Errorf("%s %q: pylance's plan uses a scalar index, ours none", name, f)
			}
			plain, _, err := scanAddrs(ctx, ds, f, DatasetScanOptions{NoScalarIndex: true})
			if err != nil || !slices.Equal(plain, addrs) {
				t.Errorf("%s %q: without indices %d rows (%v), with %d", name, f, len(plain), err, len(addrs))
			}
			e, err := expr.Parse(f)
			if err != nil {
				t.Fatal(err)
			}
			if n, err := ds.CountRowsWhere(ctx, e); err != nil || n != want.Count {
				t.Errorf("%s %q: count %d (%v), pylance %d", name, f, n, err, want.Count)
			}
		}
		ds.Close()
	}
}

func equalIDs(a, b []*int64) bool {
	return slices.EqualFunc(a, b, func(x, y *int64) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) })
}

func headS(v []string) []string { return v[:min(len(v), 10)] }
