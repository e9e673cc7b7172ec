package dataset

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/scalar"

	"github.com/lancego/lancego/internal/filewriter"
	"github.com/lancego/lancego/internal/testkit"
)

// statsScript builds datasets with pylance: every storage version (2.0,
// 2.1, 2.2, legacy) of a table of flat, string, dictionary-prone, struct,
// list and binary columns over four fragments with deletions in three;
// then the 2.2 one evolved (added columns: a second data file per
// fragment; a dropped column whose bytes stay in the files; a renamed
// column; more deletions); one whose every row is deleted; and 2.2 and
// 2.3 ones of a packed struct, a blob, a fixed-size list and a map. It prints
// pylance's statistics of each: count_rows, stats.dataset_stats(),
// stats.data_stats() and every fragment's rows.
const statsScript = `
import json, sys, lance, pyarrow as pa
root = sys.argv[1]
n = 1000
def table(v='2.2'):
    return pa.table({
        'id': pa.array(range(n), pa.int64()),
        's': pa.array([None if i % 7 == 0 else 'str%d' % (i * 37 % 1000) for i in range(n)]),
        'cat': pa.array(['red', 'green', 'blue'][i % 3] for i in range(n)),
        'st': pa.array([None if i % 11 == 0 and v != '2.0' else {'a': i, 'b': 'x' * (i % 5)} for i in range(n)]),
        'l': pa.array([None if i % 13 == 0 else [i] * (i % 4) for i in range(n)], pa.list_(pa.int32())),
        'ls': pa.array([['a%d' % j for j in range(i % 3)] for i in range(n)], pa.list_(pa.string())),
        'f': pa.array([float(i) / 3 for i in range(n)]),
        'bin': pa.array([bytes([i % 256]) * (i % 9) for i in range(n)], pa.binary()),
    })
out = []
def report(name, ds):
    ds = lance.dataset(ds.uri)
    frags = []
    for f in ds.get_fragments():
        m = f.metadata
        frags.append({'id': m.id, 'physical_rows': f.physical_rows, 'live_rows': f.count_rows(),
                      'deleted_rows': f.physical_rows - f.count_rows()})
    st = ds.stats.dataset_stats()
    out.append({'name': name, 'version': ds.version, 'rows': ds.count_rows(),
                'deleted_rows': st['num_deleted_rows'], 'num_fragments': st['num_fragments'],
                'fields': [[f.id, f.bytes_on_disk] for f in ds.stats.data_stats().fields],
                'fragments': frags})
for v in ['2.0', '2.1', '2.2', 'legacy']:
    ds = lance.write_dataset(table(v), root + '/' + v, max_rows_per_file=300, data_storage_version=v)
    ds.delete('id % 5 = 0 AND id < 600')
    report(v, ds)
ds = lance.dataset(root + '/2.2')
ds.add_columns({'z': 'id * 2', 'zs': "concat('q', cast(id as string))"})
lance.dataset(root + '/2.2').drop_columns(['f'])
lance.dataset(root + '/2.2').alter_columns({'path': 's', 'name': 's2'})
ds = lance.dataset(root + '/2.2')
ds.delete('id > 950')
report('2.2-evolved', ds)
ds = lance.write_dataset(table(), root + '/gone', max_rows_per_file=400)
ds.delete('true')
report('gone', ds)
def wide():
    m = 600
    t = pa.table({
        'id': pa.array(range(m), pa.int64()),
        'ps': pa.array([{'a': i, 'b': float(i)} for i in range(m)], pa.struct([('a', pa.int32()), ('b', pa.float64())])),
        'blob': pa.array([b'x' * (i % 50) for i in range(m)], pa.large_binary()),
        'fsl': pa.FixedSizeListArray.from_arrays(pa.array([float(i) for i in range(m * 4)], pa.float32()), 4),
        'm': pa.array([[('k%d' % i, i)] for i in range(m)], pa.map_(pa.string(), pa.int64())),
    })
    s = t.schema
    s = s.set(1, s.field(1).with_metadata({'packed': 'true'}))
    s = s.set(2, s.field(2).with_metadata({'lance-encoding:blob': 'true'}))
    return t.cast(s)
for v in ['2.2', '2.3']:
    ds = lance.write_dataset(wide(), root + '/wide-' + v, max_rows_per_file=250, data_storage_version=v)
    ds.delete('id % 9 = 0')
    report('wide-' + v, ds)
print(json.dumps(out))
`

