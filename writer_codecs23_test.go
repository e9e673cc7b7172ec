package lance

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/layouts"
)

// codecMeta is field metadata of lance-encoding key/value pairs.
func codecMeta(kv ...string) arrow.Metadata {
	var k, v []string
	for i := 0; i < len(kv); i += 2 {
		k, v = append(k, kv[i]), append(v, kv[i+1])
	}
	return arrow.NewMetadata(k, v)
}

// codecs23Batch builds columns the seed's 2.3 float codecs suit: a price
// random walk (2 decimals), sensor readings with nulls, noise with NaN
// payloads and signed zeros, half floats and vectors.
func codecs23Batch(mem memory.Allocator, schema *arrow.Schema, n int) arrow.RecordBatch {
	r := rand.New(rand.NewPCG(23, 21))
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	price := 100.0
	special := []float64{math.Copysign(0, -1), math.Inf(1), math.Float64frombits(0x7ff8000000000123), 5e-324}
	for i := 0; i < n; i++ {
		price = math.Round((price+r.NormFloat64()*0.05)*100) / 100
		for _, c := range []int{0, 1, 2, 6} {
			fb := b.Field(c).(*array.Float64Builder)
			switch {
			case c == 1 && i%7 == 3:
				fb.AppendNull()
			case c == 2 && i%97 == 0:
				fb.Append(special[(i/97)%len(special)])
			case c == 2:
				fb.Append(r.Float64() * 1e6)
			case c == 1:
				fb.Append(math.Round(20+10*math.Sin(float64(i)/50)*10) / 10)
			default:
				fb.Append(price)
			}
		}
		b.Field(3).(*array.Float32Builder).Append(float32(math.Round(float64(price)*10) / 10))
		b.Field(4).(*array.Float16Builder).Append(float16.New(float32(i%100) / 4))
		vb := b.Field(5).(*array.FixedSizeListBuilder)
		vb.Append(true)
		for j := 0; j < 8; j++ {
			vb.ValueBuilder().(*array.Float32Builder).Append(float32(math.Sin(float64(i+j) / 10)))
		}
	}
	return b.NewRecordBatch()
}

// TestWriterCodecs23 writes the seed's 2.3 float codecs when fields ask
// (lance-encoding:alp=on|auto, compression=pcodec with a level), reads the
// values back bit for bit by scan and take, and checks that inspect's page
// description names the codec, that fields without a key get none of them
// (a default 2.3 file stays readable by pylance 14.0.2), and that pcodec
// below 2.3 or on integers is refused.
func TestWriterCodecs23(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	pc := func(level string) arrow.Metadata {
		return codecMeta("lance-encoding:compression", "pcodec", "lance-encoding:compression-level", level)
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "price_alp", Type: arrow.PrimitiveTypes.Float64, Metadata: codecMeta("lance-encoding:alp", "on")},
		{Name: "sensor_alp_auto", Type: arrow.PrimitiveTypes.Float64, Nullable: true, Metadata: codecMeta("lance-encoding:alp", "auto")},
		{Name: "noise_pcodec", Type: arrow.PrimitiveTypes.Float64, Metadata: pc("3")},
		{Name: "f32_alp", Type: arrow.PrimitiveTypes.Float32, Metadata: codecMeta("lance-encoding:alp", "on")},
		{Name: "f16_pcodec", Type: arrow.FixedWidthTypes.Float16, Metadata: pc("")},
		{Name: "vec_pcodec", Type: arrow.FixedSizeListOf(8, arrow.PrimitiveTypes.Float32), Metadata: pc("8")},
		{Name: "plain", Type: arrow.PrimitiveTypes.Float64},
	}, nil)
	rec := codecs23Batch(mem, schema, 5000)
	defer rec.Release()
	path := roundTrip(t, schema, []arrow.RecordBatch{rec}, WithFileVersion("2.3"))
	want := map[string]string{"price_alp": "alp(64)", "sensor_alp_auto": "alp(64)", "noise_pcodec": "pcodec(level=3",
		"f32_alp": "alp(32)", "f16_pcodec": "pcodec(level=8", "vec_pcodec": "pcodec(level=8, values=fixed_size_list", "plain": ""}
	for name, codec := range pageCodecs(t, path) {
		w := want[name]
		switch {
		case w == "" && (strings.Contains(codec, "alp(") || strings.Contains(codec, "pcodec(")):
			t.Errorf("column %s without a codec key got %s", name, codec)
		case w != "" && !strings.Contains(codec, w):
			t.Errorf("column %s: pages %q, want %s", name, codec, w)
		}
	}
	checkCodecs23Take(t, path, schema, rec)
	for _, tc := range []struct {
		ver string
		f   arrow.Field
	}{
		{"2.2", arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Float64, Metadata: pc("8")}},
		{"2.3", arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int64, Metadata: pc("8")}},
		{"2.3", arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Float64, Metadata: pc("13")}},
		{"2.3", arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Float64, Metadata: codecMeta("lance-encoding:alp", "maybe")}},
	} {
		if err := writeOneColumn(t, tc.f, tc.ver); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%s %v at %s: error %v, want ErrInvalidArgument", tc.f.Name, tc.f.Metadata, tc.ver, err)
		}
	}
}

