package lance

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lancego/lancego/format"
)

// TestWriterV23Corpus rewrites every 2.1/2.2/2.3 corpus file and every
// pylance-made 2.3 test file as a 2.3 file (planar pages), reads it back
// with our reader and, when pylance is available, with pylance 14.0.2.
func TestWriterV23Corpus(t *testing.T) {
	ctx := context.Background()
	only := os.Getenv("LANCE_WRITER_CASES")
	dir := t.TempDir()
	var batch lanceBatch
	var srcs []string
	for _, ver := range []string{"2.1", "2.2", "2.3"} {
		files, _ := filepath.Glob(filepath.Join("..", "shared", "corpus", ver, "*.lance"))
		srcs = append(srcs, files...)
	}
	pyl, _ := filepath.Glob(filepath.Join("testdata", "pylance", "2.3", "*.lance"))
	srcs = append(srcs, pyl...)
	for _, src := range srcs {
		name := filepath.Base(filepath.Dir(src)) + "/" + strings.TrimSuffix(filepath.Base(src), ".lance")
		if strings.Contains(src, "testdata") {
			name = "pylance" + name
		}
		if only != "" && !strings.Contains(","+only+",", ","+filepath.Base(name)+",") {
			continue
		}
		t.Run(name, func(t *testing.T) {
			dst := filepath.Join(dir, strings.ReplaceAll(name, "/", "_")+".lance")
			exp := strings.TrimSuffix(src, ".lance") + ".expected.json"
			if _, err := os.Stat(exp); err != nil {
				t.Skip("no expected values")
			}
			if corpusRewrite(ctx, t, src, dst, exp, "2.3") && !lanceCannotRead[filepath.Base(name)] {
				checkPlanarPages(ctx, t, dst)
				batch.add(name, dst, expectedAt23(t, exp, dir, name))
			}
		})
	}
	batch.run(t, lancePython())
}

// footerVersionRE matches the footer version of an expected.json.
var footerVersionRE = regexp.MustCompile(`"footer_version":\s*\[\s*\d+\s*,\s*\d+\s*\]`)

// expectedAt23 returns a copy of expected.json exp whose footer version is
// 2.3 (the values are unchanged by the rewrite).
func expectedAt23(t *testing.T, exp, dir, name string) string {
	b, err := os.ReadFile(exp)
	if err != nil {
		t.Fatal(err)
	}
	b = footerVersionRE.ReplaceAll(b, []byte(`"footer_version":[2,3]`))
	out := filepath.Join(dir, strings.ReplaceAll(name, "/", "_")+".expected.json")
	if err := os.WriteFile(out, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// checkPlanarPages asserts a written 2.3 file has footer 2.3 and only
// PlanarLayout pages.
func checkPlanarPages(ctx context.Context, t *testing.T, path string) {
	t.Helper()
	f, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := f.Metadata()
	if m.Version != format.V2_3 {
		t.Fatalf("version %s, want 2.3", m.Version)
	}
	for c, col := range m.Columns {
		for p, page := range col.GetPages() {
			a, err := format.DecodeEncodingAny(page.GetEncoding())
			if err != nil {
				t.Fatalf("column %d page %d: %v", c, p, err)
			}
			if got := format.MessageName(a.GetTypeUrl()); got != format.PlanarLayoutMessage {
				t.Fatalf("column %d page %d: %s, want %s", c, p, got, format.PlanarLayoutMessage)
			}
		}
	}
}

// TestWriterV23NullDensities writes int64, string, wide string and list
// columns with nulls at 0.1%, 50% and 99.9% (plus empty and null lists),
// dense by default and with lance-encoding:structural-encoding=sparse, in
// several pages at 2.3; our reader and pylance read the same values back.
func TestWriterV23NullDensities(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	sparse := arrow.NewMetadata([]string{"lance-encoding:structural-encoding"}, []string{"sparse"})
	var fields []arrow.Field
	for _, p := range []string{"p001", "p50", "p999"} {
		for _, md := range []struct {
			suffix string
			meta   arrow.Metadata
		}{{"", arrow.Metadata{}}, {"_sparse", sparse}} {
			fields = append(fields,
				arrow.Field{Name: "i64_" + p + md.suffix, Type: arrow.PrimitiveTypes.Int64, Nullable: true, Metadata: md.meta},
				arrow.Field{Name: "str_" + p + md.suffix, Type: arrow.BinaryTypes.String, Nullable: true, Metadata: md.meta},
				arrow.Field{Name: "wide_" + p + md.suffix, Type: arrow.BinaryTypes.String, Nullable: true, Metadata: md.meta},
				arrow.Field{Name: "list_" + p + md.suffix, Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true, Metadata: md.meta})
		}
	}
	schema := arrow.NewSchema(fields, nil)
	frac := map[string]float64{"p001": 0.001, "p50": 0.5, "p999": 0.999}
	r := rand.New(rand.NewPCG(7, 8))
	var recs []arrow.RecordBatch
	for range 3 {
		b := array.NewRecordBuilder(mem, schema)
		for i, f := range fields {
			p := frac[strings.Split(f.Name, "_")[1]]
			for row := 0; row < 4000; row++ {
				null := r.Float64() < p
				switch fb := b.Field(i).(type) {
				case *array.Int64Builder:
					if null {
						fb.AppendNull()
					} else {
						fb.Append(int64(r.IntN(1000)))
					}
				case *array.StringBuilder:
					n := r.IntN(20)
					if strings.HasPrefix(f.Name, "wide") {
						n += 300
					}
					if null {
						fb.AppendNull()
					} else {
						fb.Append(strings.Repeat(string(rune('a'+r.IntN(26))), n))
					}
				case *array.ListBuilder:
					switch {
					case null:
						fb.AppendNull()
					case r.IntN(4) == 0:
						fb.AppendEmptyValue()
					default:
						fb.Append(true)
						vb := fb.ValueBuilder().(*array.Int32Builder)
						for k := 1 + r.IntN(3); k > 0; k-- {
							vb.Append(int32(r.IntN(100)))
						}
					}
				}
			}
		}
		recs = append(recs, b.NewRecordBatch())
		b.Release()
	}
	path := roundTrip(t, schema, recs, WithFileVersion("2.3"), WithPageBudget(32<<10))
	for _, rec := range recs {
		rec.Release()
	}
	checkPlanarPages(context.Background(), t, path)
	if py := lancePython(); py != "" {
		verifyJSONWithLance(t, py, path)
	}
}