// pyStats is pylance's statistics of one dataset (statsScript).
type pyStats struct {
	Name         string     `json:"name"`
	Version      uint64     `json:"version"`
	Rows         uint64     `json:"rows"`
	DeletedRows  uint64     `json:"deleted_rows"`
	NumFragments int        `json:"num_fragments"`
	Fields       [][2]int64 `json:"fields"`
	Fragments    []struct {
		ID           uint64 `json:"id"`
		PhysicalRows uint64 `json:"physical_rows"`
		LiveRows     uint64 `json:"live_rows"`
		DeletedRows  uint64 `json:"deleted_rows"`
	} `json:"fragments"`
}

// runPython runs a pylance script with args and returns its stdout.
func runPython(t *testing.T, script string, args ...string) []byte {
	t.Helper()
	py := testkit.LancePython()
	if py == "" {
		t.Skip("no pylance (set LANCE_PY)")
	}
	cmd := exec.Command(py, append([]string{"-c", script}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pylance: %v\n%s", err, stderr.String())
	}
	return out
}

// TestTableStatsMatchesPylance compares TableStats with pylance's
// data_stats (bytes on disk of every field, exactly), dataset_stats and
// fragment row counts, on datasets of every storage version, evolved
// schemas and a dataset without fragments.
func TestTableStatsMatchesPylance(t *testing.T) {
	dir := t.TempDir()
	var cases []pyStats
	if err := json.Unmarshal(runPython(t, statsScript, dir), &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) != 8 {
		t.Fatalf("%d cases", len(cases))
	}
	ctx := context.Background()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			name := c.Name
			if name == "2.2-evolved" {
				name = "2.2"
			}
			ds, err := OpenDataset(ctx, filepath.Join(dir, name), WithVersion(c.Version))
			if err != nil {
				t.Fatal(err)
			}
			defer ds.Close()
			st, err := ds.TableStats(ctx)
			if err != nil {
				t.Fatal(err)
			}
			checkAgainstPylance(t, st, c)
		})
	}
}

// checkAgainstPylance compares one TableStats with pylance's answers.
func checkAgainstPylance(t *testing.T, st TableStats, c pyStats) {
	t.Helper()
	if st.Version != c.Version || st.LiveRows != c.Rows || st.DeletedRows != c.DeletedRows || len(st.Fragments) != c.NumFragments {
		t.Errorf("version %d rows %d deleted %d fragments %d; pylance %d %d %d %d",
			st.Version, st.LiveRows, st.DeletedRows, len(st.Fragments), c.Version, c.Rows, c.DeletedRows, c.NumFragments)
	}
	var got [][2]int64
	for _, f := range st.Fields {
		got = append(got, [2]int64{int64(f.ID), int64(f.DataBytes)})
	}
	if fmt.Sprint(got) != fmt.Sprint(c.Fields) {
		t.Errorf("field bytes\n got %v\nwant %v (pylance data_stats)", got, c.Fields)
	}
	var fieldTotal, fragTotal uint64
	for _, f := range c.Fields {
		fieldTotal += uint64(f[1])
	}
	for _, f := range st.Fragments {
		fragTotal += f.DataBytes
	}
	if fragTotal != fieldTotal {
		t.Errorf("fragments hold %d bytes, pylance's fields %d", fragTotal, fieldTotal)
	}
	if len(c.Fragments) != len(st.Fragments) {
		return
	}
	for i, pf := range c.Fragments {
		f := st.Fragments[i]
		if f.ID != pf.ID || f.PhysicalRows != pf.PhysicalRows || f.LiveRows != pf.LiveRows || f.DeletedRows != pf.DeletedRows {
			t.Errorf("fragment %d: %+v; pylance %+v", i, f, pf)
		}
		if f.Columns != nil {
			t.Errorf("fragment %d: zone statistics %v from files pylance wrote without seeds", f.ID, f.Columns)
		}
	}
}

// seedStatsScript deletes rows of a dataset lancego wrote with zone
// seeds, then prints, for every fragment of version 1 (before the delete,
// the physical rows the seeds describe), each column's null count, NaN
// count and the min and max of the other values as pyarrow computes them;
// and the statistics of the latest version as statsScript does.
const seedStatsScript = `
import json, sys, lance, pyarrow as pa, pyarrow.compute as pc
root = sys.argv[1]
lance.dataset(root).delete('i % 7 = 0')
v1 = lance.dataset(root, version=1)
frags = []
for f in v1.get_fragments():
    t = f.to_table()
    cols = {}
    for name in t.column_names:
        a = t[name].combine_chunks()
        nans = 0
        if pa.types.is_floating(a.type):
            isnan = pc.fill_null(pc.is_nan(a), False)
            nans = pc.sum(isnan).as_py() or 0
            a = a.filter(pc.invert(isnan))
        lo = hi = None
        if not pa.types.is_nested(a.type):
            mm = pc.min_max(a).as_py()
            lo, hi = mm['min'], mm['max']
        cols[name] = {'nulls': t[name].null_count, 'nans': nans, 'min': lo, 'max': hi}
    frags.append({'id': f.fragment_id, 'rows': t.num_rows, 'columns': cols})
ds = lance.dataset(root)
st = ds.stats.dataset_stats()
print(json.dumps({'version': ds.version, 'rows': ds.count_rows(), 'deleted_rows': st['num_deleted_rows'],
  'num_fragments': st['num_fragments'], 'fields': [[f.id, f.bytes_on_disk] for f in ds.stats.data_stats().fields],
  'fragments': [{'id': f.fragment_id, 'physical_rows': f.physical_rows, 'live_rows': f.count_rows(),
                 'deleted_rows': f.physical_rows - f.count_rows()} for f in ds.get_fragments()],
  'v1': frags}))
`

