package lance

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/format"
)

// ruleParams are the default dictionary parameters with the given divisor.
func ruleParams(divisor uint64) encodingParams {
	return encodingParams{dictTooSmall: defaultDictTooSmall, dictSizeRatio: defaultDictSizeRatio, dictDivisor: divisor}
}

// stringValues builds a variable-width value block; a nil entry of strs is
// a null slot (stored as a zero-length value, as the writer gathers it).
func stringValues(strs []*string, large bool) *values {
	v := &values{kind: valVariable, n: len(strs), large: large, offsets: make([]uint64, 1, len(strs)+1)}
	for i, s := range strs {
		if s == nil {
			if v.valid == nil {
				v.valid = make([]bool, len(strs))
				for j := range i {
					v.valid[j] = true
				}
			}
		} else {
			v.data = append(v.data, *s...)
			if v.valid != nil {
				v.valid[i] = true
			}
		}
		v.offsets = append(v.offsets, uint64(len(v.data)))
	}
	return v
}

// fixedValues builds a 64- or 128-bit block whose value i is ids[i].
func fixedValues(bits int, ids []int) *values {
	v := &values{kind: valFixed, n: len(ids), bits: bits}
	for _, id := range ids {
		v.data = appendLE(v.data, uint64(id), 8)
		if bits == 128 {
			v.data = appendLE(v.data, 0, 8)
		}
	}
	return v
}

// testSamplePositions lists the rows Lance samples in an n-value page:
// 32 blocks starting at b*n/32, the first min(n,4096)/32 rows of each.
func testSamplePositions(n int) []int {
	if n < 1024 {
		return nil
	}
	per := min(n, 4096) / 32
	var pos []int
	for b := range 32 {
		lo, hi := b*n/32, (b+1)*n/32
		for i := lo; i < lo+per && i < hi; i++ {
			pos = append(pos, i)
		}
	}
	return pos
}

// sampledStrings returns n values whose sample (testSamplePositions) holds
// exactly distinct different values and whose other rows are one long
// filler, so that the exact dictionary stays cheap. With nullAt > 0 every
// nullAt-th sampled row is null instead, and the sample then holds
// distinct-1 strings and the null.
func sampledStrings(n, distinct, nullAt int) []*string {
	filler := "filler-value-long-enough-to-pay"
	out := make([]*string, n)
	for i := range out {
		out[i] = &filler
	}
	pos := testSamplePositions(n)
	names := make([]string, distinct)
	for k := range names {
		names[k] = fmt.Sprintf("sampled-value-%06d", k)
	}
	for k, i := range pos {
		switch {
		case nullAt > 0 && k%nullAt == 0:
			out[i] = nil
		case nullAt > 0:
			out[i] = &names[k%(distinct-1)]
		default:
			out[i] = &names[k%distinct]
		}
	}
	return out
}

// cycleStrings returns n values cycling through distinct values of size
// bytes each.
func cycleStrings(n, distinct, size int) []*string {
	names := make([]string, distinct)
	for k := range names {
		names[k] = fmt.Sprintf("%0*d", size, k)
	}
	out := make([]*string, n)
	for i := range out {
		out[i] = &names[i%distinct]
	}
	return out
}

// strPtrs turns strings into the pointers stringValues takes.
func strPtrs(ss ...string) []*string {
	out := make([]*string, len(ss))
	for i := range ss {
		out[i] = &ss[i]
	}
	return out
}

// TestDictSampleSlots checks the size of Lance's sample of a page.
func TestDictSampleSlots(t *testing.T) {
	for _, tc := range []struct {
		n, per, total int
		ok            bool
	}{
		{n: 1023},
		{n: 1024, per: 32, total: 1024, ok: true},
		{n: 2047, per: 63, total: 2016, ok: true},
		{n: 4095, per: 127, total: 4064, ok: true},
		{n: 4096, per: 128, total: 4096, ok: true},
		{n: 5001, per: 128, total: 4096, ok: true},
		{n: 1_000_000, per: 128, total: 4096, ok: true},
	} {
		blocks, per, total, ok := sampleSlots(tc.n)
		if ok != tc.ok || (ok && (blocks != 32 || per != tc.per || total != tc.total)) {
			t.Errorf("n=%d: blocks %d per %d total %d ok %v, want 32 %d %d %v", tc.n, blocks, per, total, ok, tc.per, tc.total, tc.ok)
		}
		if ok && total != len(testSamplePositions(tc.n)) {
			t.Errorf("n=%d: total %d, sample positions %d", tc.n, total, len(testSamplePositions(tc.n)))
		}
	}
}