// pageCodecs maps each top-level column to the value codecs of its pages
// as inspect describes them, joined by "; ".
func pageCodecs(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	for c, col := range f.Metadata().Columns {
		name := f.Schema().Field(c).Name
		for _, pg := range col.GetPages() {
			enc, err := format.DecodePageEncoding(pg)
			if err != nil || enc.Planar == nil {
				t.Fatalf("column %s: not a planar page (%v)", name, err)
			}
			info := layouts.DescribePlanar(enc.Planar)
			for p := &info; p != nil; p = p.Inner {
				out[name] += p.Values + "; "
			}
		}
	}
	return out
}

// checkCodecs23Take compares a take of scattered rows with the batch.
func checkCodecs23Take(t *testing.T, path string, schema *arrow.Schema, rec arrow.RecordBatch) {
	t.Helper()
	ctx := context.Background()
	f, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := uint64(rec.NumRows())
	rows := []uint64{n - 1, 0, 1023, 1024, n / 2, 7, n - 2}
	got, err := f.Take(ctx, rows, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	var wantRecs []arrow.RecordBatch
	for _, r := range rows {
		s := rec.NewSlice(int64(r), int64(r)+1)
		defer s.Release()
		wantRecs = append(wantRecs, s)
	}
	_, want := recordsJSON(t, schema, wantRecs)
	_, have := recordsJSON(t, schema, []arrow.RecordBatch{got})
	if ok, diff := valuejsonEqual(want, have); !ok {
		t.Fatalf("take differs: %s", diff)
	}
}

// writeOneColumn writes a 10-row file of field f at version ver and
// returns the first error.
func writeOneColumn(t *testing.T, f arrow.Field, ver string) error {
	schema := arrow.NewSchema([]arrow.Field{f}, nil)
	b := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	defer b.Release()
	for i := 0; i < 10; i++ {
		switch fb := b.Field(0).(type) {
		case *array.Float64Builder:
			fb.Append(float64(i) / 4)
		case *array.Int64Builder:
			fb.Append(int64(i))
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	return writeBatchAt(t, rec, ver)
}

// tensorBatch builds 8×8 int16 images (smooth: neighbours differ by
// little), 64-byte uint8 rows and, with nulls, 4×4 int32 tensors.
func tensorBatch(mem memory.Allocator, schema *arrow.Schema, n int) arrow.RecordBatch {
	r := rand.New(rand.NewPCG(7, 21))
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i := 0; i < n; i++ {
		for c := 0; c < 2; c++ {
			img := b.Field(c).(*array.FixedSizeListBuilder)
			img.Append(true)
			rows := img.ValueBuilder().(*array.FixedSizeListBuilder)
			for y := 0; y < 8; y++ {
				rows.Append(true)
				for x := 0; x < 8; x++ {
					rows.ValueBuilder().(*array.Int16Builder).Append(int16(1000*math.Sin(float64(i+x+y)/9)) + int16(r.IntN(3)))
				}
			}
		}
		u := b.Field(2).(*array.FixedSizeListBuilder)
		u.Append(true)
		for x := 0; x < 64; x++ {
			u.ValueBuilder().(*array.Uint8Builder).Append(uint8(i + x*2))
		}
		t4 := b.Field(3).(*array.FixedSizeListBuilder)
		if i%5 == 2 {
			t4.Append(false) // a null tensor over valid (zero) elements
			for x := 0; x < 16; x++ {
				t4.ValueBuilder().(*array.Int32Builder).Append(0)
			}
			continue
		}
		t4.Append(true)
		for x := 0; x < 16; x++ {
			t4.ValueBuilder().(*array.Int32Builder).Append(int32(i*x) - 1<<30)
		}
	}
	return b.NewRecordBatch()
}

// TestWriterAxisDelta writes integer tensors with axis delta at 2.3
// (lance-encoding:axis-delta), plain and inside General (one zstd frame
// per tensor), reads them back bit for bit by scan and take, and checks
// the refusals: not a 2.3 file, not integers, a span that does not divide
// the tensor.
func TestWriterAxisDelta(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	img := arrow.FixedSizeListOf(8, arrow.FixedSizeListOf(8, arrow.PrimitiveTypes.Int16))
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "img_rows", Type: img, Metadata: codecMeta("lance-encoding:axis-delta", "8,8")},
		{Name: "img_zstd", Type: img, Metadata: codecMeta("lance-encoding:axis-delta", "8,1", "lance-encoding:compression", "zstd")},
		{Name: "bytes", Type: arrow.FixedSizeListOf(64, arrow.PrimitiveTypes.Uint8), Metadata: codecMeta("lance-encoding:axis-delta", "64,1")},
		{Name: "nullable", Type: arrow.FixedSizeListOf(16, arrow.PrimitiveTypes.Int32), Nullable: true,
			Metadata: codecMeta("lance-encoding:axis-delta", "4,4", "lance-encoding:compression", "zstd")},
	}, nil)
	rec := tensorBatch(mem, schema, 3000)
	defer rec.Release()
	path := roundTrip(t, schema, []arrow.RecordBatch{rec}, WithFileVersion("2.3"))
	want := map[string]string{"img_rows": "axis_delta", "img_zstd": "general(zstd", "bytes": "axis_delta", "nullable": "axis_delta"}
	for name, codec := range pageCodecs(t, path) {
		if !strings.Contains(codec, want[name]) || !strings.Contains(codec, "axis_delta") {
			t.Errorf("column %s: pages %q, want %s", name, codec, want[name])
		}
	}
	checkCodecs23Take(t, path, schema, rec)
	bad := []struct {
		ver string
		f   arrow.Field
	}{
		{"2.2", arrow.Field{Name: "x", Type: img, Metadata: codecMeta("lance-encoding:axis-delta", "8,8")}},
		{"2.3", arrow.Field{Name: "x", Type: arrow.FixedSizeListOf(4, arrow.PrimitiveTypes.Float32), Metadata: codecMeta("lance-encoding:axis-delta", "4,1")}},
		{"2.3", arrow.Field{Name: "x", Type: img, Metadata: codecMeta("lance-encoding:axis-delta", "3,3")}},
		{"2.3", arrow.Field{Name: "x", Type: img, Metadata: codecMeta("lance-encoding:axis-delta", "8")}},
	}
	for _, tc := range bad {
		if err := writeTensorColumn(t, tc.f, tc.ver); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%v %v at %s: error %v, want ErrInvalidArgument", tc.f.Type, tc.f.Metadata, tc.ver, err)
		}
	}
}

