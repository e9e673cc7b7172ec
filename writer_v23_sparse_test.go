package lance

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/internal/testkit"
	"github.com/lancego/lancego/layouts"
)

// sparseRuleCase is one page of the automatic 2.3 sparse rule: a one-column
// file of rows rows whose value i is val(i) (JSON), and the planes pylance
// 14.0.2 gives the page (measured with rewrite_sizes.py, as this test does).
type sparseRuleCase struct {
	name string
	typ  arrow.DataType
	meta map[string]string
	rows int
	val  func(i int) string
	want string // "dense/chunked", "sparse/zipped", ...
	// sizeGap, when set, names why the file may be more than 5% larger
	// than pylance's (the size is then only logged).
	sizeGap string
}

// wideStr is a 300-byte string (over the 256-byte full-zip threshold).
func wideStr(i int) string { return fmt.Sprintf(`"%s"`, strings.Repeat(fmt.Sprintf("%06d", i), 50)) }

// randomItem: value i is item i%k of k random strings of n letters a-j.
func randomItem(k, n int) func(int) string {
	r := rand.New(rand.NewPCG(uint64(k), uint64(n)))
	items := make([]string, k)
	for j := range items {
		b := make([]byte, n)
		for x := range b {
			b[x] = byte('a' + r.IntN(10))
		}
		items[j] = `"` + string(b) + `"`
	}
	return func(i int) string { return items[i%k] }
}

// firstNulls: value i is null for the first k rows of every n in a
// scattered order (i*7919 mod n < k), else f(i).
func firstNulls(k, n int, f func(int) string) func(int) string {
	return func(i int) string {
		if (i*7919)%n < k {
			return "null"
		}
		return f(i)
	}
}

