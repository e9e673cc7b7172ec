package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	lance "github.com/lancego/lancego"
	"github.com/lancego/lancego/internal/testkit"
)

// statsCmdScript builds a dataset with pylance (flat, string, struct and
// list columns; four fragments, deletions in some; an added column in a
// second data file per fragment) and prints pylance's statistics.
const statsCmdScript = `
import json, sys, lance, pyarrow as pa
root = sys.argv[1]
n = 700
t = pa.table({
    'id': pa.array(range(n), pa.int64()),
    's': pa.array([None if i % 7 == 0 else 'v%d' % (i * 31 % 500) for i in range(n)]),
    'st': pa.array([None if i % 11 == 0 else {'a': i, 'b': 'x' * (i % 5)} for i in range(n)]),
    'l': pa.array([[i] * (i % 4) for i in range(n)], pa.list_(pa.int32())),
})
ds = lance.write_dataset(t, root, max_rows_per_file=200)
ds.add_columns({'z': 'id * 3'})
lance.dataset(root).delete('id % 4 = 1 AND id >= 200')
print(json.dumps(pyStats(lance.dataset(root))))
`

// pyStatsFunc is the Python function both scripts print statistics with.
const pyStatsFunc = `
def pyStats(ds):
    st = ds.stats.dataset_stats()
    return {'version': ds.version, 'live_rows': ds.count_rows(), 'deleted_rows': st['num_deleted_rows'],
            'num_fragments': st['num_fragments'],
            'fragments': [{'id': f.fragment_id, 'physical_rows': f.physical_rows,
                           'deleted_rows': f.physical_rows - f.count_rows(), 'live_rows': f.count_rows()}
                          for f in ds.get_fragments()],
            'fields': [{'id': f.id, 'bytes_on_disk': f.bytes_on_disk} for f in ds.stats.data_stats().fields]}
`

// pylanceJSON runs a script (with pyStats defined) and returns its output.
func pylanceJSON(t *testing.T, script string, args ...string) []byte {
	t.Helper()
	py := testkit.LancePython()
	if py == "" {
		t.Skip("no pylance (set LANCE_PY)")
	}
	lines := strings.SplitN(script, "\n", 3) // after the import line
	full := lines[0] + "\n" + lines[1] + "\n" + pyStatsFunc + lines[2]
	cmd := exec.Command(py, append([]string{"-c", full}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pylance: %v\n%s", err, stderr.String())
	}
	return out
}

// statsJSON runs `lance stats DIR --json` and decodes it.
func statsJSON(t *testing.T, dir string) tableStatsReport {
	t.Helper()
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"stats", dir, "--json"}, &out, &errb); err != nil {
		t.Fatalf("lance stats: %v (%s)", err, errb.String())
	}
	var rep tableStatsReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	return rep
}

// pyStatsJSON is pylance's statistics as pyStats prints them.
type pyStatsJSON struct {
	Version      uint64              `json:"version"`
	LiveRows     uint64              `json:"live_rows"`
	DeletedRows  uint64              `json:"deleted_rows"`
	NumFragments int                 `json:"num_fragments"`
	Fragments    []fragmentStatsJSON `json:"fragments"`
	Fields       []struct {
		ID    int32  `json:"id"`
		Bytes uint64 `json:"bytes_on_disk"`
	} `json:"fields"`
}

