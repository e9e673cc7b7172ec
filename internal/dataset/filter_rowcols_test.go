package dataset

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/expr"
)

// rowColsDataset writes a = 0..9 (s = "s<a>") in fragments of 4, 4 and 2
// rows, then deletes a = 1 and a = 5: the dataset of the pylance answers
// below (lance.write_dataset(t, max_rows_per_file=4), ds.delete(...)).
func rowColsDataset(t *testing.T, stable bool) *Dataset {
	t.Helper()
	ctx := context.Background()
	mem := memory.NewGoAllocator()
	rdr, _ := rowsReader(t, mem, 0, 10, 10)
	defer rdr.Release()
	opts := []DatasetWriteOption{WithMaxRowsPerFile(4)}
	if stable {
		opts = append(opts, WithStableRowIDs())
	}
	ds, err := CreateDataset(ctx, filepath.Join(t.TempDir(), "ds"), rdr, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	d, err := ds.Delete(ctx, "a = 1 OR a = 5")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// scanA returns the a values (and, when asked, the last column, a
// uint64 row id column) of a scan.
func scanA(t *testing.T, ds *Dataset, o DatasetScanOptions) []int64 {
	t.Helper()
	var out []int64
	for rec, err := range ds.Batches(context.Background(), o) {
		if err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		out = append(out, rec.Column(0).(*array.Int64).Int64Values()...)
		rec.Release()
	}
	return out
}

// TestFilterRowColumns: filters on _rowid, _rowaddr and _rowoffset over
// three fragments with deletions, with and without stable row ids, keep
// the rows pylance 14.0.2 keeps; counts and takes agree.
func TestFilterRowColumns(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		stable bool
		filter string
		want   []int64
	}{
		// pylance 14.0.2, stable row ids off: _rowid = _rowaddr
		{false, "_rowoffset = 2", []int64{3}},
		{false, "_rowoffset IN (1, 5)", []int64{2, 7}},
		{false, "_rowid = 2", []int64{2}},
		{false, "_rowid = 4", nil},
		{false, "_rowid >= 4294967296", []int64{4, 6, 7, 8, 9}},
		{false, "_rowaddr = 4294967297", nil},
		{false, "_rowaddr = 4294967298", []int64{6}},
		{false, "_rowid > 5", []int64{4, 6, 7, 8, 9}},
		{false, "_rowid IN (0, 4294967298)", []int64{0, 6}},
		{false, "_rowoffset = 2 AND a = 4", nil},
		{false, "_rowoffset = 2 AND a = 3", []int64{3}},
		// pylance refuses _rowoffset outside = and IN ("Column _rowoffset
		// does not exist"); we evaluate it like any column
		{false, "_rowoffset >= 5", []int64{7, 8, 9}},
		{false, "_ROWOFFSET < 2 OR _rowid = 8589934593", []int64{0, 2, 9}},
		// pylance 14.0.2, stable row ids on
		{true, "_rowid = 4", []int64{4}},
		{true, "_rowid >= 4", []int64{4, 6, 7, 8, 9}},
		{true, "_rowaddr = 4294967298", []int64{6}},
		{true, "_rowaddr > 5", []int64{4, 6, 7, 8, 9}},
		{true, "_rowid IN (0, 6)", []int64{0, 6}},
		{true, "_rowoffset IN (1, 5)", []int64{2, 7}},
		{true, "_rowoffset = 2", []int64{3}},
	} {
		ds := rowColsDataset(t, c.stable)
		what := fmt.Sprintf("stable %v, %s", c.stable, c.filter)
		for _, o := range []DatasetScanOptions{
			{FilterSQL: c.filter, ReadOptions: ReadOptions{Columns: []string{"a"}}},
			{FilterSQL: c.filter, ReadOptions: ReadOptions{Columns: []string{"a", "s"}, WithRowID: true, WithRowAddress: true}, BatchSize: 1},
		} {
			if got := scanA(t, ds, o); fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("%s: %v, want %v", what, got, c.want)
			}
		}
		e, err := expr.Parse(c.filter)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := ds.CountRowsWhere(ctx, e); err != nil || n != uint64(len(c.want)) {
			t.Errorf("%s: CountRowsWhere %d, %v; want %d", what, n, err, len(c.want))
		}
	}
}

