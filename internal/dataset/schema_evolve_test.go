package dataset

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

const evolvePy = `
import lance, json, sys, pyarrow as pa
uri, mode = sys.argv[1], sys.argv[2]
if mode == "create":
    n = 300
    t = pa.table({"id": pa.array(range(n), pa.int64()), "x": pa.array([i * 3 for i in range(n)], pa.int64()),
                  "s": [None if i % 7 == 0 else "s%d" % i for i in range(n)],
                  "st": pa.array([{"a": i, "b": "b%d" % i} for i in range(n)])})
    ds = lance.write_dataset(t, uri, max_rows_per_file=100)
    ds.create_scalar_index("x", "BTREE")
    ds.create_scalar_index("id", "BTREE")
    ds.delete("id % 10 = 3")
    print("{}")
    sys.exit(0)
if mode == "step":
    ds = lance.dataset(uri)
    step = json.loads(sys.argv[3])
    if step[0] == "drop":
        ds.drop_columns(step[1])
    else:
        ds.alter_columns(*step[1])
ds = lance.dataset(uri)
tx = ds.get_transactions(1)[0]
print(json.dumps({"version": ds.version, "schema": str(ds.schema),
                  "rows": ds.to_table().to_pylist(),
                  "indices": sorted((i["name"], i["fields"], str(i["fragment_ids"])) for i in ds.list_indices()),
                  "op": type(tx.operation).__name__,
                  "files": [len(f.data_files()) for f in ds.get_fragments()],
                  "idx_rows": ds.scanner(filter="id > 250", columns=["id"]).to_table().num_rows}, default=str))
`

// TestSchemaEvolutionMatchesPylance drops, renames and re-nulls columns
// of a pylance dataset (with BTREE indices and deletions) with us and, on
// a copy, with pylance: after every step pylance reads the same schema,
// rows, indices and data files, and the same transaction kind.
func TestSchemaEvolutionMatchesPylance(t *testing.T) {
	if datasetPython() == "" {
		t.Skip("no LANCE_PY")
	}
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "ds")
	twin := filepath.Join(t.TempDir(), "twin")
	runPython(t, evolvePy, dir, "create")
	copyTreeCP(t, dir, twin)
	str := func(s string) *string { return &s }
	no := false
	steps := []struct {
		py   any
		drop []string
		alt  []ColumnAlteration
	}{
		{py: []any{"drop", []string{"x"}}, drop: []string{"x"}},
		{py: []any{"alter", []any{map[string]any{"path": "s", "name": "name"}, map[string]any{"path": "st.b", "name": "bb"}}},
			alt: []ColumnAlteration{{Path: "s", Rename: str("name")}, {Path: "st.b", Rename: str("bb")}}},
		{py: []any{"alter", []any{map[string]any{"path": "id", "nullable": false}}},
			alt: []ColumnAlteration{{Path: "id", Nullable: &no}}},
		{py: []any{"drop", []string{"st.a"}}, drop: []string{"st.a"}},
		{py: []any{"drop", []string{"st"}}, drop: []string{"st"}},
	}
	for i, s := range steps {
		ds, err := OpenDataset(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		var next *Dataset
		if s.drop != nil {
			next, err = ds.DropColumns(ctx, s.drop)
		} else {
			next, err = ds.AlterColumns(ctx, s.alt)
		}
		ds.Close()
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		next.Close()
		b, _ := json.Marshal(s.py)
		theirs := runPython(t, evolvePy, twin, "step", string(b))
		ours := runPython(t, evolvePy, dir, "read")
		if string(ours) != string(theirs) {
			t.Fatalf("step %d %s\n ours:   %.1500s\n pylance: %.1500s", i, b, ours, theirs)
		}
	}
}

