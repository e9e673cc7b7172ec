package lance

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The lance-encoding:* key matrix (issue #19 item 2): every key the seed
// lists, each with the values that change what Lance writes, on the column
// shapes the key applies to, at 2.1, 2.2 and 2.3. Each case is written by
// our writer and by pylance 14.0.2 from the same input; the pages must have
// the same layout and codec tree (and the same bytes unless a general
// compressor is involved, where our LZ4/zstd pick other matches) and real
// Lance must read our file back with the input's values.

// matrixRows is the length of every matrix column: above the dictionary
// sampling size, small enough to keep the matrix fast.
const matrixRows = 3000

// matrixShape builds one column of matrixRows values.
type matrixShape struct {
	name  string
	build func(mem memory.Allocator, r *rand.Rand) arrow.Array
}

// matrixShapes are the columns, by name.
var matrixShapeList = []matrixShape{
	{"i32_small", func(mem memory.Allocator, r *rand.Rand) arrow.Array {
		b := array.NewInt32Builder(mem)
		defer b.Release()
		for range matrixRows {
			b.Append(r.Int32N(1000))
		}
		return b.NewArray()
	}},
	{"i64_runs", func(mem memory.Allocator, r *rand.Rand) arrow.Array {
		b := array.NewInt64Builder(mem)
		defer b.Release()
		v := int64(0)
		for i := range matrixRows {
			if i%60 == 0 {
				v = r.Int64N(1 << 40)
			}
			b.Append(v)
		}
		return b.NewArray()
	}},
	{"i32_r12_v16", runsShape(12, 16)},
	{"i32_r3_big", runsShape(3, 1<<30)},
	{"i64_r5_3of5", func(mem memory.Allocator, r *rand.Rand) arrow.Array {
		// 0.6 runs per value of wide values: RLE (5.4 bytes a value) beats
		// flat (8) but is past the default 0.5 run gate.
		b := array.NewInt64Builder(mem)
		defer b.Release()
		for i := 0; i < matrixRows; i += 5 {
			v := r.Int64()
			b.AppendValues([]int64{v, v, v, r.Int64(), r.Int64()}, nil)
		}
		return b.NewArray()
	}},
	{"f64_prices", func(mem memory.Allocator, r *rand.Rand) arrow.Array {
		b := array.NewFloat64Builder(mem)
		defer b.Release()
		p := 100.0
		for i := range matrixRows {
			p += float64(r.IntN(201)-100) / 100
			if i%17 == 5 {
				b.AppendNull()
				continue
			}
			b.Append(p)
		}
		return b.NewArray()
	}},
	{"f32_noise", func(mem memory.Allocator, r *rand.Rand) arrow.Array {
		b := array.NewFloat32Builder(mem)
		defer b.Release()
		for range matrixRows {
			b.Append(r.Float32()*1000 - 500)
		}
		return b.NewArray()
	}},
	{"utf8_short", func(mem memory.Allocator, r *rand.Rand) arrow.Array {
		b := array.NewStringBuilder(mem)
		defer b.Release()
		for i := range matrixRows {
			if i%11 == 3 {
				b.AppendNull()
				continue
			}
			b.Append(fmt.Sprintf("user-%d@example.com %d", r.IntN(1_000_000), i%97))
		}
		return b.NewArray()
	}},
	{"utf8_lowcard", func(mem memory.Allocator, r *rand.Rand) arrow.Array {
		words := []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"}
		b := array.NewStringBuilder(mem)
		defer b.Release()
		for range matrixRows {
			b.Append(words[r.IntN(len(words))])
		}
		return b.NewArray()
	}},
	{"utf8_1600of3000", func(mem memory.Allocator, r *rand.Rand) arrow.Array {
		// 1,600 distinct values in 3,000: past the default divisor's
		// 1,500-entry limit, within divisor 1's.
		b := array.NewStringBuilder(mem)
		defer b.Release()
		for i := range matrixRows {
			k := i
			if i >= 1600 {
				k = r.IntN(1600)
			}
			b.Append(fmt.Sprintf("customer-name-%06d", k))
		}
		return b.NewArray()
	}},
	{"utf8_long", func(mem memory.Allocator, r *rand.Rand) arrow.Array {
		b := array.NewStringBuilder(mem)
		defer b.Release()
		words := []string{"lance ", "column ", "page ", "chunk ", "value ", "zone "}
		for range matrixRows / 4 {
			var sb strings.Builder
			for n := 300 + r.IntN(400); sb.Len() < n; {
				sb.WriteString(words[r.IntN(len(words))])
			}
			b.Append(sb.String())
		}
		return b.NewArray()
	}},
	{"binary", func(mem memory.Allocator, r *rand.Rand) arrow.Array {
		b := array.NewBinaryBuilder(mem, arrow.BinaryTypes.Binary)
		defer b.Release()
		for range matrixRows {
			v := make([]byte, 4+r.IntN(20))
			for k := range v {
				v[k] = byte(r.IntN(256))
			}
			b.Append(v)
		}
		return b.NewArray()
	}},
	{"list_i32", func(mem memory.Allocator, r *rand.Rand) arrow.Array {
		b := array.NewListBuilder(mem, arrow.PrimitiveTypes.Int32)
		defer b.Release()
		vb := b.ValueBuilder().(*array.Int32Builder)
		for i := range matrixRows {
			if i%13 == 0 {
				b.AppendNull()
				continue
			}
			b.Append(true)
			for range r.IntN(5) {
				vb.Append(r.Int32N(100))
			}
		}
		return b.NewArray()
	}},
	{"struct", func(mem memory.Allocator, r *rand.Rand) arrow.Array {
		dt := arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32},
			arrow.Field{Name: "b", Type: arrow.PrimitiveTypes.Float64})
		b := array.NewStructBuilder(mem, dt)
		defer b.Release()
		for range matrixRows {
			b.Append(true)
			b.FieldBuilder(0).(*array.Int32Builder).Append(r.Int32N(1 << 20))
			b.FieldBuilder(1).(*array.Float64Builder).Append(float64(r.IntN(10000)) / 8)
		}
		return b.NewArray()
	}},
	{"large_binary", func(mem memory.Allocator, r *rand.Rand) arrow.Array {
		b := array.NewBinaryBuilder(mem, arrow.BinaryTypes.LargeBinary)
		defer b.Release()
		for i := range 200 {
			if i%9 == 4 {
				b.AppendNull()
				continue
			}
			b.Append([]byte(strings.Repeat(string(rune('a'+i%26)), 50+r.IntN(3000))))
		}
		return b.NewArray()
	}},
}