// TestFilterRowColumnsOutput: the row id columns a filter reads are
// those a read returns (the stable ids, the addresses, the offsets Take
// takes), whether or not the scan outputs them.
func TestFilterRowColumnsOutput(t *testing.T) {
	ctx := context.Background()
	for _, stable := range []bool{false, true} {
		ds := rowColsDataset(t, stable)
		all, err := ds.Take(ctx, []uint64{0, 1, 2, 3, 4, 5, 6, 7}, ReadOptions{WithRowID: true, WithRowAddress: true})
		if err != nil {
			t.Fatal(err)
		}
		ids, addrs := all.Column(2).(*array.Uint64).Uint64Values(), all.Column(3).(*array.Uint64).Uint64Values()
		for off := range 8 {
			for col, v := range map[string]uint64{RowIDColumn: ids[off], RowAddressColumn: addrs[off], RowOffsetColumn: uint64(off)} {
				o := DatasetScanOptions{FilterSQL: fmt.Sprintf("%s = %d", col, v), ReadOptions: ReadOptions{WithRowID: true, WithRowAddress: true}}
				var got []string
				for rec, err := range ds.Batches(ctx, o) {
					if err != nil {
						t.Fatal(err)
					}
					for i := range int(rec.NumRows()) {
						got = append(got, fmt.Sprint(rec.Column(0).(*array.Int64).Value(i), rec.Column(2).(*array.Uint64).Value(i), rec.Column(3).(*array.Uint64).Value(i)))
					}
					rec.Release()
				}
				want := fmt.Sprint(all.Column(0).(*array.Int64).Value(off), ids[off], addrs[off])
				if len(got) != 1 || got[0] != want {
					t.Errorf("stable %v: %s: %v, want [%s]", stable, o.FilterSQL, got, want)
				}
			}
		}
		all.Release()
	}
}

// TestTakeWhere: a filtered take returns the rows taken, in the order
// asked and with duplicates, that the filter selects; the filter's
// columns need not be projected.
func TestTakeWhere(t *testing.T) {
	ctx := context.Background()
	ds := rowColsDataset(t, false) // live a: 0 2 3 4 6 7 8 9
	for _, c := range []struct {
		filter string
		cols   []string
		want   string
	}{
		{"a > 2", nil, "[9 4 4 7]"},
		{"a > 2", []string{"s"}, "[s9 s4 s4 s7]"},
		{"_rowoffset = 3", []string{"a"}, "[4 4]"},
		{"_rowid = 0 OR _rowaddr = 8589934593", []string{"s"}, "[s9 s0]"},
		{"a > 100", nil, "[]"},
		{"", []string{"a"}, "[9 0 4 4 7]"},
	} {
		var e expr.Expr
		if c.filter != "" {
			var err error
			if e, err = expr.Parse(c.filter); err != nil {
				t.Fatal(err)
			}
		}
		rec, err := ds.TakeWhere(ctx, []uint64{7, 0, 3, 3, 5}, e, ReadOptions{Columns: c.cols})
		if err != nil {
			t.Fatalf("%s: %v", c.filter, err)
		}
		if got := columnText(rec, 0); got != c.want {
			t.Errorf("TakeWhere %q %v: %s, want %s", c.filter, c.cols, got, c.want)
		}
		if len(c.cols) > 0 && rec.NumCols() != int64(len(c.cols)) {
			t.Errorf("TakeWhere %q: %d columns, want %d", c.filter, rec.NumCols(), len(c.cols))
		}
		rec.Release()
	}
	e, _ := expr.Parse("a > 2 OR _rowoffset = 0")
	rec, err := ds.TakeRowIDsWhere(ctx, []uint64{2<<32 | 1, 0, 1<<32 | 2, 2}, e, ReadOptions{Columns: []string{"a"}, WithRowID: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := columnText(rec, 0) + columnText(rec, 1); got != "[9 0 6][8589934593 0 4294967298]" {
		t.Errorf("TakeRowIDsWhere: %s", got)
	}
	rec.Release()
	if _, err := ds.TakeWhere(ctx, []uint64{0}, expr.Gt(expr.Col("zz"), expr.Lit(1)), ReadOptions{}); !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), "zz") {
		t.Errorf("unknown filter column: %v", err)
	}
}