// writeTensorColumn writes 4 zero tensors of field f at version ver and
// returns the first error.
func writeTensorColumn(t *testing.T, f arrow.Field, ver string) error {
	schema := arrow.NewSchema([]arrow.Field{f}, nil)
	b := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	defer b.Release()
	for i := 0; i < 4; i++ {
		appendZeros(b.Field(0))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	return writeBatchAt(t, rec, ver)
}

// appendZeros appends one all-zero value to a builder of nested
// fixed-size lists of numbers.
func appendZeros(b array.Builder) {
	switch x := b.(type) {
	case *array.FixedSizeListBuilder:
		x.Append(true)
		n := int(x.Type().(*arrow.FixedSizeListType).Len())
		for i := 0; i < n; i++ {
			appendZeros(x.ValueBuilder())
		}
	case *array.Int16Builder:
		x.Append(0)
	case *array.Float32Builder:
		x.Append(0)
	}
}

// writeBatchAt writes rec as a file of version ver and returns the first
// error of Create, Write or Close.
func writeBatchAt(t *testing.T, rec arrow.RecordBatch, ver string) error {
	ctx := context.Background()
	w, err := Create(ctx, filepath.Join(t.TempDir(), "one.lance"), rec.Schema(), WithFileVersion(ver))
	if err != nil {
		return err
	}
	if err := w.Write(ctx, rec); err != nil {
		w.Abort()
		return err
	}
	return w.Close(ctx)
}