// TestDictRuleDecision checks the dictionary decision on crafted pages at
// the boundaries of each part of the rule: the sampling gate's projection
// ceil(r*n) against the threshold min(n/divisor, 100000), its 0.98 unique
// ratio, and the exact build's entry, size and dictionary-bytes budgets.
func TestDictRuleDecision(t *testing.T) {
	cycle := func(n, distinct int) []int {
		ids := make([]int, n)
		for i := range ids {
			ids[i] = i % distinct
		}
		return ids
	}
	for _, tc := range []struct {
		name    string
		v       *values
		divisor uint64
		gate    bool           // shouldDictionary admits the page
		dict    bool           // and the exact build stays within budget
		ver     format.Version // 0: 2.1
	}{
		// r = 2048/4096 = 0.5: ceil(0.5*n) against n/2.
		{"proj=threshold n=5000", stringValues(sampledStrings(5000, 2048, 0), false), 2, true, true, 0},
		{"proj=threshold+1 n=5001", stringValues(sampledStrings(5001, 2048, 0), false), 2, false, false, 0},
		// The 100 000 cap: ceil(0.5*200000) = 100000, ceil(0.5*200001) = 100001.
		{"proj=cap n=200000", stringValues(sampledStrings(200_000, 2048, 0), false), 2, true, true, 0},
		{"proj=cap+1 n=200001", stringValues(sampledStrings(200_001, 2048, 0), false), 2, false, false, 0},
		// 2016 samples below 4096 rows: ceil(1007/2016*2047) = 1023, ceil(1008/2016*2047) = 1024.
		{"small sample proj=threshold", stringValues(sampledStrings(2047, 1007, 0), false), 2, true, true, 0},
		{"small sample proj=threshold+1", stringValues(sampledStrings(2047, 1008, 0), false), 2, false, false, 0},
		// Null slots are the value "" in the sample: 2047 strings + null = 2048.
		// Without the null, 2047/4096*5001 would project 2500 and pass.
		{"null sampled proj=threshold", stringValues(sampledStrings(5000, 2048, 7), false), 2, true, true, 0},
		{"null sampled proj=threshold+1", stringValues(sampledStrings(5001, 2048, 7), false), 2, false, false, 0},
		// The unique-ratio gate: 4014/4096 < 0.98 <= 4015/4096 (threshold n).
		{"ratio below 0.98", stringValues(sampledStrings(100_000, 4014, 0), false), 1, true, true, 0},
		{"ratio 0.98", stringValues(sampledStrings(100_000, 4015, 0), false), 1, false, false, 0},
		// Below 1024 values there is no gate; the build stops above n/2 entries.
		{"entries=threshold", stringValues(cycleStrings(1000, 500, 40), false), 2, true, true, 0},
		{"entries=threshold+1", stringValues(cycleStrings(1000, 501, 40), false), 2, true, false, 0},
		{"no gate, all distinct", stringValues(cycleStrings(1000, 1000, 40), false), 1, true, false, 0},
		{"too small", stringValues(cycleStrings(99, 1, 40), false), 2, false, false, 0},
		// Size budget, 32-bit offsets: data 10000 + 4*1001 = 14004, max 11203;
		// encoded = 10e + 4*1000 + 4*(e+1): e=514 -> 11200, e=515 -> 11214.
		{"size=budget", stringValues(cycleStrings(1000, 514, 10), false), 1, true, true, 0},
		{"size>budget", stringValues(cycleStrings(1000, 515, 10), false), 1, true, false, 0},
		// 64-bit offsets: data 10000 + 8*1001 = 18008, max 14406;
		// encoded = 10e + 4*1000 + 8*(e+1): e=577 -> 14394, e=578 -> 14412.
		{"large size=budget", stringValues(cycleStrings(1000, 577, 10), true), 1, true, true, 0},
		{"large size>budget", stringValues(cycleStrings(1000, 578, 10), true), 1, true, false, 0},
		// Fixed 128-bit: max = 16000*0.8 = 12800; encoded = 16e + 4*1000.
		{"fixed size=budget", fixedValues(128, cycle(1000, 550)), 1, true, true, 0},
		{"fixed size>budget", fixedValues(128, cycle(1000, 551)), 1, true, false, 0},
		// Fixed 64-bit, 2.2 only: max = 8000*0.8 = 6400; encoded = 8e + 4*1000.
		{"int64 size=budget", fixedValues(64, cycle(1000, 300)), 1, true, true, format.V2_2},
		{"int64 size>budget", fixedValues(64, cycle(1000, 301)), 1, true, false, format.V2_2},
		{"int64 in 2.1", fixedValues(64, cycle(1000, 10)), 1, false, false, 0},
		// Dictionary value bytes are capped at 8 MiB = 8388608: 33554*250
		// fits, 33555*250 does not (values stay below full-zip's 256 bytes).
		{"dict bytes=cap", stringValues(cycleStrings(67_110, 33_554, 250), false), 1, true, true, 0},
		{"dict bytes>cap", stringValues(cycleStrings(67_110, 33_555, 250), false), 1, true, false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ver := tc.ver
			if ver == 0 {
				ver = format.V2_1
			}
			b, gate := shouldDictionary(tc.v, ruleParams(tc.divisor), ver)
			dict := false
			if gate {
				set, ind := buildDictionary(tc.v, &b)
				dict = set != nil
				if dict && (ind.n != tc.v.n || uint64(len(set.first)) > b.maxEntries) {
					t.Fatalf("build: %d indices, %d entries (max %d)", ind.n, len(set.first), b.maxEntries)
				}
			}
			if gate != tc.gate || dict != tc.dict {
				r, _ := sampleUniqueRatio(tc.v)
				t.Fatalf("gate %v dict %v, want %v %v (r=%v, budget %+v)", gate, dict, tc.gate, tc.dict, r, b)
			}
		})
	}
}