// columnText renders column j of rec.
func columnText(rec arrow.RecordBatch, j int) string {
	var vals []string
	for i := range int(rec.NumRows()) {
		vals = append(vals, rec.Column(j).ValueStr(i))
	}
	return "[" + strings.Join(vals, " ") + "]"
}

// TestPartialFilter: with PartialFilter, the conjuncts that do not bind
// are reported by PlanFilter and left out of the scan; without it they
// fail the scan, naming the filter. Filter and FilterSQL exclude each
// other.
func TestPartialFilter(t *testing.T) {
	ctx := context.Background()
	ds := rowColsDataset(t, false)
	bogus := expr.Eq(expr.Fn("no_such_function", expr.Col("a")), expr.Lit(1))
	o := DatasetScanOptions{FilterSQL: "a > 2 AND s != 's9'", Filters: []expr.Expr{bogus, expr.Lt(expr.Col("a"), expr.Lit(8))}, PartialFilter: true,
		ReadOptions: ReadOptions{Columns: []string{"a"}}}
	conj, err := ds.PlanFilter(o)
	if err != nil {
		t.Fatal(err)
	}
	var state []string
	for _, c := range conj {
		state = append(state, fmt.Sprintf("%s:%v", c.Expr, c.Applied()))
	}
	if got := strings.Join(state, " "); got != "(a > 2):true (s != 's9'):true (no_such_function(a) = 1):false (a < 8):true" {
		t.Errorf("PlanFilter: %s", got)
	}
	if !errors.Is(conj[2].Err, expr.ErrBind) {
		t.Errorf("not applied because %v", conj[2].Err)
	}
	if got := scanA(t, ds, o); fmt.Sprint(got) != "[3 4 6 7]" {
		t.Errorf("partial scan: %v", got)
	}
	o.Filters = []expr.Expr{bogus}
	o.FilterSQL = ""
	if got := scanA(t, ds, o); len(got) != 8 {
		t.Errorf("nothing applied: %v, want every row", got)
	}
	o.PartialFilter = false
	if _, err := ds.Scan(ctx, o); !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), "no_such_function") {
		t.Errorf("strict scan: %v", err)
	}
	if _, err := ds.PlanFilter(o); err == nil {
		t.Error("strict PlanFilter accepted an unknown function")
	}
	both := DatasetScanOptions{Filter: expr.Gt(expr.Col("a"), expr.Lit(1)), FilterSQL: "a > 1"}
	if _, err := ds.Scan(ctx, both); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("Filter and FilterSQL: %v", err)
	}
	if _, err := ds.Scan(ctx, DatasetScanOptions{FilterSQL: "a >"}); !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), `"a >"`) {
		t.Errorf("bad FilterSQL: %v", err)
	}
	if conj, err := ds.PlanFilter(DatasetScanOptions{}); err != nil || conj != nil {
		t.Errorf("no filter: %v %v", conj, err)
	}
}