func sparseRuleCases() []sparseRuleCase {
	i32 := arrow.ListOf(arrow.PrimitiveTypes.Int32)
	alt := func(i int) string { // [] and [x] alternating: 1 level per row
		if i%2 == 1 {
			return "[]"
		}
		return fmt.Sprintf("[%d]", i%1000)
	}
	nullList := func(i int) string {
		if i%10 == 0 {
			return "null"
		}
		return fmt.Sprintf("[%d]", i%1000)
	}
	mix := func(i int) string { // empty lists and null items: rep 1 + def 2 bits
		switch i % 3 {
		case 0:
			return "[]"
		case 1:
			return "[null]"
		}
		return fmt.Sprintf("[%d]", 5+i%100)
	}
	ll := func(i int) string { // 10 levels per 3 rows at rep 2 + def 1 bits
		part := func(j int) string {
			if (i+j)%3 == 0 {
				return "[]"
			}
			return "[1,2]"
		}
		return "[" + part(0) + "," + part(1) + "]"
	}
	structList := func(i int) string {
		if i%5 == 0 {
			return "null"
		}
		return fmt.Sprintf(`{"l":[%d]}`, i%100)
	}
	wideOrShort := func(i int) string { return fmt.Sprintf(`"s%d"`, i) }
	vec := func(i int) string {
		parts := make([]string, 64)
		for k := range parts {
			parts[k] = fmt.Sprint(i + k)
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	rep300 := func(i int) string { return fmt.Sprintf(`"%s"`, strings.Repeat(string(rune('a'+i%26)), 300)) }
	sparse := map[string]string{"lance-encoding:structural-encoding": "sparse"}
	return []sparseRuleCase{
		// Dense structural budget: levels x (rep bits + def bits) < 131072.
		{"list_empty_65535", i32, nil, 65535, alt, "dense/chunked", ""},
		{"list_empty_65536", i32, nil, 65536, alt, "sparse/chunked", ""},
		{"list_null_65535", i32, nil, 65535, nullList, "dense/chunked", ""},
		{"list_null_65536", i32, nil, 65536, nullList, "sparse/chunked", ""},
		{"list_mix_43690", i32, nil, 43690, mix, "dense/chunked", ""},
		{"list_mix_43691", i32, nil, 43691, mix, "sparse/chunked", ""},
		{"list_list_13107", arrow.ListOf(i32), nil, 13107, ll, "dense/chunked", ""},
		{"list_list_13108", arrow.ListOf(i32), nil, 13108, ll, "sparse/chunked", ""},
		{"struct_list_43690", arrow.StructOf(arrow.Field{Name: "l", Type: i32, Nullable: true}), nil, 43690, structList, "dense/chunked", ""},
		{"struct_list_43691", arrow.StructOf(arrow.Field{Name: "l", Type: i32, Nullable: true}), nil, 43691, structList, "sparse/chunked", ""},
		// Lists without null or empty lists are never over budget.
		{"list_valid_131073", i32, nil, 131073, func(i int) string { return fmt.Sprintf("[%d]", i%1000) }, "dense/chunked", ""},
		{"list_null_items_131073", i32, nil, 131073, func(i int) string {
			if i%10 == 0 {
				return "[null]"
			}
			return fmt.Sprintf("[%d]", i%1000)
		}, "dense/chunked", ""},
		// Mostly-null wide values: more than half the leaf slots null.
		{"wide_1000_of_2000", arrow.BinaryTypes.String, nil, 2000, firstNulls(1000, 2000, wideStr), "dense/zipped", ""},
		{"wide_1001_of_2000", arrow.BinaryTypes.String, nil, 2000, firstNulls(1001, 2000, wideStr), "sparse/zipped",
			"FSST symbol tables: on this periodic text Lance's (randomly sampled, 147-159 KB over runs) beats ours (167 KB) on the 999 values, ours beats Lance's on the 1000 of wide_1000_of_2000"},
		{"wide_one_of_many", arrow.BinaryTypes.String, nil, 2000, firstNulls(1200, 2000, func(i int) string {
			if i == 1 { // (1*7919)%2000 >= 1200: not null
				return wideStr(i)
			}
			return wideOrShort(i)
		}), "sparse/zipped", ""},
		{"vec64_1000_of_2000", arrow.FixedSizeListOf(64, arrow.PrimitiveTypes.Float32), nil, 2000, firstNulls(1000, 2000, vec), "dense/zipped", ""},
		{"vec64_1001_of_2000", arrow.FixedSizeListOf(64, arrow.PrimitiveTypes.Float32), nil, 2000, firstNulls(1001, 2000, vec), "sparse/zipped", ""},
		{"narrow_1999_of_2000", arrow.BinaryTypes.String, nil, 2000, firstNulls(1999, 2000, wideOrShort), "dense/chunked", ""},
		{"wide_miniblock", arrow.BinaryTypes.String, map[string]string{"lance-encoding:structural-encoding": "miniblock"},
			2000, firstNulls(1200, 2000, wideStr), "dense/chunked", ""},
		{"wide_fullzip", arrow.BinaryTypes.String, map[string]string{"lance-encoding:structural-encoding": "fullzip"},
			2000, firstNulls(1200, 2000, wideStr), "dense/zipped", ""},
		{"list_wide_null_lists", arrow.ListOf(arrow.BinaryTypes.String), nil, 2000,
			firstNulls(1200, 2000, func(i int) string { return "[" + wideStr(i) + "]" }), "dense/zipped", ""},
		{"list_wide_null_items", arrow.ListOf(arrow.BinaryTypes.String), nil, 2000, func(i int) string {
			return "[" + firstNulls(1200, 2000, wideStr)(i) + "]"
		}, "sparse/zipped", ""},
		{"struct_wide_null_structs", arrow.StructOf(arrow.Field{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}), nil, 2000,
			firstNulls(1200, 2000, func(i int) string { return `{"s":` + wideStr(i) + `}` }), "sparse/zipped", ""},
		// A dictionary composes with the automatic sparse choice.
		{"wide_dict_mostly_null", arrow.BinaryTypes.String, nil, 2000, firstNulls(1200, 2000, rep300), "sparse/chunked", ""},
		{"wide_dict_requested", arrow.BinaryTypes.String, sparse, 2000, firstNulls(600, 2000, rep300), "sparse/chunked", ""},
		// A string dictionary of 64 KiB or more gives indexed values.
		{"indexed_auto", arrow.BinaryTypes.String, nil, 2000, firstNulls(1200, 2000, randomItem(34, 2000)), "sparse/indexed", ""},
		{"indexed_requested", arrow.BinaryTypes.String, sparse, 3000, firstNulls(900, 3000, randomItem(700, 100)), "sparse/indexed", ""},
		// An Arrow dictionary column of wide, mostly-null strings.
		{"arrow_dict_mostly_null", &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String},
			nil, 2000, firstNulls(1200, 2000, func(i int) string { return fmt.Sprint(i % 30) }), "sparse/chunked", ""},
		{"indexed_under_64k", arrow.BinaryTypes.String, sparse, 2000, firstNulls(900, 2000, randomItem(30, 1800)), "sparse/chunked", ""},
	}
}

// TestWriterV23SparseRule writes every sparseRuleCase with our writer at
// 2.3; pylance 14.0.2 rewrites each file (rewrite_sizes.py) and reads ours
// back. Every page's planes must equal the case's want and pylance's.
func TestWriterV23SparseRule(t *testing.T) {
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	if keep := os.Getenv("LANCE_WRITER_KEEP"); keep != "" {
		dir = keep
	}
	py := lancePython()
	var batch lanceBatch
	cases := sparseRuleCases()
	var paths []string
	for _, c := range cases {
		path, exp := writeSparseRuleCase(t, mem, dir, c)
		paths = append(paths, path)
		batch.add(c.name, path, exp)
		if got := planeKinds(ctx, t, path); got != c.want {
			t.Errorf("%s: ours %s, want %s (pylance 14.0.2)", c.name, got, c.want)
		}
	}
	if py == "" || testing.Short() {
		return
	}
	sub := filepath.Join(dir, "py")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(py, append([]string{"testdata/pylance/rewrite_sizes.py", sub, "2.3"}, paths...)...).Output()
	if err != nil {
		t.Fatalf("rewrite_sizes.py: %v\n%s", err, out)
	}
	sizes := map[string]int64{}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) == 2 {
			sizes[f[0]], _ = strconv.ParseInt(f[1], 10, 64)
		}
	}
	for i, c := range cases {
		theirs := planeKinds(ctx, t, filepath.Join(sub, "2.3_"+c.name+".lance"))
		if theirs != c.want {
			t.Errorf("%s: pylance 14.0.2 writes %s, the table says %s", c.name, theirs, c.want)
		}
		st, err := os.Stat(paths[i])
		if err != nil {
			t.Fatal(err)
		}
		r := float64(st.Size()) / float64(sizes[c.name])
		switch {
		case c.sizeGap != "":
			t.Logf("%s: %d bytes, pylance 14.0.2 %d (ratio %.3f; %s)", c.name, st.Size(), sizes[c.name], r, c.sizeGap)
		case sizes[c.name] == 0 || r > 1.05:
			t.Errorf("%s: %d bytes, pylance 14.0.2 %d (ratio %.3f > 1.05)", c.name, st.Size(), sizes[c.name], r)
		}
	}
	batch.run(t, py)
}

