package dataset

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/lancego/lancego/internal/fileread"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/internal/valuejson"
)

// expectedDataset is what testdata/pylance/gen_datasets.py records.
type expectedDataset struct {
	Case     string `json:"case"`
	Versions []struct {
		Version     uint64          `json:"version"`
		NumRows     uint64          `json:"num_rows"`
		Columns     json.RawMessage `json:"columns"`
		TakeOffsets []uint64        `json:"take_offsets"`
		Take        json.RawMessage `json:"take"`
		TakeRowIDs  []string        `json:"take_row_ids"`
		TakeRows    json.RawMessage `json:"take_rows"`
	} `json:"versions"`
}

func loadExpectedDataset(t *testing.T, path string) *expectedDataset {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var e expectedDataset
	if err := json.Unmarshal(raw, &e); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &e
}

// sameColumns compares batches (concatenated) with an expected columns
// object in the corpus conventions.
func sameColumns(t *testing.T, what string, schema *arrow.Schema, recs []arrow.RecordBatch, want json.RawMessage) {
	t.Helper()
	var buf jsonBuffer
	if err := valuejson.WriteRecords(&buf, schema, recs); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	var got struct {
		Columns json.RawMessage `json:"columns"`
	}
	if err := json.Unmarshal(buf.b, &got); err != nil {
		t.Fatalf("%s: %v in %.200s", what, err, buf.b)
	}
	g, err := valuejson.Decode(bytesReader(got.Columns))
	if err != nil {
		t.Fatal(err)
	}
	w, err := valuejson.Decode(bytesReader(want))
	if err != nil {
		t.Fatal(err)
	}
	if ok, diff := valuejson.EqualJSON(w, g); !ok {
		t.Fatalf("%s: %s", what, diff)
	}
}

// checkDatasetAgainst reads every version of the dataset at url as
// pylance recorded it in exp: all rows with _rowid and _rowaddr, the
// takes by offset and by row id.
func checkDatasetAgainst(t *testing.T, url string, exp *expectedDataset, opts ...fileread.Option) {
	ctx := context.Background()
	for _, v := range exp.Versions {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		ds, err := OpenDataset(ctx, url, append([]fileread.Option{WithVersion(v.Version), fileread.WithAllocator(mem)}, opts...)...)
		if err != nil {
			t.Fatalf("version %d: %v", v.Version, err)
		}
		what := exp.Case + " v" + strconv.FormatUint(v.Version, 10)
		n, err := ds.CountRows(ctx)
		if err != nil || n != v.NumRows {
			t.Fatalf("%s: CountRows = %d, %v; want %d", what, n, err, v.NumRows)
		}
		ro := ReadOptions{WithRowID: true, WithRowAddress: true}
		var recs []arrow.RecordBatch
		var schema *arrow.Schema
		for rec, err := range ds.Batches(ctx, DatasetScanOptions{ReadOptions: ro, BatchSize: 1000}) {
			if err != nil {
				t.Fatalf("%s: scan: %v", what, err)
			}
			recs, schema = append(recs, rec), rec.Schema()
		}
		if schema == nil {
			p, _ := ds.project(ro)
			schema = p.schema
		}
		sameColumns(t, what+" scan", schema, recs, v.Columns)
		for _, r := range recs {
			r.Release()
		}
		if len(ds.arrow.FieldIndices("id")) == 1 {
			checkFiltered(t, ctx, ds, what, v.Columns)
		}
		rec, err := ds.Take(ctx, v.TakeOffsets, ro)
		if err != nil {
			t.Fatalf("%s: take: %v", what, err)
		}
		sameColumns(t, what+" take", rec.Schema(), []arrow.RecordBatch{rec}, v.Take)
		rec.Release()
		ids := make([]uint64, len(v.TakeRowIDs))
		for i, s := range v.TakeRowIDs {
			ids[i], _ = strconv.ParseUint(s, 10, 64)
		}
		rec, err = ds.TakeRowIDs(ctx, ids, ro)
		if err != nil {
			t.Fatalf("%s: take row ids: %v", what, err)
		}
		sameColumns(t, what+" take row ids", rec.Schema(), []arrow.RecordBatch{rec}, v.TakeRows)
		rec.Release()
		if err := ds.Close(); err != nil {
			t.Fatal(err)
		}
		mem.AssertSize(t, 0)
	}
}

// TestCommittedDatasets reads the small datasets pylance wrote under
// testdata/datasets at every version and compares with pylance's values.
func TestCommittedDatasets(t *testing.T) {
	for _, name := range []string{"small", "stable_small"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("..", "..", "testdata", "datasets")
			checkDatasetAgainst(t, filepath.Join(dir, name), loadExpectedDataset(t, filepath.Join(dir, name+".expected.json")))
		})
	}
}