// TestSchemaEvolutionErrors checks the refusals, which commit nothing.
func TestSchemaEvolutionErrors(t *testing.T) {
	if datasetPython() == "" {
		t.Skip("no LANCE_PY")
	}
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "ds")
	runPython(t, evolvePy, dir, "create")
	ds, err := OpenDataset(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	str := func(s string) *string { return &s }
	no := false
	for _, c := range []struct {
		name string
		err  error
		run  func() (*Dataset, error)
	}{
		{"drop a missing column", ErrInvalidArgument, func() (*Dataset, error) { return ds.DropColumns(ctx, []string{"nope"}) }},
		{"drop every column", ErrInvalidArgument, func() (*Dataset, error) { return ds.DropColumns(ctx, []string{"id", "x", "s", "st"}) }},
		{"rename onto a name in use", ErrInvalidArgument, func() (*Dataset, error) {
			return ds.AlterColumns(ctx, []ColumnAlteration{{Path: "s", Rename: str("x")}})
		}},
		{"non-nullable with nulls", ErrInvalidArgument, func() (*Dataset, error) {
			return ds.AlterColumns(ctx, []ColumnAlteration{{Path: "s", Nullable: &no}})
		}},
		{"alter nothing", ErrInvalidArgument, func() (*Dataset, error) { return ds.AlterColumns(ctx, []ColumnAlteration{{Path: "s"}}) }},
	} {
		if _, err := c.run(); !errors.Is(err, c.err) {
			t.Errorf("%s: %v, want %v", c.name, err, c.err)
		}
	}
	vs, err := listVersions(ctx, ds.store)
	if err != nil || len(vs) != 4 {
		t.Errorf("after refusals: %d versions, %v (want the 4 pylance made)", len(vs), err)
	}
}