// writeSparseRuleCase writes c with our writer and its expected.json.
func writeSparseRuleCase(t *testing.T, mem memory.Allocator, dir string, c sparseRuleCase) (string, string) {
	t.Helper()
	var js strings.Builder
	js.WriteByte('[')
	for i := range c.rows {
		if i > 0 {
			js.WriteByte(',')
		}
		js.WriteString(c.val(i))
	}
	js.WriteByte(']')
	arr := caseArray(t, mem, c, js.String())
	defer arr.Release()
	var md arrow.Metadata
	if c.meta != nil {
		md = arrow.MetadataFrom(c.meta)
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "c", Type: c.typ, Nullable: true, Metadata: md}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{arr}, int64(c.rows))
	defer rec.Release()
	path := filepath.Join(dir, c.name+".lance")
	w, err := Create(context.Background(), path, schema, WithFileVersion("2.3"))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	exp := testkit.ExpectedJSON(t, schema, []arrow.RecordBatch{rec})
	return path, exp
}

// caseArray builds the column of c from its JSON; for a dictionary type
// the JSON holds the keys, into 30 wide strings.
func caseArray(t *testing.T, mem memory.Allocator, c sparseRuleCase, js string) arrow.Array {
	t.Helper()
	dt, isDict := c.typ.(*arrow.DictionaryType)
	typ := c.typ
	if isDict {
		typ = dt.IndexType
	}
	arr, _, err := array.FromJSON(mem, typ, strings.NewReader(js))
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	if !isDict {
		return arr
	}
	defer arr.Release()
	var words strings.Builder
	words.WriteByte('[')
	for k := range 30 {
		if k > 0 {
			words.WriteByte(',')
		}
		words.WriteString(wideStr(k))
	}
	words.WriteByte(']')
	dict, _, err := array.FromJSON(mem, dt.ValueType, strings.NewReader(words.String()))
	if err != nil {
		t.Fatal(err)
	}
	defer dict.Release()
	return array.NewDictionaryArray(dt, arr, dict)
}

// planeKinds is "structure/values" of every page of the file at path
// ("dense/chunked", "sparse/zipped", ...), distinct kinds joined by "+".
func planeKinds(ctx context.Context, t *testing.T, path string) string {
	t.Helper()
	f, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var kinds []string
	seen := map[string]bool{}
	for c, col := range f.Metadata().Columns {
		for p, page := range col.GetPages() {
			enc, err := format.DecodePageEncoding(page)
			if err != nil || enc.Planar == nil {
				t.Fatalf("%s: column %d page %d: not a planar page (%v)", path, c, p, err)
			}
			k := strings.TrimPrefix(layouts.DescribePlanar(enc.Planar).Layout, "planar ")
			if !seen[k] {
				seen[k] = true
				kinds = append(kinds, k)
			}
		}
	}
	return strings.Join(kinds, "+")
}