// TestDictRuleBuildMatchesEncode checks that a budgeted build numbers
// values like the unbudgeted one used for Arrow dictionary columns.
func TestDictRuleBuildMatchesEncode(t *testing.T) {
	v := stringValues(strPtrs("b", "a", "b", "", "c", "a"), false)
	b := dictBudget{maxEntries: 10, maxEncoded: 1 << 20, maxValueBytes: 1 << 20}
	s1, i1 := buildDictionary(v, &b)
	s2, i2 := buildDictionary(v, nil)
	if s1 == nil || !bytes.Equal(i1.data, i2.data) || len(s1.first) != 4 || len(s2.first) != 4 {
		t.Fatalf("budgeted %v, unbudgeted %v", i1, i2)
	}
}

// zipfWords returns n nullable strings: one in five null, the others words
// of 2-10 letters drawn with probability proportional to 1/rank^s from a
// vocabulary of vocab words.
func zipfWords(mem memory.Allocator, n, vocab int, s float64, seed uint64) *array.String {
	r := rand.New(rand.NewPCG(seed, 7))
	words := make([]string, vocab)
	cdf := make([]float64, vocab)
	seen := map[string]bool{}
	total := 0.0
	for i := range words {
		for {
			b := make([]byte, 2+r.IntN(9))
			for j := range b {
				b[j] = "etaoinshrdlcumwfgypbvkjxqz"[r.IntN(26)]
			}
			if w := string(b); !seen[w] {
				seen[w], words[i] = true, w
				break
			}
		}
		total += math.Pow(float64(i+1), -s)
		cdf[i] = total
	}
	bld := array.NewStringBuilder(mem)
	defer bld.Release()
	for range n {
		if r.IntN(5) == 0 {
			bld.AppendNull()
		} else {
			k := sort.SearchFloat64s(cdf, r.Float64()*total)
			bld.Append(words[min(k, vocab-1)])
		}
	}
	return bld.NewStringArray()
}

// dictRuleCase is one column written by both writers.
type dictRuleCase struct {
	name    string
	col     arrow.Array
	divisor string // lance-encoding:dict-divisor, "" for the default
	none    bool   // lance-encoding:compression=none
}