// pySeedCol is pylance's statistics of one column of one fragment.
type pySeedCol struct {
	Nulls    uint64 `json:"nulls"`
	NaNs     uint64 `json:"nans"`
	Min, Max any
}

// seedTable is a record of every kind of seeded column: nullable ints,
// floats with NaNs and nulls, strings, bools, an all-null column and a
// list (counts only).
func seedTable(mem memory.Allocator, n int) arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "none", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for k := range n {
		ib := b.Field(0).(*array.Int64Builder)
		if k%9 == 4 {
			ib.AppendNull()
		} else {
			ib.Append(int64(k*7919%1000) - 300)
		}
		fb := b.Field(1).(*array.Float64Builder)
		switch {
		case k%17 == 3:
			fb.AppendNull()
		case k%10 == 0:
			fb.Append(math.NaN())
		default:
			fb.Append(float64(k%613)/7 - 40)
		}
		sb := b.Field(2).(*array.StringBuilder)
		if k%5 == 1 {
			sb.AppendNull()
		} else {
			sb.Append(fmt.Sprintf("v%04d", k*37%2000))
		}
		b.Field(3).(*array.BooleanBuilder).Append(k%3 == 0 && k > 200)
		b.Field(4).AppendNull()
		lb := b.Field(5).(*array.ListBuilder)
		if k%6 == 2 {
			lb.AppendNull()
		} else {
			lb.Append(true)
			lb.ValueBuilder().(*array.Int32Builder).Append(int32(k))
		}
	}
	return b.NewRecordBatch()
}