// compareStats compares the report (zone statistics aside) with pylance's.
func compareStats(t *testing.T, rep tableStatsReport, want pyStatsJSON) {
	t.Helper()
	if rep.Version != want.Version || rep.LiveRows != want.LiveRows || rep.DeletedRows != want.DeletedRows || rep.NumFragments != want.NumFragments {
		t.Errorf("version %d rows %d deleted %d fragments %d; pylance %d %d %d %d", rep.Version, rep.LiveRows,
			rep.DeletedRows, rep.NumFragments, want.Version, want.LiveRows, want.DeletedRows, want.NumFragments)
	}
	var got, exp []string
	for _, f := range rep.Fragments {
		got = append(got, fmt.Sprint(f.ID, f.PhysicalRows, f.DeletedRows, f.LiveRows))
	}
	for _, f := range want.Fragments { // pylance has no bytes per fragment
		exp = append(exp, fmt.Sprint(f.ID, f.PhysicalRows, f.DeletedRows, f.LiveRows))
	}
	if fmt.Sprint(got) != fmt.Sprint(exp) {
		t.Errorf("fragments %v; pylance %v", got, exp)
	}
	got, exp = nil, nil
	for _, f := range rep.Fields {
		got = append(got, fmt.Sprint(f.ID, ":", f.BytesOnDisk))
	}
	for _, f := range want.Fields {
		exp = append(exp, fmt.Sprint(f.ID, ":", f.Bytes))
	}
	if fmt.Sprint(got) != fmt.Sprint(exp) {
		t.Errorf("field bytes %v; pylance data_stats %v", got, exp)
	}
	var fieldTotal, fragTotal uint64
	for _, f := range want.Fields {
		fieldTotal += f.Bytes
	}
	for _, f := range rep.Fragments {
		fragTotal += f.BytesOnDisk
	}
	if fragTotal != fieldTotal || fieldTotal == 0 {
		t.Errorf("fragments hold %d bytes, pylance's fields %d", fragTotal, fieldTotal)
	}
}

// TestStatsCommandMatchesPylance: `lance stats --json` says what pylance
// says of a pylance-written dataset, and the table shows the same numbers.
func TestStatsCommandMatchesPylance(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	var want pyStatsJSON
	if err := json.Unmarshal(pylanceJSON(t, statsCmdScript, dir), &want); err != nil {
		t.Fatal(err)
	}
	rep := statsJSON(t, dir)
	compareStats(t, rep, want)
	for _, f := range rep.Fragments {
		if f.Columns != nil {
			t.Errorf("fragment %d: zone statistics without seeds", f.ID)
		}
	}
	if want.DeletedRows == 0 || len(want.Fields) != 8 {
		t.Fatalf("pylance's dataset: %+v", want)
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"stats", dir}, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	head := fmt.Sprintf("version %d: %d live rows, %d deleted, %d fragment(s)", want.Version, want.LiveRows, want.DeletedRows, want.NumFragments)
	if !strings.Contains(text, head) || !strings.Contains(text, "zone statistics: none") {
		t.Errorf("table lacks %q:\n%s", head, text)
	}
	for _, f := range rep.Fields {
		line := regexp.MustCompile(fmt.Sprintf(`(?m)^%s +%d +%d$`, regexp.QuoteMeta(f.Path), f.ID, f.BytesOnDisk))
		if !line.MatchString(text) {
			t.Errorf("table lacks field %s (%d, %d bytes):\n%s", f.Path, f.ID, f.BytesOnDisk, text)
		}
	}
}

// seedCmdScript deletes rows of a dataset lancego wrote with zone seeds
// and prints pylance's statistics, plus each fragment's null counts, NaN
// counts and min/max (dates in ISO form) before the delete.
const seedCmdScript = `
import json, sys, lance, pyarrow as pa, pyarrow.compute as pc
root = sys.argv[1]
lance.dataset(root).delete('i % 3 = 0')
out = pyStats(lance.dataset(root))
zones = []
for f in lance.dataset(root, version=1).get_fragments():
    t = f.to_table()
    cols = []
    for name in t.column_names:
        a = t[name].combine_chunks()
        nans = 0
        if pa.types.is_floating(a.type):
            isnan = pc.fill_null(pc.is_nan(a), False)
            nans = pc.sum(isnan).as_py() or 0
            a = a.filter(pc.invert(isnan))
        mm = pc.min_max(a).as_py()
        lo, hi = mm['min'], mm['max']
        if pa.types.is_date(a.type):
            lo, hi = lo and lo.isoformat(), hi and hi.isoformat()
        cols.append({'column': name, 'rows': t.num_rows, 'null_count': t[name].null_count, 'nan_count': nans,
                     'min': lo, 'max': hi})
    zones.append(cols)
out['zones'] = zones
print(json.dumps(out))
`