// TestDictRuleMatchesPylance writes the same column with our writer and
// with pylance (file versions 2.1 and 2.2) and checks that every page of
// both files makes the same dictionary decision: Zipf-distributed words
// with nulls at row counts on both sides of the exact-size switch (~6.7k
// rows) and of the sampling-gate switch at the 100 000-entry cap (~270k
// rows, where the decision flips back and forth), and the boundary cases of
// TestDictRuleDecision.
func TestDictRuleMatchesPylance(t *testing.T) {
	py := lancePython()
	if py == "" {
		t.Skip("no pylance venv (set LANCE_PY or create .ci/venv)")
	}
	mem := memory.NewGoAllocator()
	words := zipfWords(mem, 270_107, 4000, 0.8, 1)
	defer words.Release()
	var cases []dictRuleCase
	for _, n := range []int64{6713, 6714, 6722, 6723, 6724, 270_101, 270_102, 270_106, 270_107} {
		cases = append(cases, dictRuleCase{name: fmt.Sprintf("zipf-%d", n), col: array.NewSlice(words, 0, n)})
	}
	str := func(name string, strs []*string, divisor string) dictRuleCase {
		return dictRuleCase{name: name, col: stringArray(mem, strs, false), divisor: divisor}
	}
	cases = append(cases,
		str("proj=threshold", sampledStrings(5000, 2048, 0), ""),
		str("proj=threshold+1", sampledStrings(5001, 2048, 0), ""),
		str("small-sample-threshold", sampledStrings(2047, 1007, 0), ""),
		str("small-sample-threshold+1", sampledStrings(2047, 1008, 0), ""),
		str("null-threshold", sampledStrings(5000, 2048, 7), ""),
		str("null-threshold+1", sampledStrings(5001, 2048, 7), ""),
		str("ratio<0.98", sampledStrings(100_000, 4014, 0), "1"),
		str("ratio=0.98", sampledStrings(100_000, 4015, 0), "1"),
		str("entries=threshold", cycleStrings(1000, 500, 40), ""),
		str("entries=threshold+1", cycleStrings(1000, 501, 40), ""),
		str("size=budget", cycleStrings(1000, 514, 10), "1"),
		str("size>budget", cycleStrings(1000, 515, 10), "1"),
		str("dict-bytes=cap", cycleStrings(67_110, 33_554, 250), "1"),
		str("dict-bytes>cap", cycleStrings(67_110, 33_555, 250), "1"),
		dictRuleCase{name: "large-size=budget", col: stringArray(mem, cycleStrings(1000, 577, 10), true), divisor: "1"},
		dictRuleCase{name: "large-size>budget", col: stringArray(mem, cycleStrings(1000, 578, 10), true), divisor: "1"},
		dictRuleCase{name: "fixed-size=budget", col: fixed16Array(mem, 1000, 550), divisor: "1"},
		dictRuleCase{name: "fixed-size>budget", col: fixed16Array(mem, 1000, 551), divisor: "1"},
		// 64-bit values (2.2 only): max = 8000*0.8 = 6400; encoded = 8e + 4*1000.
		dictRuleCase{name: "int64-size=budget", col: int64Array(mem, 1000, 300), divisor: "1"},
		dictRuleCase{name: "int64-size>budget", col: int64Array(mem, 1000, 301), divisor: "1"},
		// Values of full-zip size: Lance tries the dictionary first.
		str("long-repeated", cycleStrings(2000, 20, 300), ""),
		str("long-unique", cycleStrings(2000, 2000, 300), ""),
		// compression=none does not turn the dictionary off.
		dictRuleCase{name: "compression-none", col: stringArray(mem, cycleStrings(10_000, 50, 8), false), none: true},
	)
	defer func() {
		for _, c := range cases {
			c.col.Release()
		}
	}()

	ctx := context.Background()
	dir := t.TempDir()
	for i, c := range cases {
		var keys, vals []string
		if c.divisor != "" {
			keys, vals = append(keys, metaDictDivisor), append(vals, c.divisor)
		}
		if c.none {
			keys, vals = append(keys, metaCompression), append(vals, "none")
		}
		md := arrow.NewMetadata(keys, vals)
		schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: c.col.DataType(), Nullable: true, Metadata: md}}, nil)
		rec := array.NewRecordBatch(schema, []arrow.Array{c.col}, int64(c.col.Len()))
		writeIPCFile(t, filepath.Join(dir, fmt.Sprintf("%d.arrow", i)), schema, rec)
		rec.Release()
	}
	for _, ver := range []string{"2.1", "2.2"} {
		t.Run(ver, func(t *testing.T) {
			args := []string{"-c", dictRulePylanceScript, ver}
			for i := range cases {
				src := filepath.Join(dir, fmt.Sprintf("%d.arrow", i))
				rewriteIPC(ctx, t, src, filepath.Join(dir, fmt.Sprintf("%d.go%s.lance", i, ver)), ver)
				args = append(args, src, filepath.Join(dir, fmt.Sprintf("%d.py%s.lance", i, ver)))
			}
			if out, err := exec.Command(py, args...).CombinedOutput(); err != nil {
				t.Fatalf("pylance: %v\n%s", err, out)
			}
			zipfDict := map[bool]int{}
			for i, c := range cases {
				ours := dictPages(ctx, t, filepath.Join(dir, fmt.Sprintf("%d.go%s.lance", i, ver)))
				theirs := dictPages(ctx, t, filepath.Join(dir, fmt.Sprintf("%d.py%s.lance", i, ver)))
				if fmt.Sprint(ours) != fmt.Sprint(theirs) {
					t.Errorf("%s: dictionary pages ours %v, pylance %v", c.name, ours, theirs)
				}
				if strings.HasPrefix(c.name, "zipf-") && len(theirs) == 1 {
					zipfDict[theirs[0]]++
				}
			}
			if zipfDict[true] == 0 || zipfDict[false] == 0 {
				t.Errorf("the Zipf row counts no longer straddle pylance's switch: %v", zipfDict)
			}
		})
	}
}