// TestFilterStructField: a filter on a struct field reads the top-level
// struct column, projected or not.
func TestFilterStructField(t *testing.T) {
	ctx := context.Background()
	mem := memory.NewGoAllocator()
	st := arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, arrow.Field{Name: "y", Type: arrow.BinaryTypes.String, Nullable: true})
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "st", Type: st, Nullable: true}}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	sb := b.Field(1).(*array.StructBuilder)
	for i := range int64(20) {
		b.Field(0).(*array.Int64Builder).Append(i)
		sb.Append(true)
		sb.FieldBuilder(0).(*array.Int64Builder).Append(i * 10)
		sb.FieldBuilder(1).(*array.StringBuilder).Append(fmt.Sprintf("y%d", i%3))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	rdr, err := array.NewRecordReader(schema, []arrow.RecordBatch{rec})
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Release()
	ds, err := CreateDataset(ctx, filepath.Join(t.TempDir(), "st"), rdr, WithMaxRowsPerFile(7))
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	for filter, want := range map[string]string{
		"st.x >= 150":                  "[15 16 17 18 19]",
		"st['y'] = 'y1' AND st.x < 80": "[1 4 7]",
	} {
		for _, cols := range [][]string{{"id"}, {"id", "st"}} {
			if got := scanA(t, ds, DatasetScanOptions{FilterSQL: filter, ReadOptions: ReadOptions{Columns: cols}}); fmt.Sprint(got) != want {
				t.Errorf("%s %v: %v, want %s", filter, cols, got, want)
			}
		}
	}
}

// TestDeleteReadByPylance: pylance writes a dataset of three fragments
// and deletes a row; we delete with filters of the new dialect
// (arithmetic, OR, row columns); pylance reads exactly the rows left and
// counts rows under filters as we do.
func TestDeleteReadByPylance(t *testing.T) {
	py := datasetPython()
	if py == "" {
		t.Skip("no LANCE_PY")
	}
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "py")
	create := `import sys, lance, pyarrow as pa
t = pa.table({"a": pa.array(range(100), pa.int64()), "s": pa.array([f"s{i}" for i in range(100)])})
lance.write_dataset(t, sys.argv[1], max_rows_per_file=30)
lance.dataset(sys.argv[1]).delete("a = 3")`
	if out, err := exec.Command(py, "-c", create, dir).CombinedOutput(); err != nil {
		t.Fatalf("pylance: %v\n%s", err, out)
	}
	ds, err := OpenDataset(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	want := map[int64]bool{}
	for a := range int64(100) {
		want[a] = a != 3
	}
	for _, c := range []struct {
		filter string
		match  func(a int64) bool
	}{
		{"a % 5 = 0", func(a int64) bool { return a%5 == 0 }},
		{"s = 's11' OR a >= 97", func(a int64) bool { return a == 11 || a >= 97 }},
		{"_rowaddr = 4294967297", func(a int64) bool { return a == 31 }},
	} {
		d, err := ds.Delete(ctx, c.filter)
		if err != nil {
			t.Fatalf("delete %q: %v", c.filter, err)
		}
		ds.Close()
		ds = d
		for a := range want {
			want[a] = want[a] && !c.match(a)
		}
	}
	var left []int64
	for a := range int64(100) {
		if want[a] {
			left = append(left, a)
		}
	}
	filters := []string{"a % 7 = 1", "_rowid > 30", "_rowaddr >= 4294967296 AND a < 50", "s >= 's5'", "_rowoffset = 10"}
	read := `import sys, json, lance
ds = lance.dataset(sys.argv[1])
a = sorted(ds.to_table(columns=["a"]).column("a").to_pylist())
print(json.dumps({"a": a, "counts": [ds.count_rows(f) for f in sys.argv[2:]]}))`
	out, err := exec.Command(py, append([]string{"-c", read, dir}, filters...)...).Output()
	if err != nil {
		t.Fatalf("pylance: %v", err)
	}
	var got struct {
		A      []int64
		Counts []uint64
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.A, left) {
		t.Fatalf("pylance reads %v\nwant %v", got.A, left)
	}
	for k, f := range filters {
		e, err := expr.Parse(f)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := ds.CountRowsWhere(ctx, e); err != nil || n != got.Counts[k] {
			t.Errorf("count %q: %d, %v; pylance %d", f, n, err, got.Counts[k])
		}
	}
}
