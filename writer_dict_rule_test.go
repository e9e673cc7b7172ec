package lance

import (
	"context"
	"encoding/binary"
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
			keys, vals = append(keys, "lance-encoding:dict-divisor"), append(vals, c.divisor)
		}
		if c.none {
			keys, vals = append(keys, "lance-encoding:compression"), append(vals, "none")
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
		bld.Append(binary.LittleEndian.AppendUint64(make([]byte, 8), uint64(i%distinct)))
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
