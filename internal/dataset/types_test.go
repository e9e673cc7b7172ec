package dataset

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/lancego/lancego/internal/filewriter"
	"github.com/lancego/lancego/internal/testkit"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/internal/valuejson"
)

// wideSchema has a column of every kind the dataset writer writes: ints
// of every width, floats (half, single, double), bool, strings and
// binaries (large too, fixed-size), decimal, dates, timestamps, time,
// duration, lists (large, of structs), a struct with a list, a vector
// (fixed-size list of float32), a dictionary and, from file version 2.2
// on, a map; every column but id is nullable.
func wideSchema(ver string) *arrow.Schema {
	item := arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		arrow.Field{Name: "y", Type: arrow.BinaryTypes.String, Nullable: true})
	st := arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "c", Type: arrow.ListOf(arrow.PrimitiveTypes.Float64), Nullable: true})
	types := []struct {
		name string
		typ  arrow.DataType
	}{
		{"i8", arrow.PrimitiveTypes.Int8}, {"i16", arrow.PrimitiveTypes.Int16}, {"i32", arrow.PrimitiveTypes.Int32},
		{"i64", arrow.PrimitiveTypes.Int64}, {"u8", arrow.PrimitiveTypes.Uint8}, {"u16", arrow.PrimitiveTypes.Uint16},
		{"u32", arrow.PrimitiveTypes.Uint32}, {"u64", arrow.PrimitiveTypes.Uint64},
		{"f16", arrow.FixedWidthTypes.Float16}, {"f32", arrow.PrimitiveTypes.Float32}, {"f64", arrow.PrimitiveTypes.Float64},
		{"b", arrow.FixedWidthTypes.Boolean},
		{"s", arrow.BinaryTypes.String}, {"ls", arrow.BinaryTypes.LargeString}, {"bin", arrow.BinaryTypes.Binary},
		{"lbin", arrow.BinaryTypes.LargeBinary}, {"fsb", &arrow.FixedSizeBinaryType{ByteWidth: 5}},
		{"dec", &arrow.Decimal128Type{Precision: 20, Scale: 3}},
		{"d32", arrow.FixedWidthTypes.Date32}, {"d64", arrow.FixedWidthTypes.Date64},
		{"ts", &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}},
		{"tsn", &arrow.TimestampType{Unit: arrow.Nanosecond}},
		{"t64", arrow.FixedWidthTypes.Time64us}, {"dur", arrow.FixedWidthTypes.Duration_ms},
		{"li", arrow.ListOf(arrow.PrimitiveTypes.Int32)}, {"lls", arrow.LargeListOf(arrow.BinaryTypes.String)},
		{"lst", arrow.ListOf(item)}, {"st", st},
		{"vec", arrow.FixedSizeListOf(8, arrow.PrimitiveTypes.Float32)},
		{"dict", &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String}},
	}
	if ver != "2.1" { // Lance writes maps from 2.2 on
		types = append(types, struct {
			name string
			typ  arrow.DataType
		}{"m", arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32)})
	}
	fs := []arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}
	for _, c := range types {
		fs = append(fs, arrow.Field{Name: c.name, Type: c.typ, Nullable: true})
	}
	return arrow.NewSchema(fs, nil)
}

// wideBatch returns n random rows of a wideSchema with ids from, from+1, ...
func wideBatch(mem memory.Allocator, schema *arrow.Schema, r *rand.Rand, from, n int) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i := range n {
		b.Field(0).(*array.Int64Builder).Append(int64(from + i))
		for c := 1; c < schema.NumFields(); c++ {
			appendWide(b.Field(c), r, true)
		}
	}
	return b.NewRecordBatch()
}

// wideFloat is a random float64, sometimes NaN, -0, ±Inf or an extreme.
func wideFloat(r *rand.Rand) float64 {
	switch r.IntN(12) {
	case 0:
		return math.NaN()
	case 1:
		return math.Copysign(0, -1)
	case 2:
		return math.Inf(1 - 2*r.IntN(2))
	case 3:
		return math.MaxFloat32
	}
	return r.NormFloat64() * 1e3
}