// TestProjectConcurrency: a drop read at an old version commits over a
// concurrent append (rebased, as Lance's Project does) and fails with
// ErrCommitConflict over a concurrent schema change.
func TestProjectConcurrency(t *testing.T) {
	ctx := context.Background()
	dir, _ := makeTagDataset(t) // columns a, s; versions 1-3
	stale, err := OpenDataset(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer stale.Close()
	other, err := OpenDataset(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	rdr, _ := rowsReader(t, memory.NewGoAllocator(), 500, 7, 7)
	app, err := other.Append(ctx, rdr)
	other.Close()
	if err != nil {
		t.Fatal(err)
	}
	app.Close()
	dropped, err := stale.DropColumns(ctx, []string{"s"})
	if err != nil {
		t.Fatalf("drop over a concurrent append: %v", err)
	}
	n, err := dropped.CountRows(ctx)
	dropped.Close()
	if err != nil || n != 77 {
		t.Fatalf("after the rebased drop: %d rows, %v; want 77 (the append kept)", n, err)
	}
	if _, err := stale.DropColumns(ctx, []string{"a"}); !errors.Is(err, ErrCommitConflict) {
		t.Fatalf("drop over a concurrent drop: %v, want ErrCommitConflict", err)
	}
}

const addColumnsPy = `
import lance, json, sys, pyarrow as pa
uri, mode = sys.argv[1], sys.argv[2]
ds = lance.dataset(uri)
if mode == "exprs":
    ds.add_columns(json.loads(sys.argv[3]))
elif mode == "nulls":
    ds.add_columns([pa.field("z", pa.int32()), pa.field("zs", pa.string())])
`

// TestAddColumnsMatchesPylance adds columns from SQL expressions (over
// a dataset with deletions, a struct and BTREE indices) and all-null
// columns with us and, on a copy, with pylance: the same schema, rows,
// indices, data files and transaction; then pylance appends to ours.
func TestAddColumnsMatchesPylance(t *testing.T) {
	if datasetPython() == "" {
		t.Skip("no LANCE_PY")
	}
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "ds")
	twin := filepath.Join(t.TempDir(), "twin")
	runPython(t, evolvePy, dir, "create")
	runPython(t, evolvePy, dir, "step", `["drop", ["x"]]`) // a dropped id, so new ids follow data files' ids
	copyTreeCP(t, dir, twin)
	cols := []NewColumn{{"w", "id * 2"}, {"u", "concat(s, '-', CAST(id AS STRING))"}, {"k", "st.a + id > 100"}}
	exprs := `{"w": "id * 2", "u": "concat(s, '-', CAST(id AS STRING))", "k": "st.a + id > 100"}`
	for _, step := range []string{"exprs", "nulls"} {
		ds, err := OpenDataset(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		var next *Dataset
		if step == "exprs" {
			next, err = ds.AddColumns(ctx, cols)
		} else {
			next, err = ds.AddNullColumns(ctx, []arrow.Field{{Name: "z", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
				{Name: "zs", Type: arrow.BinaryTypes.String, Nullable: true}})
		}
		ds.Close()
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		next.Close()
		runPython(t, addColumnsPy, twin, step, exprs)
		theirs := runPython(t, evolvePy, twin, "read")
		ours := runPython(t, evolvePy, dir, "read")
		if string(ours) != string(theirs) {
			t.Fatalf("%s\n ours:   %.2500s\n pylance: %.2500s", step, ours, theirs)
		}
	}
	ds, err := OpenDataset(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	for _, c := range []struct {
		cols []NewColumn
		want error
	}{
		{[]NewColumn{{"id", "1"}}, ErrInvalidArgument},
		{[]NewColumn{{"q", "nope + 1"}}, ErrInvalidArgument},
		{[]NewColumn{{"q", "1"}, {"q", "2"}}, ErrInvalidArgument},
	} {
		if _, err := ds.AddColumns(ctx, c.cols); !errors.Is(err, c.want) {
			t.Errorf("AddColumns(%v): %v, want %v", c.cols, err, c.want)
		}
	}
}

const addReaderPy = `
import lance, sys, pyarrow as pa
uri, n = sys.argv[1], int(sys.argv[2])
ds = lance.dataset(uri)
schema = pa.schema([("r", pa.int64()), ("rs", pa.string())])
batches = [pa.record_batch([pa.array(range(lo, min(n, lo + 64)), pa.int64()),
                            pa.array(["r%d" % i for i in range(lo, min(n, lo + 64))])], schema=schema)
           for lo in range(0, n, 64)]
ds.add_columns(pa.RecordBatchReader.from_batches(schema, batches))
`

// TestAddColumnsFromMatchesPylance adds the columns of a reader aligned
// with the live rows (deleted rows get nulls) with us and with pylance on
// a copy; readers of the wrong length are refused.
func TestAddColumnsFromMatchesPylance(t *testing.T) {
	if datasetPython() == "" {
		t.Skip("no LANCE_PY")
	}
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "ds")
	twin := filepath.Join(t.TempDir(), "twin")
	runPython(t, evolvePy, dir, "create")
	copyTreeCP(t, dir, twin)
	mem := memory.NewGoAllocator()
	reader := func(n int) array.RecordReader {
		schema := arrow.NewSchema([]arrow.Field{{Name: "r", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
			{Name: "rs", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
		var recs []arrow.RecordBatch
		for lo := 0; lo < n; lo += 50 {
			b := array.NewRecordBuilder(mem, schema)
			for i := lo; i < min(n, lo+50); i++ {
				b.Field(0).(*array.Int64Builder).Append(int64(i))
				b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("r%d", i))
			}
			recs = append(recs, b.NewRecordBatch())
			b.Release()
		}
		rdr, err := array.NewRecordReader(schema, recs)
		if err != nil {
			t.Fatal(err)
		}
		return rdr
	}
	ds, err := OpenDataset(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	for _, n := range []int{269, 271} {
		if _, err := ds.AddColumnsFrom(ctx, reader(n)); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("a reader of %d rows for 270: %v, want ErrInvalidArgument", n, err)
		}
	}
	next, err := ds.AddColumnsFrom(ctx, reader(270))
	if err != nil {
		t.Fatal(err)
	}
	next.Close()
	runPython(t, addReaderPy, twin, "270")
	ours, theirs := runPython(t, evolvePy, dir, "read"), runPython(t, evolvePy, twin, "read")
	if string(ours) != string(theirs) {
		t.Fatalf("\n ours:   %.2500s\n pylance: %.2500s", ours, theirs)
	}
	if left := fileList(t, filepath.Join(dir, "data")); len(left) != 6 {
		t.Errorf("data files after two refused and one added reader: %v (want 3 + 3)", left)
	}
}