// filterCases are the filtered scans checkFiltered runs: dense and sparse
// matches, contiguous and scattered, all columns or only the filter's.
var filterCases = []struct {
	filter        string
	match         func(id int64) bool
	columns       []string
	offset, limit uint64
}{
	{"id >= 3 AND id < 9000", func(id int64) bool { return id >= 3 && id < 9000 }, nil, 2, 5000},
	{"id >= 3 AND id < 9000", func(id int64) bool { return id >= 3 && id < 9000 }, []string{"id"}, 0, 0},
	{"id < 0", func(id int64) bool { return id < 0 }, nil, 0, 0},
	{"id = 7 OR id = 1500 OR id > 11990", func(id int64) bool { return id == 7 || id == 1500 || id > 11990 }, nil, 0, 0},
	{"NOT (id >= 100 AND id < 200)", func(id int64) bool { return id < 100 || id >= 200 }, nil, 1, 0},
	{"id IN (1, 2, 3, 601, 4095)", func(id int64) bool { return id == 1 || id == 2 || id == 3 || id == 601 || id == 4095 }, []string{"id"}, 0, 3},
}

// checkFiltered runs filterCases with _rowid and _rowaddr and compares
// with the expected rows that satisfy each, in order.
func checkFiltered(t *testing.T, ctx context.Context, ds *Dataset, what string, all json.RawMessage) {
	t.Helper()
	var cols map[string][]any
	if err := json.Unmarshal(all, &cols); err != nil {
		t.Fatal(err)
	}
	for _, c := range filterCases {
		var keep []int
		for i, v := range cols["id"] {
			n, _ := strconv.ParseInt(fmt.Sprint(v), 10, 64) // int64 as a string, int32 as a number
			if c.match(n) {
				keep = append(keep, i)
			}
		}
		keep = keep[min(int(c.offset), len(keep)):]
		if c.limit > 0 {
			keep = keep[:min(int(c.limit), len(keep))]
		}
		want := map[string][]any{}
		for name, vals := range cols {
			if c.columns != nil && !slices.Contains(c.columns, name) && name != RowIDColumn && name != RowAddressColumn {
				continue
			}
			want[name] = []any{}
			for _, i := range keep {
				want[name] = append(want[name], vals[i])
			}
		}
		wantJSON, _ := json.Marshal(want)
		filter, err := expr.Parse(c.filter)
		if err != nil {
			t.Fatal(err)
		}
		o := DatasetScanOptions{ReadOptions: ReadOptions{Columns: c.columns, WithRowID: true, WithRowAddress: true},
			Filter: filter, Offset: c.offset, Limit: c.limit, BatchSize: 700}
		var recs []arrow.RecordBatch
		for rec, err := range ds.Batches(ctx, o) {
			if err != nil {
				t.Fatalf("%s: filtered scan %q: %v", what, c.filter, err)
			}
			recs = append(recs, rec)
		}
		p, _ := ds.project(o.ReadOptions)
		sameColumns(t, fmt.Sprintf("%s filtered scan %q %v", what, c.filter, c.columns), p.schema, recs, wantJSON)
		for _, r := range recs {
			r.Release()
		}
	}
}

// TestDatasetSplits plans splits, sends them through JSON, reads each
// with OpenSplit/ScanSplit as a worker would, and checks that together
// they return exactly the rows of a scan, in order.
func TestDatasetSplits(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"small", "stable_small"} {
		url := filepath.Join("..", "..", "testdata", "datasets", name)
		exp := loadExpectedDataset(t, url+".expected.json")
		last := exp.Versions[len(exp.Versions)-1]
		ds, err := OpenDataset(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		ro := ReadOptions{WithRowID: true, WithRowAddress: true}
		p, _ := ds.project(ro)
		for _, target := range []uint64{0, 3, 1000} {
			var recs []arrow.RecordBatch
			splits, err := ds.Splits(ctx, target)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range splits {
				var got Split
				if err := json.Unmarshal([]byte(s.String()), &got); err != nil {
					t.Fatal(err)
				}
				if target > 0 && got.Rows > target {
					t.Fatalf("split of %d rows, target %d", got.Rows, target)
				}
				w, err := OpenSplit(ctx, got)
				if err != nil {
					t.Fatal(err)
				}
				for rec, err := range w.ScanSplit(ctx, got, DatasetScanOptions{ReadOptions: ro}) {
					if err != nil {
						t.Fatal(err)
					}
					recs = append(recs, rec)
				}
				w.Close()
			}
			sameColumns(t, fmt.Sprintf("%s splits of %d", name, target), p.schema, recs, last.Columns)
			for _, r := range recs {
				r.Release()
			}
		}
		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		if s, err := ds.Splits(cancelled, 0); !errors.Is(err, context.Canceled) || s != nil {
			t.Fatalf("%s: Splits with a cancelled context = %v, %v", name, s, err)
		}
		vs, err := ds.Versions(ctx)
		if err != nil || len(vs) != len(exp.Versions) || vs[len(vs)-1].Version != ds.Version() {
			t.Fatalf("%s: Versions = %v, %v", name, vs, err)
		}
		ds.Close()
	}
}

