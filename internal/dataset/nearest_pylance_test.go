package dataset

import (
	"context"
	"encoding/json"
	"math"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/internal/testkit"
	"github.com/lancego/lancego/vector"
)

// nearestScript builds multi-fragment datasets with deletions and vector
// columns of every element type with pylance, and prints pylance's answers
// to exact nearest-neighbour queries (use_index=False) as JSON.
const nearestScript = `
import json, sys, lance, numpy as np, pyarrow as pa
root = sys.argv[1]
rng = np.random.default_rng(7)
n, dim = 500, 16
cols = {'id': pa.array(range(n), pa.int64())}
base = rng.standard_normal((n, dim))
base[10] = base[11]  # a tie: equal distances, ordered by row id
for name, dt in [('f32', 'float32'), ('f16', 'float16'), ('f64', 'float64')]:
    cols[name] = pa.FixedSizeListArray.from_arrays(pa.array(base.astype(dt).ravel()), dim)
bits = rng.integers(0, 256, (n, 8), dtype=np.uint8)
cols['u8'] = pa.FixedSizeListArray.from_arrays(pa.array(bits.ravel()), 8)
ds = lance.write_dataset(pa.table(cols), root + '/ds', max_rows_per_file=130)
ds.delete('id % 7 = 3')
cases = []
def run(column, metric, q, k, filt=None, pre=False, rng_=None):
    nearest = {'column': column, 'q': q, 'k': k, 'metric': metric, 'use_index': False}
    if rng_ is not None:
        nearest['distance_range'] = rng_
    t = ds.to_table(nearest=nearest, filter=filt, prefilter=pre, with_row_id=True, columns=['id'])
    cases.append({'column': column, 'metric': metric, 'q': [float(x) for x in q], 'k': k,
                  'filter': filt or '', 'prefilter': pre, 'range': rng_,
                  'ids': t['id'].to_pylist(), 'rowids': [str(x) for x in t['_rowid'].to_pylist()],
                  'dist': t['_distance'].to_pylist()})
for column in ['f32', 'f16', 'f64']:
    for metric in ['l2', 'cosine', 'dot']:
        q = rng.standard_normal(dim)
        run(column, metric, q, 10)
        run(column, metric, base[11], 5)
        run(column, metric, q, 10, 'id > 250', True)
        run(column, metric, q, 10, 'id > 250', False)
        run(column, metric, q, 1000)
run('f32', 'l2', base[3], 7)  # row 3 is deleted
run('f32', 'l2', rng.standard_normal(dim), 10, rng_=(20.0, 30.0))
for k in [1, 10, 600]:
    run('u8', 'hamming', [float(x) for x in rng.integers(0, 256, 8)], k)
run('u8', 'hamming', [float(x) for x in bits[5]], 10, 'id < 100', True)
run('u8', 'hamming', [float(x) for x in bits[5]], 10, 'id < 100', False)
print(json.dumps(cases))
`

type nearestCase struct {
	Column    string     `json:"column"`
	Metric    string     `json:"metric"`
	Q         []float64  `json:"q"`
	K         int        `json:"k"`
	Filter    string     `json:"filter"`
	Prefilter bool       `json:"prefilter"`
	Range     []float32  `json:"range"`
	IDs       []int64    `json:"ids"`
	RowIDs    []string   `json:"rowids"`
	Dist      []*float64 `json:"dist"`
}

func TestNearestMatchesPylance(t *testing.T) {
	py := testkit.LancePython()
	if py == "" {
		t.Skip("no pylance (set LANCE_PY)")
	}
	dir := t.TempDir()
	out, err := exec.Command(py, "-c", nearestScript, dir).Output()
	if err != nil {
		t.Fatalf("pylance: %v", err)
	}
	var cases []nearestCase
	if err := json.Unmarshal(out, &cases); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ds, err := OpenDataset(ctx, filepath.Join(dir, "ds"))
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	for i, c := range cases {
		m, err := vector.ParseMetric(c.Metric)
		if err != nil {
			t.Fatal(err)
		}
		q := VectorQuery{Column: c.Column, Vector: c.Q, K: c.K, Metric: m, Filter: c.Filter,
			Prefilter: c.Prefilter, NoIndex: true, Columns: []string{"id"}, WithRowID: true}
		if c.Range != nil {
			q.DistanceRange = &DistanceRange{c.Range[0], c.Range[1]}
		}
		rec, err := ds.Nearest(ctx, q)
		if err != nil {
			t.Errorf("case %d %+v: %v", i, q, err)
			continue
		}
		checkNearest(t, i, c, rec)
		rec.Release()
	}
}

func checkNearest(t *testing.T, i int, c nearestCase, rec arrow.RecordBatch) {
	t.Helper()
	if int(rec.NumRows()) != len(c.IDs) {
		t.Errorf("case %d (%s %s k=%d filter %q pre %v): %d rows, pylance %d", i, c.Column, c.Metric, c.K, c.Filter, c.Prefilter, rec.NumRows(), len(c.IDs))
		return
	}
	if rec.NumCols() != 3 || rec.Schema().Field(1).Name != DistanceColumn || rec.Schema().Field(2).Name != RowIDColumn {
		t.Fatalf("case %d: schema %s", i, rec.Schema())
	}
	ids := rec.Column(0).(*array.Int64)
	dist := rec.Column(1).(*array.Float32)
	rowids := rec.Column(2).(*array.Uint64)
	for r := range c.IDs {
		want := *c.Dist[r]
		got := float64(dist.Value(r))
		if ids.Value(r) != c.IDs[r] || strconv.FormatUint(rowids.Value(r), 10) != c.RowIDs[r] ||
			math.Abs(got-want) > 1e-4*math.Max(1, math.Abs(want)) {
			t.Errorf("case %d (%s %s k=%d filter %q pre %v) row %d: id %d rowid %d distance %v, pylance id %d rowid %s distance %v",
				i, c.Column, c.Metric, c.K, c.Filter, c.Prefilter, r, ids.Value(r), rowids.Value(r), got, c.IDs[r], c.RowIDs[r], want)
			return
		}
	}
}