// runsShape builds int32 runs of runLen equal values drawn below maxV.
func runsShape(runLen int, maxV int64) func(memory.Allocator, *rand.Rand) arrow.Array {
	return func(mem memory.Allocator, r *rand.Rand) arrow.Array {
		b := array.NewInt32Builder(mem)
		defer b.Release()
		for b.Len() < matrixRows {
			v := int32(r.Int64N(maxV))
			for k := 0; k < runLen && b.Len() < matrixRows; k++ {
				b.Append(v)
			}
		}
		return b.NewArray()
	}
}

// matrixKnownDiffs are the matrix cases whose pages still differ from
// pylance's, with the reason; real Lance's read-back still runs for them.
var matrixKnownDiffs = map[string]string{}

// knownDiff returns the reason case name is a known difference, or "".
func knownDiff(name string) string {
	for k, why := range matrixKnownDiffs {
		if strings.HasSuffix(name, k) {
			return why
		}
	}
	return ""
}

// matrixKey is one key with the values to try and the shapes it applies
// to; extra is metadata every case of the key also carries (e.g. the
// compression BSS needs).
type matrixKey struct {
	key    string
	values []string
	shapes []string
	extra  []string
	// only lists the versions the key applies to (nil: every version).
	only []string
}

// allShapes names every matrix shape but large_binary (kept for blob).
func allShapes() []string {
	var out []string
	for _, s := range matrixShapeList {
		if s.name != "large_binary" {
			out = append(out, s.name)
		}
	}
	return out
}