type jsonBuffer struct{ b []byte }

func (j *jsonBuffer) Write(p []byte) (int, error) { j.b = append(j.b, p...); return len(p), nil }

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

// datasetPython returns the pylance interpreter (LANCE_PY), or "".
func datasetPython() string {
	if p := os.Getenv("LANCE_PY"); p != "" {
		return p
	}
	return ""
}

// pylanceDatasets returns a directory holding the datasets of
// testdata/pylance/gen_datasets.py for data storage version ver:
// $LANCE_DATASETS/<ver> when set (generated once, reused), else a fresh
// generation with $LANCE_PY into a temporary directory.
func pylanceDatasets(t *testing.T, ver string) string {
	t.Helper()
	if d := os.Getenv("LANCE_DATASETS"); d != "" {
		if _, err := os.Stat(filepath.Join(d, ver, "history.expected.json")); err == nil {
			return filepath.Join(d, ver)
		}
	}
	py := datasetPython()
	if py == "" {
		t.Skip("no pylance (set LANCE_PY to generate datasets, or LANCE_DATASETS to a generated tree)")
	}
	out := os.Getenv("LANCE_DATASETS")
	if out == "" {
		out = t.TempDir()
	}
	cmd := exec.Command(py, filepath.Join("..", "..", "testdata", "pylance", "gen_datasets.py"), "--out", out, "--versions", ver)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gen_datasets.py: %v\n%s", err, b)
	}
	return filepath.Join(out, ver)
}

// TestDatasetsAgainstPylance reads every version of datasets pylance
// 14.0.2 built with every write operation (appends, small and > 5,000-row
// deletes, update, add_columns, drop_columns, compaction, overwrite), with
// stable row ids, with V1 manifest names, and with dictionary, blob and
// field-metadata columns (2.1), for data storage versions 2.1, 2.2, 2.3,
// 2.0 and legacy (v1 data files, read with the manifest's fields: the history
// adds and drops columns after the legacy writes), and compares all rows with
// _rowid/_rowaddr, takes by offset and takes by row id with pylance's.
func TestDatasetsAgainstPylance(t *testing.T) {
	for _, ver := range []string{"2.1", "2.2", "2.3", "2.0", "legacy"} {
		t.Run(ver, func(t *testing.T) {
			dir := pylanceDatasets(t, ver)
			if ver == "2.0" {
				skipUnreadable(t, filepath.Join(dir, "history"))
			}
			for _, c := range []string{"history", "stable", "v1paths", "types"} {
				t.Run(c, func(t *testing.T) {
					if c == "types" && ver != "2.1" {
						t.Skip("the types case (dictionary, blob, field metadata) is generated for 2.1 only")
					}
					exp := filepath.Join(dir, c+".expected.json")
					if _, err := os.Stat(exp); err != nil {
						t.Skipf("%s was not generated (a LANCE_DATASETS tree from an older gen_datasets.py?)", exp)
					}
					if strings.HasPrefix(ver, "2.") {
						checkFileVersions(t, filepath.Join(dir, c), ver)
					}
					checkDatasetAgainst(t, filepath.Join(dir, c), loadExpectedDataset(t, exp))
				})
			}
		})
	}
}