// TestTableStatsZoneSeedsMatchPylance writes a dataset with zone seeds
// (pylance 14.0.2 writes none), lets pylance delete rows, and checks every
// fragment's per-column statistics against pylance's null counts, NaN
// counts and min/max of the fragment's rows before the delete (seeds
// describe physical rows), and the rest of TableStats against pylance's.
func TestTableStatsZoneSeedsMatchPylance(t *testing.T) {
	if testkit.LancePython() == "" {
		t.Skip("no pylance (set LANCE_PY)")
	}
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := filepath.Join(t.TempDir(), "ds")
	rec := seedTable(mem, 1000)
	rdr, err := array.NewRecordReader(rec.Schema(), []arrow.RecordBatch{rec})
	rec.Release()
	if err != nil {
		t.Fatal(err)
	}
	ds, err := CreateDataset(ctx, dir, rdr, WithMaxRowsPerFile(300), WithFileOptions(filewriter.WithZoneSeeds(64)))
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	ds.Close()
	var want struct {
		pyStats
		V1 []struct {
			ID      uint64               `json:"id"`
			Rows    uint64               `json:"rows"`
			Columns map[string]pySeedCol `json:"columns"`
		} `json:"v1"`
	}
	dec := json.NewDecoder(bytes.NewReader(runPython(t, seedStatsScript, dir)))
	dec.UseNumber()
	if err := dec.Decode(&want); err != nil {
		t.Fatal(err)
	}
	ds, err = OpenDataset(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	st, err := ds.TableStats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.DeletedRows == 0 || len(st.Fragments) != 4 || len(want.V1) != 4 {
		t.Fatalf("deleted %d, %d fragments, pylance %d before the delete", st.DeletedRows, len(st.Fragments), len(want.V1))
	}
	for i := range st.Fragments {
		st.Fragments[i].Columns, want.V1[i].Columns = checkSeedColumns(t, st.Fragments[i], want.V1[i].ID, want.V1[i].Rows, want.V1[i].Columns), nil
	}
	checkAgainstPylance(t, st, want.pyStats)
}

// checkSeedColumns compares a fragment's zone statistics with pylance's
// and returns nil (checkAgainstPylance wants none left).
func checkSeedColumns(t *testing.T, f FragmentStats, id, rows uint64, want map[string]pySeedCol) []ColumnStats {
	t.Helper()
	if f.ID != id || len(f.Columns) != len(want) {
		t.Fatalf("fragment %d: %d seeded columns; pylance's fragment %d has %d", f.ID, len(f.Columns), id, len(want))
	}
	for _, c := range f.Columns {
		w, ok := want[c.Column]
		if !ok {
			t.Errorf("fragment %d: column %q unknown to pylance", f.ID, c.Column)
			continue
		}
		if c.Rows != rows || c.NullCount != w.Nulls || c.NaNCount != w.NaNs {
			t.Errorf("fragment %d column %s: rows %d nulls %d nans %d; pylance %d %d %d", f.ID, c.Column, c.Rows, c.NullCount, c.NaNCount, rows, w.Nulls, w.NaNs)
		}
		if lo, hi := scalarValue(c.Min), scalarValue(c.Max); !sameValue(lo, w.Min) || !sameValue(hi, w.Max) {
			t.Errorf("fragment %d column %s: min %v max %v; pylance %v %v", f.ID, c.Column, lo, hi, w.Min, w.Max)
		}
	}
	return nil
}

// scalarValue is a bound as a Go value: int64, float64, string, bool or
// nil.
func scalarValue(s scalar.Scalar) any {
	switch v := s.(type) {
	case nil:
		return nil
	case *scalar.Int64:
		return v.Value
	case *scalar.Float64:
		return v.Value
	case *scalar.String:
		return string(v.Data())
	case *scalar.Boolean:
		return v.Value
	}
	return fmt.Sprintf("unexpected %T", s)
}

// sameValue compares a bound with pylance's JSON value (numbers decoded
// as json.Number).
func sameValue(got, want any) bool {
	n, ok := want.(json.Number)
	if !ok {
		return got == want
	}
	switch g := got.(type) {
	case int64:
		w, err := n.Int64()
		return err == nil && w == g
	case float64:
		w, err := n.Float64()
		return err == nil && w == g
	}
	return false
}

// compatStatsScript prints pylance's statistics (as statsScript does) of
// the latest version of each dataset named on the command line, or the
// error pylance gives.
const compatStatsScript = `
import json, sys, lance
out = []
for uri in sys.argv[1:]:
    try:
        ds = lance.dataset(uri)
        frags = []
        for f in ds.get_fragments():
            m = f.metadata
            frags.append({'id': m.id, 'physical_rows': f.physical_rows, 'live_rows': f.count_rows(),
                          'deleted_rows': f.physical_rows - f.count_rows()})
        st = ds.stats.dataset_stats()
        out.append({'name': uri, 'version': ds.version, 'rows': ds.count_rows(),
                    'deleted_rows': st['num_deleted_rows'], 'num_fragments': st['num_fragments'],
                    'fields': [[f.id, f.bytes_on_disk] for f in ds.stats.data_stats().fields],
                    'fragments': frags})
    except Exception as e:
        out.append({'name': uri, 'error': str(e)})
print(json.dumps(out))
`

// TestTableStatsCompatDatasets compares TableStats with pylance on the
// datasets old Lance releases wrote (testdata/compat), where pylance
// 14.0.2 reads them.
func TestTableStatsCompatDatasets(t *testing.T) {
	if testkit.LancePython() == "" {
		t.Skip("no pylance (set LANCE_PY)")
	}
	exp, err := filepath.Glob(filepath.Join("..", "..", "testdata", "compat", "*", "*.expected.json"))
	if err != nil || len(exp) == 0 {
		t.Fatalf("no compat datasets (%v)", err)
	}
	var dirs []string
	for _, e := range exp {
		dirs = append(dirs, strings.TrimSuffix(e, ".expected.json"))
	}
	var cases []struct {
		pyStats
		Error string `json:"error"`
	}
	if err := json.Unmarshal(runPython(t, compatStatsScript, dirs...), &cases); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	checked := 0
	for _, c := range cases {
		t.Run(strings.TrimPrefix(c.Name, filepath.Join("..", "..", "testdata", "compat")+"/"), func(t *testing.T) {
			if c.Error != "" {
				t.Skipf("pylance: %s", c.Error)
			}
			ds, err := OpenDataset(ctx, c.Name)
			if err != nil {
				t.Fatal(err)
			}
			defer ds.Close()
			st, err := ds.TableStats(ctx)
			if err != nil {
				t.Fatal(err)
			}
			checkAgainstPylance(t, st, c.pyStats)
			checked++
		})
	}
	if checked < len(cases)/2 {
		t.Errorf("only %d of %d compat datasets checked", checked, len(cases))
	}
}