// appendWide appends one random value (null one time in seven when nulls)
// to b.
func appendWide(bld array.Builder, r *rand.Rand, nulls bool) {
	if nulls && r.IntN(7) == 0 {
		bld.AppendNull()
		return
	}
	switch b := bld.(type) {
	case *array.Int8Builder:
		b.Append(int8(r.Uint32()))
	case *array.Int16Builder:
		b.Append(int16(r.Uint32()))
	case *array.Int32Builder:
		b.Append(int32(r.Uint32()))
	case *array.Int64Builder:
		b.Append(int64(r.Uint64()))
	case *array.Uint8Builder:
		b.Append(uint8(r.Uint32()))
	case *array.Uint16Builder:
		b.Append(uint16(r.Uint32()))
	case *array.Uint32Builder:
		b.Append(r.Uint32())
	case *array.Uint64Builder:
		b.Append(r.Uint64())
	case *array.Float16Builder:
		b.Append(float16.New(float32(wideFloat(r))))
	case *array.Float32Builder:
		b.Append(float32(wideFloat(r)))
	case *array.Float64Builder:
		b.Append(wideFloat(r))
	case *array.BooleanBuilder:
		b.Append(r.IntN(2) == 0)
	case *array.StringBuilder:
		b.Append(fmt.Sprintf("s%d-%x", r.IntN(40), r.Uint64N(1<<(4*r.IntN(12)))))
	case *array.LargeStringBuilder:
		b.Append(fmt.Sprintf("large %d é€ %x", r.IntN(1000), r.Uint64()))
	case *array.BinaryBuilder: // binary and large binary
		b.Append(randBytes(r, r.IntN(40)))
	case *array.FixedSizeBinaryBuilder:
		b.Append(randBytes(r, 5))
	case *array.Decimal128Builder:
		b.Append(decimal128.FromI64(r.Int64() >> r.IntN(60)))
	case *array.Date32Builder:
		b.Append(arrow.Date32(r.Int32N(80000) - 20000))
	case *array.Date64Builder:
		b.Append(arrow.Date64(int64(r.Int32N(80000)-20000) * 86_400_000))
	case *array.TimestampBuilder:
		b.Append(arrow.Timestamp(r.Int64N(1<<62) - 1<<61))
	case *array.Time64Builder:
		b.Append(arrow.Time64(r.Int64N(86_400_000_000)))
	case *array.DurationBuilder:
		b.Append(arrow.Duration(int64(r.Uint64())))
	case *array.ListBuilder:
		b.Append(true)
		for k := r.IntN(5); k > 0; k-- {
			appendWide(b.ValueBuilder(), r, true)
		}
	case *array.LargeListBuilder:
		b.Append(true)
		for k := r.IntN(4); k > 0; k-- {
			appendWide(b.ValueBuilder(), r, true)
		}
	case *array.StructBuilder:
		b.Append(true)
		for i := range b.NumField() {
			appendWide(b.FieldBuilder(i), r, true)
		}
	case *array.FixedSizeListBuilder:
		b.Append(true)
		for range 8 {
			appendWide(b.ValueBuilder(), r, false)
		}
	case *array.BinaryDictionaryBuilder:
		_ = b.AppendString(fmt.Sprintf("category %d", r.IntN(20)))
	case *array.MapBuilder:
		b.Append(true)
		for k := r.IntN(4); k > 0; k-- {
			b.KeyBuilder().(*array.StringBuilder).Append(string(rune('a' + k)))
			appendWide(b.ItemBuilder(), r, true)
		}
	default:
		panic(fmt.Sprintf("appendWide: no generator for %T", bld))
	}
}

func randBytes(r *rand.Rand, n int) []byte {
	p := make([]byte, n)
	for i := range p {
		p[i] = byte(r.Uint32())
	}
	return p
}

// wideReader returns a reader of batches of the sizes given, ids from from
// on, and the batches (retained: the caller releases them).
func wideReader(t *testing.T, mem memory.Allocator, schema *arrow.Schema, r *rand.Rand, from int, sizes ...int) (array.RecordReader, []arrow.RecordBatch) {
	var recs []arrow.RecordBatch
	for _, n := range sizes {
		recs = append(recs, wideBatch(mem, schema, r, from, n))
		from += n
	}
	rdr, err := array.NewRecordReader(schema, recs)
	if err != nil {
		t.Fatal(err)
	}
	return rdr, recs
}

// withoutIDs returns slices of recs without the rows whose id del
// selects (retained: the caller releases them).
func withoutIDs(recs []arrow.RecordBatch, del func(id int64) bool) []arrow.RecordBatch {
	var out []arrow.RecordBatch
	for _, rec := range recs {
		ids := rec.Column(0).(*array.Int64).Int64Values()
		start := -1
		for i := 0; i <= len(ids); i++ {
			keep := i < len(ids) && !del(ids[i])
			if keep && start < 0 {
				start = i
			}
			if !keep && start >= 0 {
				out = append(out, rec.NewSlice(int64(start), int64(i)))
				start = -1
			}
		}
	}
	return out
}