// checkFileVersions checks that the first version's data files are of
// version ver, so that a data_storage_version pylance ignored or mapped
// to another would not pass unnoticed.
func checkFileVersions(t *testing.T, url, ver string) {
	t.Helper()
	ds, err := OpenDataset(context.Background(), url, WithVersion(1))
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	frags, err := ds.Fragments(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range frags {
		for _, df := range f.DataFiles {
			if df.Version != ver {
				t.Fatalf("%s: fragment %d data file %s is of version %s, want %s", url, f.ID, df.Path, df.Version, ver)
			}
		}
	}
}

// skipUnreadable skips the test when the dataset's data files are of a
// version this reader does not read yet (2.0 and 0.1 come with the 2.0
// reader): the dataset code opens data files through Open's path, so these
// cases turn on by themselves once it reads them.
func skipUnreadable(t *testing.T, url string) {
	t.Helper()
	ctx := context.Background()
	ds, err := OpenDataset(ctx, url, WithVersion(1))
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	_, err = ds.Take(ctx, []uint64{0}, ReadOptions{})
	if errors.Is(err, ErrUnsupported) {
		t.Skipf("data files not read yet: %v", err)
	}
}

// TestFilteredScanSkipsPrunedFragments: a filtered scan whose zone seeds
// prove whole fragments empty makes no data request to them (and reads
// none of their deletion files). Measured with Stats on fresh opens:
//
//	none  = scan of the dataset with a filter no fragment can match
//	one0  = the same, scanning only fragment 1's split
//	one   = the real filter, scanning only fragment 1's split
//	all   = the real filter over the dataset
//
// Pruning a fragment costs its open (the tail holds the seeds) and
// nothing else: none = 4 one0 (identical files), and all = none + (one -
// one0), to the request and to the byte.
func TestFilteredScanSkipsPrunedFragments(t *testing.T) {
	dir := writeSeededDataset(t)
	deleteWhere(t, dir, "a >= 60000 AND a < 60100") // a deletion file for fragment 1 only
	const real, empty = "a >= 60000 AND a < 61000", "a < 0"
	none, _ := prunedScanCost(t, dir, empty, -1, nil)
	one0, _ := prunedScanCost(t, dir, empty, 1, nil)
	one, n1 := prunedScanCost(t, dir, real, 1, nil)
	all, n := prunedScanCost(t, dir, real, -1, func(a int64) bool { return a >= 60100 && a < 61000 })
	t.Logf("requests/bytes: none %d/%d, one0 %d/%d, one %d/%d, all %d/%d", none.Requests, none.BytesRead,
		one0.Requests, one0.BytesRead, one.Requests, one.BytesRead, all.Requests, all.BytesRead)
	if n != 900 || n1 != 900 {
		t.Fatalf("filtered scan returned %d rows (split of fragment 1: %d), want 900", n, n1)
	}
	if none.Requests == 0 || none.Requests != 4*one0.Requests || none.BytesRead != 4*one0.BytesRead {
		t.Fatalf("pruning every fragment: %d requests, %d bytes; one fragment: %d, %d",
			none.Requests, none.BytesRead, one0.Requests, one0.BytesRead)
	}
	if all.Requests != none.Requests+one.Requests-one0.Requests || all.BytesRead != none.BytesRead+one.BytesRead-one0.BytesRead {
		t.Fatalf("scan: %d requests, %d bytes; want the opens of 4 fragments (%d, %d) plus fragment 1's reads (%d, %d)",
			all.Requests, all.BytesRead, none.Requests, none.BytesRead, one.Requests-one0.Requests, one.BytesRead-one0.BytesRead)
	}
	if _, n := prunedScanCost(t, dir, real, -1, func(a int64) bool { return a >= 60100 && a < 61000 }, "a"); n != 900 {
		t.Fatalf("filtered scan of the filter column only returned %d rows, want 900", n)
	}
	if all.ZonesPruned < 3*13 {
		t.Fatalf("%d of %d zones pruned, want at least the 39 of fragments 0, 2 and 3", all.ZonesPruned, all.ZonesTotal)
	}
}

// prunedScanCost opens the dataset afresh and scans it (or only fragment
// frag's split) with filter and _rowaddr, checking every row with want
// (if set), its address and, unless columns only has "a", its string; it
// returns the scan's I/O and its row count.
func prunedScanCost(t *testing.T, dir, filter string, frag int, want func(int64) bool, columns ...string) (fileread.Stats, int) {
	t.Helper()
	ctx := context.Background()
	ds, err := OpenDataset(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	f, err := expr.Parse(filter)
	if err != nil {
		t.Fatal(err)
	}
	o := DatasetScanOptions{Filter: f, ReadOptions: ReadOptions{Columns: columns, WithRowAddress: true}}
	before := ds.Stats()
	scan := ds.Batches(ctx, o)
	if frag >= 0 {
		splits, err := ds.Splits(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		scan = ds.ScanSplit(ctx, splits[frag], o)
	}
	n := 0
	for rec, err := range scan {
		if err != nil {
			t.Fatal(err)
		}
		a, addr := rec.Column(0).(*array.Int64), rec.Column(int(rec.NumCols())-1).(*array.Uint64)
		s, _ := rec.Column(1).(*array.String)
		for i := range a.Len() {
			v, ad := a.Value(i), addr.Value(i)
			if (want != nil && !want(v)) || (s != nil && s.Value(i) != fmt.Sprintf("s%d", v)) || int64(ad>>32*50_000+ad&(1<<32-1)) != v {
				t.Fatalf("%s: row %d at address %d (columns %v)", filter, v, ad, columns)
			}
		}
		n += a.Len()
		rec.Release()
	}
	after := ds.Stats()
	after.Requests -= before.Requests
	after.BytesRead -= before.BytesRead
	after.ZonesPruned -= before.ZonesPruned
	after.ZonesTotal -= before.ZonesTotal
	return after, n
}