// stringArray builds a (large) string array; nil entries are nulls.
func stringArray(mem memory.Allocator, strs []*string, large bool) arrow.Array {
	var bld interface {
		array.Builder
		Append(string)
	}
	if large {
		bld = array.NewLargeStringBuilder(mem)
	} else {
		bld = array.NewStringBuilder(mem)
	}
	defer bld.Release()
	for _, s := range strs {
		if s == nil {
			bld.AppendNull()
		} else {
			bld.Append(*s)
		}
	}
	return bld.NewArray()
}

// fixed16Array builds n 16-byte values cycling through distinct values.
func fixed16Array(mem memory.Allocator, n, distinct int) arrow.Array {
	bld := array.NewFixedSizeBinaryBuilder(mem, &arrow.FixedSizeBinaryType{ByteWidth: 16})
	defer bld.Release()
	for i := range n {
		bld.Append(appendLE(make([]byte, 8), uint64(i%distinct), 8))
	}
	return bld.NewArray()
}

// int64Array builds n int64 values cycling through distinct spread-out
// values (so that bit-packing cannot beat the dictionary).
func int64Array(mem memory.Allocator, n, distinct int) arrow.Array {
	bld := array.NewInt64Builder(mem)
	defer bld.Release()
	for i := range n {
		bld.Append(int64(uint64(i%distinct) * 0x9E3779B97F4A7C15))
	}
	return bld.NewArray()
}

// dictRulePylanceScript writes each Arrow IPC file given (after the file
// version, pairs of input and output paths) as a one-batch Lance file with
// pylance.
const dictRulePylanceScript = `
import sys
import pyarrow as pa
from lance.file import LanceFileWriter
version, args = sys.argv[1], sys.argv[2:]
for src, dst in zip(args[::2], args[1::2]):
    table = pa.ipc.open_file(src).read_all()
    with LanceFileWriter(dst, table.schema, version=version) as w:
        w.write_batch(table)
`

// rewriteIPC writes the one-batch Arrow IPC file src with our writer.
func rewriteIPC(ctx context.Context, t *testing.T, src, dst, version string) {
	f, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := ipc.NewFileReader(f)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rec, err := r.RecordBatch(0)
	if err != nil {
		t.Fatal(err)
	}
	w, err := Create(ctx, dst, r.Schema(), WithFileVersion(version))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
}

// writeIPCFile writes one record batch as an Arrow IPC file.
func writeIPCFile(t *testing.T, path string, schema *arrow.Schema, rec arrow.RecordBatch) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := ipc.NewFileWriter(f, ipc.WithSchema(schema))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// dictPages reports, per page of the file's first column, whether it is
// dictionary-encoded (a mini-block layout with a dictionary).
func dictPages(ctx context.Context, t *testing.T, path string) []bool {
	f, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []bool
	for _, pg := range f.Metadata().Columns[0].GetPages() {
		pl, err := format.DecodePageLayout(pg)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, pl.GetMiniBlockLayout().GetDictionary() != nil)
	}
	return out
}