// TestDatasetWideTypesPylance writes a dataset of every column kind
// through create (three fragments), append, a delete that leaves
// deletion files in three fragments, one that drops a fragment, and an
// overwrite; then pylance appends to it. Every version is compared value
// by value (corpus JSON conventions: floats by bit pattern, 64-bit
// integers as strings) with what was written: read by us, and by pylance
// 14.0.2, which must also read pylance's own append to our dataset. Data
// files of 2.2 (the default) and 2.1.
func TestDatasetWideTypesPylance(t *testing.T) {
	for _, tc := range []struct {
		name, ver string
		stable    bool
	}{
		{"2.2", "2.2", false}, {"2.1", "2.1", false}, {"2.3", "2.3", false},
		{"2.2-stable-row-ids", "2.2", true},
	} {
		t.Run(tc.name, func(t *testing.T) { testWideTypes(t, tc.ver, tc.stable) })
	}
}

func testWideTypes(t *testing.T, ver string, stable bool) {
	ctx := context.Background()
	schema := wideSchema(ver)
	fv := WithFileOptions(filewriter.WithFileVersion(ver))
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(16, 2))
	dir := filepath.Join(t.TempDir(), "wide")
	var hold []arrow.RecordBatch
	defer func() {
		for _, rec := range hold {
			rec.Release()
		}
	}()
	want := map[uint64][]arrow.RecordBatch{}

	rdr, recs := wideReader(t, mem, schema, r, 0, 400, 400, 400)
	createOpts := []DatasetWriteOption{WithMaxRowsPerFile(500), fv}
	if stable {
		createOpts = append(createOpts, WithStableRowIDs())
	}
	ds, err := CreateDataset(ctx, dir, rdr, createOpts...)
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	if got := ds.man.ReaderFlags&FlagStableRowIDs != 0; got != stable {
		t.Fatalf("stable row ids in the manifest: %v, want %v", got, stable)
	}
	hold = append(hold, recs...)
	want[1] = recs

	rdr, recs = wideReader(t, mem, schema, r, 2000, 300, 300)
	d2, err := ds.Append(ctx, rdr, fv)
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	hold = append(hold, recs...)
	want[2] = append(append([]arrow.RecordBatch(nil), want[1]...), recs...)

	del3 := func(id int64) bool { return id < 7 || id >= 450 && id < 620 || id >= 2590 }
	d3, err := d2.Delete(ctx, "id < 7 OR id >= 450 AND id < 620 OR id >= 2590")
	if err != nil {
		t.Fatal(err)
	}
	defer d3.Close()
	want[3] = withoutIDs(want[2], del3)
	hold = append(hold, want[3]...)

	del4 := func(id int64) bool { return del3(id) || id >= 500 && id < 1000 }
	d4, err := d3.Delete(ctx, "id >= 500 AND id < 1000")
	if err != nil {
		t.Fatal(err)
	}
	defer d4.Close()
	if d4.NumFragments() != 3 {
		t.Fatalf("the second delete left %d fragments, want 3 (one dropped)", d4.NumFragments())
	}
	want[4] = withoutIDs(want[2], del4)
	hold = append(hold, want[4]...)

	rdr, recs = wideReader(t, mem, schema, r, 5000, 250, 50)
	d5, err := d4.Overwrite(ctx, rdr, fv)
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer d5.Close()
	hold = append(hold, recs...)
	want[5] = recs

	for v := uint64(1); v <= 5; v++ {
		checkWideVersion(t, dir, schema, v, want[v])
	}
	checkFileVersions(t, dir, ver)
	py := datasetPython()
	if py == "" {
		t.Skip("no LANCE_PY: pylance checks skipped")
	}
	pyRecs := []arrow.RecordBatch{wideBatch(mem, schema, r, 7000, 150)}
	hold = append(hold, pyRecs...)
	ipc := filepath.Join(t.TempDir(), "append.arrow")
	testkit.WriteIPC(t, ipc, schema, pyRecs)
	want[6] = append(append([]arrow.RecordBatch(nil), want[5]...), pyRecs...)
	got := pylanceValues(t, py, dir, "append", ipc)
	if len(got) != len(want) {
		t.Fatalf("pylance reads %d versions, want %d", len(got), len(want))
	}
	for v, recs := range want {
		n, cols := testkit.RecordsJSON(t, schema, recs)
		if ok, diff := valuejson.EqualJSON(n, got[v]["num_rows"]); !ok {
			t.Fatalf("pylance, version %d: num_rows: %s", v, diff)
		}
		if c, _ := got[v]["columns"].(map[string]any); len(c) != schema.NumFields() {
			t.Fatalf("pylance, version %d: %d columns, want %d", v, len(c), schema.NumFields())
		}
		if ok, diff := valuejson.EqualJSON(cols, got[v]["columns"]); !ok {
			t.Fatalf("pylance, version %d: %s", v, diff)
		}
	}
	checkWideVersion(t, dir, schema, 6, want[6]) // pylance's append, read by us
}