// matrixKeys is the seed's key table (lance-encoding-strategy "Field
// Metadata Configuration"), less the 2.3 float codecs (alp, pcodec) that
// TestWriterCodecs23 covers.
func matrixKeys() []matrixKey {
	strs := []string{"utf8_short", "utf8_lowcard", "utf8_long", "binary"}
	nums := []string{"i32_small", "i64_runs", "f64_prices", "f32_noise", "list_i32"}
	return []matrixKey{
		{key: "lance-encoding:compression", values: []string{"none", "lz4", "zstd"}, shapes: allShapes()},
		{key: "lance-encoding:compression", values: []string{"fsst"}, shapes: strs},
		{key: "lance-encoding:compression-level", values: []string{"1", "9"}, shapes: []string{"utf8_short", "utf8_long", "i32_small", "f64_prices"},
			extra: []string{"lance-encoding:compression", "zstd"}},
		{key: "lance-encoding:bss", values: []string{"on", "off", "auto"}, shapes: []string{"f64_prices", "f32_noise"},
			extra: []string{"lance-encoding:compression", "zstd"}},
		{key: "lance-encoding:bss", values: []string{"on", "off"}, shapes: []string{"f64_prices", "f32_noise"}},
		{key: "lance-encoding:rle-threshold", values: []string{"0", "0.25", "1"}, shapes: []string{"i64_runs", "i32_small", "utf8_lowcard"}},
		{key: "lance-encoding:rle-threshold", values: []string{"0.05", "0.1", "0.4", "0.5", "0.7"},
			shapes: []string{"i32_r12_v16", "i32_r3_big", "i64_r5_3of5"}},
		{key: "lance-encoding:dict-divisor", values: []string{"1", "3", "1000"}, shapes: []string{"utf8_lowcard", "utf8_short", "i64_runs", "utf8_long"}},
		{key: "lance-encoding:dict-size-ratio", values: []string{"0.1", "0.5", "1.0"}, shapes: []string{"utf8_lowcard", "utf8_short", "i64_runs"}},
		{key: "lance-encoding:dict-values-compression", values: []string{"none", "lz4", "zstd"}, shapes: []string{"utf8_lowcard", "i64_runs"}},
		{key: "lance-encoding:dict-values-compression-level", values: []string{"3", "15"}, shapes: []string{"utf8_lowcard"},
			extra: []string{"lance-encoding:dict-values-compression", "zstd"}},
		{key: "lance-encoding:general", values: []string{"on", "off"}, shapes: append(append([]string{}, strs...), nums...)},
		{key: "lance-encoding:packed", values: []string{"true"}, shapes: []string{"struct"}},
		{key: "lance-encoding:structural-encoding", values: []string{"miniblock", "fullzip"},
			shapes: []string{"i32_small", "f64_prices", "utf8_short", "utf8_long", "binary", "list_i32"}},
		{key: "lance-encoding:blob", values: []string{"true"}, shapes: []string{"large_binary"}, only: []string{"2.1", "2.2"}},
	}
}

// matrixEnvs are the LANCE_* environment knobs, each with values that
// change a choice, applied to the shapes they act on.
var matrixEnvs = []struct {
	env    []string
	shapes []string
}{
	{[]string{"LANCE_ENCODING_DICT_TOO_SMALL=100000"}, []string{"utf8_lowcard", "i64_runs"}},
	{[]string{"LANCE_ENCODING_DICT_DIVISOR=1000"}, []string{"utf8_lowcard", "utf8_short"}},
	{[]string{"LANCE_ENCODING_DICT_DIVISOR=1"}, []string{"utf8_1600of3000", "utf8_short"}},
	{[]string{"LANCE_ENCODING_DICT_SIZE_RATIO=0.05"}, []string{"utf8_lowcard", "i64_runs"}},
	{[]string{"LANCE_ENCODING_DICT_MAX_CARDINALITY=4"}, []string{"utf8_lowcard", "utf8_short"}},
	{[]string{"LANCE_ENCODING_DICT_VALUES_COMPRESSION=none"}, []string{"utf8_lowcard"}},
	{[]string{"LANCE_ENCODING_DICT_VALUES_COMPRESSION=zstd", "LANCE_ENCODING_DICT_VALUES_COMPRESSION_LEVEL=9"}, []string{"utf8_lowcard"}},
	{[]string{"LANCE_MINIBLOCK_MAX_VALUES=128"}, []string{"i32_small", "utf8_short", "list_i32"}},
}

// matrixVersions are the file versions the matrix writes.
var matrixVersions = []string{"2.1", "2.2", "2.3"}

