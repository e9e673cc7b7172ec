package valuejson

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

func TestSchemaJSONLiteral(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Nanosecond}, Nullable: true},
		{Name: "t32", Type: arrow.FixedWidthTypes.Time32ms},
		{Name: "ll", Type: arrow.LargeListOf(arrow.PrimitiveTypes.Int8), Nullable: true,
			Metadata: arrow.NewMetadata([]string{"b", "a"}, []string{"1", "2"})},
	}, nil)
	want := `[{"name":"ts","type":"timestamp","unit":"ns","timezone":null,"nullable":true,"metadata":{}},` +
		`{"name":"t32","type":"time32","unit":"ms","nullable":false,"metadata":{}},` +
		`{"name":"ll","type":"large_list","nullable":true,"metadata":{"b":"1","a":"2"},"children":[` +
		`{"name":"item","type":"int8","nullable":true,"metadata":{}}]}]`
	if got := encode(t, SchemaJSON(schema)); got != want {
		t.Errorf("SchemaJSON\n got %s\nwant %s", got, want)
	}
}

// corpusDir locates the shared corpus: $LANCE_CORPUS, else ../shared/corpus
// relative to the repository root (the directory holding go.mod).
func corpusDir(t *testing.T) string {
	t.Helper()
	if dir := os.Getenv("LANCE_CORPUS"); dir != "" {
		return dir
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared", "corpus")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// loadExpected decodes <corpus>/<name>.expected.json or skips the test.
func loadExpected(t *testing.T, name string) map[string]any {
	t.Helper()
	dir := corpusDir(t)
	f, err := os.Open(filepath.Join(dir, name+".expected.json"))
	if err != nil {
		t.Skipf("corpus file not available: %v", err)
	}
	defer f.Close()
	v, err := Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return v.(map[string]any)
}

func nullable(name string, dt arrow.DataType) arrow.Field {
	return arrow.Field{Name: name, Type: dt, Nullable: true}
}

func corpusSchemas() map[string]*arrow.Schema {
	mapType := arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32)
	blobMeta := arrow.NewMetadata([]string{"ARROW:extension:name"}, []string{"lance.blob.v2"})
	return map[string]*arrow.Schema{
		"2.1/temporal": arrow.NewSchema([]arrow.Field{
			nullable("ts_us_utc", &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}),
			nullable("ts_ns", &arrow.TimestampType{Unit: arrow.Nanosecond}),
			nullable("d32", arrow.FixedWidthTypes.Date32),
			nullable("d64", arrow.FixedWidthTypes.Date64),
			nullable("t64_us", arrow.FixedWidthTypes.Time64us),
			nullable("dur_us", arrow.FixedWidthTypes.Duration_us),
		}, nil),
		"2.1/decimal": arrow.NewSchema([]arrow.Field{
			nullable("d18_2", &arrow.Decimal128Type{Precision: 18, Scale: 2}),
			nullable("d38_10", &arrow.Decimal128Type{Precision: 38, Scale: 10}),
			nullable("d256_50_5", &arrow.Decimal256Type{Precision: 50, Scale: 5}),
		}, nil),
		"2.1/list_struct":       arrow.NewSchema([]arrow.Field{nullable("ls", listStructType())}, nil),
		"2.1/vec_i32_4":         arrow.NewSchema([]arrow.Field{nullable("v4", arrow.FixedSizeListOf(4, arrow.PrimitiveTypes.Int32))}, nil),
		"2.1/fixed_size_binary": arrow.NewSchema([]arrow.Field{nullable("uuid", &arrow.FixedSizeBinaryType{ByteWidth: 16})}, nil),
		"2.1/float16":           arrow.NewSchema([]arrow.Field{nullable("f16", arrow.FixedWidthTypes.Float16)}, nil),
		"2.1/binary": arrow.NewSchema([]arrow.Field{
			nullable("bin", arrow.BinaryTypes.Binary), nullable("large_bin", arrow.BinaryTypes.LargeBinary)}, nil),
		"2.1/dictionary_type": arrow.NewSchema([]arrow.Field{nullable("dict",
			&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String})}, nil),
		"2.2/map_utf8_int32": arrow.NewSchema([]arrow.Field{nullable("m", mapType)}, nil),
		"2.2/blob_v2": arrow.NewSchema([]arrow.Field{
			{Name: "id", Type: arrow.PrimitiveTypes.Int32},
			{Name: "blob", Nullable: true, Metadata: blobMeta, Type: arrow.StructOf(
				nullable("data", arrow.BinaryTypes.LargeBinary), nullable("uri", arrow.BinaryTypes.String))},
		}, nil),
	}
}