// checkWideVersion reads version v of the dataset at dir with our reader
// and compares its values with recs.
func checkWideVersion(t *testing.T, dir string, schema *arrow.Schema, v uint64, recs []arrow.RecordBatch) {
	t.Helper()
	ctx := context.Background()
	d, err := OpenDataset(ctx, dir, WithVersion(v))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var got []arrow.RecordBatch
	for rec, err := range d.Batches(ctx, DatasetScanOptions{BatchSize: 333}) {
		if err != nil {
			t.Fatalf("version %d: %v", v, err)
		}
		got = append(got, rec)
	}
	defer func() {
		for _, rec := range got {
			rec.Release()
		}
	}()
	_, want := testkit.RecordsJSON(t, schema, recs)
	_, have := testkit.RecordsJSON(t, d.Schema(), got)
	if ok, diff := valuejson.EqualJSON(want, have); !ok {
		t.Fatalf("version %d, our reader: %s", v, diff)
	}
}

// pylanceValues runs testdata/pylance/dataset_values.py on dir (with args
// after it) and returns its output by version.
func pylanceValues(t *testing.T, py, dir string, args ...string) map[uint64]map[string]any {
	t.Helper()
	cmd := exec.Command(py, append([]string{filepath.Join("..", "..", "testdata", "pylance", "dataset_values.py"), dir}, args...)...)
	cmd.Env = os.Environ()
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("dataset_values.py: %v\n%s", err, ee.Stderr)
		}
		t.Fatal(err)
	}
	doc, err := valuejson.Decode(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	res := map[uint64]map[string]any{}
	for k, v := range doc.(map[string]any) {
		var ver uint64
		if _, err := fmt.Sscan(k, &ver); err != nil {
			t.Fatalf("dataset_values.py: version %q", k)
		}
		res[ver] = v.(map[string]any)
	}
	return res
}

// TestDatasetAppendToPylanceWide appends to a dataset pylance created
// with every column kind of wideSchema (data files of its default, 2.2),
// then deletes from it: we and pylance read both versions with the values
// written.
func TestDatasetAppendToPylanceWide(t *testing.T) {
	py := datasetPython()
	if py == "" {
		t.Skip("no LANCE_PY")
	}
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := wideSchema("2.2")
	r := rand.New(rand.NewPCG(16, 4))
	dir := filepath.Join(t.TempDir(), "wide")
	var hold []arrow.RecordBatch
	defer func() {
		for _, rec := range hold {
			rec.Release()
		}
	}()
	first := []arrow.RecordBatch{wideBatch(mem, schema, r, 0, 300)}
	hold = append(hold, first...)
	ipc := filepath.Join(t.TempDir(), "create.arrow")
	testkit.WriteIPC(t, ipc, schema, first)
	pylanceValues(t, py, dir, "create", ipc)

	ds, err := OpenDataset(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	rdr, recs := wideReader(t, mem, schema, r, 1000, 200, 100)
	d2, err := ds.Append(ctx, rdr)
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	hold = append(hold, recs...)
	d3, err := d2.Delete(ctx, "id >= 250 AND id < 1010")
	if err != nil {
		t.Fatal(err)
	}
	defer d3.Close()
	want := map[uint64][]arrow.RecordBatch{1: first, 2: append(append([]arrow.RecordBatch(nil), first...), recs...)}
	want[3] = withoutIDs(want[2], func(id int64) bool { return id >= 250 && id < 1010 })
	hold = append(hold, want[3]...)
	got := pylanceValues(t, py, dir)
	if len(got) != len(want) {
		t.Fatalf("pylance reads %d versions, want %d", len(got), len(want))
	}
	for v, recs := range want {
		checkWideVersion(t, dir, schema, v, recs)
		_, cols := testkit.RecordsJSON(t, schema, recs)
		if ok, diff := valuejson.EqualJSON(cols, got[v]["columns"]); !ok {
			t.Fatalf("pylance, version %d: %s", v, diff)
		}
	}
}