// TestStatsCommandZoneSeeds: on a dataset written with zone seeds, each
// fragment's column statistics in `lance stats --json` are pylance's
// counts and min/max over the fragment's physical rows.
func TestStatsCommandZoneSeeds(t *testing.T) {
	if testkit.LancePython() == "" {
		t.Skip("no pylance (set LANCE_PY)")
	}
	dir := filepath.Join(t.TempDir(), "ds")
	writeSeededDataset(t, dir)
	var want struct {
		pyStatsJSON
		Zones [][]map[string]any `json:"zones"`
	}
	dec := json.NewDecoder(bytes.NewReader(pylanceJSON(t, seedCmdScript, dir)))
	dec.UseNumber()
	if err := dec.Decode(&want); err != nil {
		t.Fatal(err)
	}
	rep := statsJSON(t, dir)
	compareStats(t, rep, want.pyStatsJSON)
	if len(rep.Fragments) != len(want.Zones) || len(rep.Fragments) != 3 {
		t.Fatalf("%d fragments; pylance %d before the delete", len(rep.Fragments), len(want.Zones))
	}
	for i, f := range rep.Fragments {
		if len(f.Columns) != len(want.Zones[i]) {
			t.Fatalf("fragment %d: %d seeded columns; pylance %d", f.ID, len(f.Columns), len(want.Zones[i]))
		}
		for j, c := range f.Columns {
			w := want.Zones[i][j]
			got := map[string]any{"column": c.Column, "rows": json.Number(fmt.Sprint(c.Rows)),
				"null_count": json.Number(fmt.Sprint(c.NullCount)), "nan_count": json.Number(fmt.Sprint(c.NaNCount))}
			for _, k := range []string{"column", "rows", "null_count", "nan_count"} {
				if got[k] != w[k] {
					t.Errorf("fragment %d column %s: %s %v; pylance %v", f.ID, c.Column, k, got[k], w[k])
				}
			}
			for k, raw := range map[string]json.RawMessage{"min": c.Min, "max": c.Max} {
				if !sameJSONValue(t, raw, w[k]) {
					t.Errorf("fragment %d column %s: %s %s; pylance %v", f.ID, c.Column, k, raw, w[k])
				}
			}
		}
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"stats", dir}, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "zone statistics (physical rows") || !strings.Contains(out.String(), `"v0001"`) {
		t.Errorf("table lacks the zone statistics:\n%s", out.String())
	}
}

// sameJSONValue compares a min/max of the report with pylance's value
// (numbers numerically: the shortest float forms may be spelled apart).
func sameJSONValue(t *testing.T, raw json.RawMessage, want any) bool {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var got any
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	gn, ok1 := got.(json.Number)
	wn, ok2 := want.(json.Number)
	if ok1 && ok2 {
		g, err1 := gn.Float64()
		w, err2 := wn.Float64()
		return err1 == nil && err2 == nil && g == w
	}
	return got == want
}

// writeSeededDataset writes, through the root package, a dataset of three
// fragments whose data files carry zone seeds of every column.
func writeSeededDataset(t *testing.T, dir string) {
	t.Helper()
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "d", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for k := range 500 {
		if k%8 == 5 {
			b.Field(0).AppendNull()
		} else {
			b.Field(0).(*array.Int64Builder).Append(int64(k*7919%1000) - 250)
		}
		switch {
		case k%13 == 2:
			b.Field(1).AppendNull()
		case k%9 == 0:
			b.Field(1).(*array.Float64Builder).Append(math.NaN())
		default:
			b.Field(1).(*array.Float64Builder).Append(float64(k%97)/3 + 0.25)
		}
		if k%6 == 3 {
			b.Field(2).AppendNull()
		} else {
			b.Field(2).(*array.StringBuilder).Append(fmt.Sprintf("v%04d", k*13%900+1))
		}
		b.Field(3).(*array.Date32Builder).Append(arrow.Date32(18000 + k*37%3000))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	rdr, err := array.NewRecordReader(schema, []arrow.RecordBatch{rec})
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Release()
	ds, err := lance.CreateDataset(context.Background(), dir, rdr, lance.WithMaxRowsPerFile(200),
		lance.WithFileOptions(lance.WithZoneSeeds(64)))
	if err != nil {
		t.Fatal(err)
	}
	ds.Close()
}

// TestStatsCommandArgs: the command takes exactly one dataset, and a
// missing one is an error.
func TestStatsCommandArgs(t *testing.T) {
	for _, args := range [][]string{{"stats"}, {"stats", "a", "b"}, {"stats", filepath.Join(t.TempDir(), "nothing")}} {
		if err := run(context.Background(), args, &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}