func TestSchemaJSONMatchesCorpus(t *testing.T) {
	for name, schema := range corpusSchemas() {
		t.Run(name, func(t *testing.T) {
			exp := loadExpected(t, name)
			if ok, msg := EqualJSON(exp["schema"], SchemaJSON(schema)); !ok {
				t.Errorf("schema: %s", msg)
			}
		})
	}
}

// TestFloatsMatchCorpus builds the special float rows of the corpus from
// their bit patterns and compares them with the corpus values.
func TestFloatsMatchCorpus(t *testing.T) {
	mem := newMem(t)
	exp := loadExpected(t, "2.1/floats_special")
	cols := exp["columns"].(map[string]any)
	f32bits := []uint32{0x7fc00000, 0xffc00000, 0, 0x80000000, 0x7f800000, 0xff800000, 1, 0x7f7fffff, 0xff7fffff, 0x7fa00001}
	u32 := uint32Array(mem, f32bits, nil)
	f32 := reinterpret(u32, arrow.PrimitiveTypes.Float32)
	defer release(u32, f32)
	got, err := Column(f32)
	if err != nil {
		t.Fatal(err)
	}
	if ok, msg := EqualJSON(cols["f32"].([]any)[:len(f32bits)], got); !ok {
		t.Errorf("f32: %s", msg)
	}

	exp16 := loadExpected(t, "2.1/float16")
	want16 := exp16["columns"].(map[string]any)["f16"].([]any)[:8]
	u16 := uint16Array(mem, []uint16{0x7e00, 0xfe00, 0, 0x8000, 0x7c00, 0xfc00, 1, 0x7bff}, nil)
	f16 := reinterpret(u16, arrow.FixedWidthTypes.Float16)
	defer release(u16, f16)
	got16, err := Column(f16)
	if err != nil {
		t.Fatal(err)
	}
	if ok, msg := EqualJSON(want16, got16); !ok {
		t.Errorf("f16: %s", msg)
	}
}

// TestDictionaryMatchesCorpus rebuilds the first rows of dictionary_type
// and compares the whole document prefix shape (Columns) with the corpus.
func TestDictionaryMatchesCorpus(t *testing.T) {
	mem := newMem(t)
	exp := loadExpected(t, "2.1/dictionary_type")
	want := exp["columns"].(map[string]any)["dict"].([]any)[:8]
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	arr, err := array.DictArrayFromJSON(mem, dt, `[1,2,4,1,null,4,null,null]`,
		`["alpha","beta","gamma","delta","epsilon"]`)
	if err != nil {
		t.Fatal(err)
	}
	defer arr.Release()
	got, err := Column(arr)
	if err != nil {
		t.Fatal(err)
	}
	if ok, msg := EqualJSON(want, got); !ok {
		t.Errorf("dict: %s", msg)
	}
}

// TestSchemaJSONDetectsDifference makes sure the corpus comparison is not
// vacuous: a wrong timezone must be reported.
func TestSchemaJSONDetectsDifference(t *testing.T) {
	exp := loadExpected(t, "2.1/temporal")
	schema := corpusSchemas()["2.1/temporal"]
	fields := schema.Fields()
	fields[0].Type = &arrow.TimestampType{Unit: arrow.Microsecond}
	ok, msg := EqualJSON(exp["schema"], SchemaJSON(arrow.NewSchema(fields, nil)))
	if ok || msg != `[0].timezone: want "UTC" got null` {
		t.Errorf("EqualJSON = %v %q", ok, msg)
	}
}

// TestEncodeRoundTripsCorpus re-encodes a whole expected.json (strings with
// U+0000, quotes, emoji, backslashes) and checks that it decodes unchanged.
func TestEncodeRoundTripsCorpus(t *testing.T) {
	for _, name := range []string{"2.1/list_struct", "2.1/large_utf8", "2.2/map_utf8_int32"} {
		exp := loadExpected(t, name)
		var buf bytes.Buffer
		if err := Encode(&buf, exp); err != nil {
			t.Fatal(err)
		}
		back, err := Decode(&buf)
		if err != nil {
			t.Fatal(err)
		}
		std, err := json.Marshal(exp)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Decode(bytes.NewReader(std))
		if err != nil {
			t.Fatal(err)
		}
		// diff, not EqualJSON: neither side may pass through appendJSON.
		if msg := diff("", want, back); msg != "" {
			t.Errorf("%s: %s", name, msg)
		}
	}
}