// matrixColumns builds every shape once (fixed seed) and returns them by
// name; release frees them.
func matrixColumns(mem memory.Allocator) (cols map[string]arrow.Array, release func()) {
	cols = map[string]arrow.Array{}
	for i, s := range matrixShapeList {
		cols[s.name] = s.build(mem, rand.New(rand.NewPCG(uint64(i)+1, 19)))
	}
	return cols, func() {
		for _, a := range cols {
			a.Release()
		}
	}
}

// matrixCase is the writer case of one shape with metadata kv at ver.
func matrixCase(name, ver string, col arrow.Array, kv []string) writerCase {
	kv = sortedPairs(kv) // real Lance returns field metadata sorted by key
	schema, rec := oneColumn(metaField("c", col.DataType(), kv...), col)
	return writerCase{name: name, ver: ver, schema: schema, recs: []arrow.RecordBatch{rec}}
}

// applies reports whether ver is in only (nil: every version).
func applies(only []string, ver string) bool {
	if only == nil {
		return true
	}
	for _, v := range only {
		if v == ver {
			return true
		}
	}
	return false
}

// TestEncodingKeyMatrix checks every lance-encoding:* key and value of the
// matrix against pylance 14.0.2 at 2.1, 2.2 and 2.3.
func TestEncodingKeyMatrix(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	mem := memory.NewGoAllocator()
	cols, release := matrixColumns(mem)
	defer release()
	var cases []writerCase
	for _, ver := range matrixVersions {
		for _, k := range matrixKeys() {
			if !applies(k.only, ver) {
				continue
			}
			for _, val := range k.values {
				for _, shape := range k.shapes {
					kv := append([]string{k.key, val}, k.extra...)
					c := matrixCase(fmt.Sprintf("%s/%s=%s/%s", ver, strings.TrimPrefix(k.key, "lance-encoding:"), val, shape), ver, cols[shape], kv)
					c.layoutOnly = true // codec trees: FSST tables and general compressors differ
					c.noPages = knownDiff(c.name)
					cases = append(cases, c)
				}
			}
		}
	}
	checkWriterCases(t, cases)
}

// TestEncodingEnvMatrix checks the LANCE_* environment knobs against
// pylance 14.0.2 run with the same environment.
func TestEncodingEnvMatrix(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	mem := memory.NewGoAllocator()
	cols, release := matrixColumns(mem)
	defer release()
	for _, e := range matrixEnvs {
		t.Run(strings.Join(e.env, ","), func(t *testing.T) {
			lookup := envLookup(e.env)
			var cases []writerCase
			for _, ver := range matrixVersions {
				for _, shape := range e.shapes {
					c := matrixCase(ver+"/"+shape, ver, cols[shape], nil)
					c.opts = []WriterOption{WithEnv(lookup)}
					c.layoutOnly = true
					cases = append(cases, c)
				}
			}
			checkWriterCasesEnv(t, cases, e.env)
			assertEnvChangesPages(t, cases)
		})
	}
}

// envLookup is an environment lookup that knows only kv ("K=V" pairs).
func envLookup(kv []string) func(string) string {
	m := map[string]string{}
	for _, e := range kv {
		k, v, _ := strings.Cut(e, "=")
		m[k] = v
	}
	return func(k string) string { return m[k] }
}

// sortedPairs returns the key, value pairs kv sorted by key.
func sortedPairs(kv []string) []string {
	type pair struct{ k, v string }
	var ps []pair
	for i := 0; i+1 < len(kv); i += 2 {
		ps = append(ps, pair{kv[i], kv[i+1]})
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].k < ps[j].k })
	out := make([]string, 0, len(kv))
	for _, p := range ps {
		out = append(out, p.k, p.v)
	}
	return out
}

// assertEnvChangesPages checks that an environment knob changes what we
// write for at least one of its cases (else the knob's matrix row could
// pass with the knob ignored by both writers).
func assertEnvChangesPages(t *testing.T, cases []writerCase) {
	t.Helper()
	dir := t.TempDir()
	for i := range cases {
		with := cases[i]
		without := with
		without.opts = []WriterOption{WithEnv(func(string) string { return "" })}
		without.name += "/default-env"
		if samePages(with.writeOurs(t, dir), without.writeOurs(t, dir), false) != nil {
			return
		}
	}
	t.Fatalf("the knob changed none of its %d cases' pages", len(cases))
}
