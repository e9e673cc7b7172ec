package expr_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	lance "github.com/lancego/lancego"
	"github.com/lancego/lancego/expr"
)

// TestProbes runs the 314 filters of testdata/probes-pylance-14.0.2.tsv
// (spec/filters, made by probe.py with pylance 14.0.2) on the 6-row probe
// dataset pylance wrote (testdata/probe.lance): an OK line must parse,
// bind and evaluate and keep exactly the rows (their i64 values, in scan
// order) pylance kept; an ERR line must fail in Parse, Bind or Evaluate.
func TestProbes(t *testing.T) {
	tb := readTable(t, "testdata/probe.lance", 0)
	if tb.rows != 6 {
		t.Fatalf("probe.lance: %d rows, want 6", tb.rows)
	}
	lines := readGolden(t, "testdata/probes-pylance-14.0.2.tsv")
	if len(lines) != 314 {
		t.Fatalf("probes-pylance-14.0.2.tsv: %d probes, want 314", len(lines))
	}
	runGolden(t, "probes", tb, "i64", lines)
}

// goldenLine is one line of a golden TSV: OK<TAB>filter<TAB>[keys] or
// ERR<TAB>filter<TAB>message.
type goldenLine struct {
	line   int
	ok     bool
	filter string
	want   []int64 // the key column of the kept rows (OK)
	msg    string  // pylance's message (ERR)
}

func readGolden(t *testing.T, path string) []goldenLine {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []goldenLine
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		if sc.Text() == "" {
			continue
		}
		parts := strings.Split(sc.Text(), "\t")
		if len(parts) != 3 {
			t.Fatalf("%s:%d: %d fields, want 3", path, n, len(parts))
		}
		g := goldenLine{line: n, filter: parts[1]}
		switch parts[0] {
		case "OK":
			g.ok = true
			if g.want, err = parseKeys(parts[2]); err != nil {
				t.Fatalf("%s:%d: %v", path, n, err)
			}
		case "ERR":
			g.msg = parts[2]
		default:
			t.Fatalf("%s:%d: status %q", path, n, parts[0])
		}
		out = append(out, g)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// parseKeys parses Python's rendering of a list of ints: [10, 20].
func parseKeys(s string) ([]int64, error) {
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
		return nil, fmt.Errorf("row list %q", s)
	}
	out := []int64{}
	if body := strings.TrimSpace(s[1 : len(s)-1]); body != "" {
		for _, f := range strings.Split(body, ",") {
			v, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("row list %q: %v", s, err)
			}
			out = append(out, v)
		}
	}
	return out, nil
}

// table is a dataset read whole through lancego, _rowid and _rowaddr
// included and a _rowoffset column (the live row's position in the scan)
// appended to every batch.
type table struct {
	schema  *arrow.Schema
	batches []arrow.RecordBatch
	rows    int
}

// readTable reads the Lance dataset at dir; batchSize 0 is lancego's default.
func readTable(t *testing.T, dir string, batchSize int) *table {
	t.Helper()
	ctx := context.Background()
	ds, err := lance.OpenDataset(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ds.Close() })
	tb := &table{}
	opts := lance.DatasetScanOptions{BatchSize: batchSize,
		ReadOptions: lance.ReadOptions{WithRowID: true, WithRowAddress: true}}
	for rec, err := range ds.Batches(ctx, opts) {
		if err != nil {
			t.Fatalf("reading %s: %v", dir, err)
		}
		withOffset := appendRowOffset(rec, tb.rows)
		rec.Release()
		if tb.schema == nil {
			tb.schema = withOffset.Schema()
		} else if !tb.schema.Equal(withOffset.Schema()) {
			t.Fatalf("%s: batch schema %v differs from the first batch's %v", dir, withOffset.Schema(), tb.schema)
		}
		tb.batches = append(tb.batches, withOffset)
		tb.rows += int(withOffset.NumRows())
	}
	t.Cleanup(func() {
		for _, b := range tb.batches {
			b.Release()
		}
	})
	if tb.schema == nil {
		t.Fatalf("%s: no batches", dir)
	}
	for _, name := range []string{"_rowid", "_rowaddr", "_rowoffset"} {
		if idx := tb.schema.FieldIndices(name); len(idx) != 1 || tb.schema.Field(idx[0]).Type.ID() != arrow.UINT64 {
			t.Fatalf("%s: no uint64 column %s in %v", dir, name, tb.schema)
		}
	}
	return tb
}

// appendRowOffset returns rec with a uint64 _rowoffset column holding
// first, first+1, ….
func appendRowOffset(rec arrow.RecordBatch, first int) arrow.RecordBatch {
	b := array.NewUint64Builder(memory.DefaultAllocator)
	defer b.Release()
	for i := range int(rec.NumRows()) {
		b.Append(uint64(first + i))
	}
	offs := b.NewArray()
	defer offs.Release()
	fields := append(slices.Clone(rec.Schema().Fields()), arrow.Field{Name: "_rowoffset", Type: arrow.PrimitiveTypes.Uint64})
	cols := append(slices.Clone(rec.Columns()), offs)
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, rec.NumRows())
}

// outcome is what our engine did with one filter.
type outcome struct {
	keys  []int64 // kept rows' key values, scan order (when err is nil)
	err   error
	stage string // "parse", "bind" or "evaluate" when err is set
	// broken names a failure whatever pylance did: "panic" (err is a
	// recovered panic) or "bad result length".
	broken string
}

// runFilter parses, binds and evaluates filter on every batch of tb and
// returns the key column of the kept rows. A panic is recovered and
// reported as broken.
func runFilter(tb *table, filter, key string) (out outcome) {
	defer func() {
		if r := recover(); r != nil {
			out = outcome{err: fmt.Errorf("panic: %v", r), stage: out.stage, broken: "panic"}
		}
	}()
	out.stage = "parse"
	e, err := expr.Parse(filter)
	if err != nil {
		out.err = err
		return out
	}
	out.stage = "bind"
	p, err := expr.Bind(e, tb.schema)
	if err != nil {
		out.err = err
		return out
	}
	out.stage = "evaluate"
	keyIdx := tb.schema.FieldIndices(key)
	out.keys = []int64{}
	for _, rec := range tb.batches {
		keep, err := p.Evaluate(rec)
		if err != nil {
			return outcome{err: err, stage: "evaluate"}
		}
		if len(keep) != int(rec.NumRows()) {
			return outcome{err: fmt.Errorf("Evaluate returned %d values for %d rows", len(keep), rec.NumRows()), stage: "evaluate", broken: "bad result length"}
		}
		col := rec.Column(keyIdx[0]).(*array.Int64)
		for i, k := range keep {
			if k {
				out.keys = append(out.keys, col.Value(i))
			}
		}
	}
	out.stage = ""
	return out
}

// mayRefuse reports whether our engine may refuse filter with
// ErrUnsupported instead of answering: it calls random() or uuid(), which
// Lance accepts and the engine is allowed not to evaluate.
func mayRefuse(filter string) bool {
	f := strings.ToLower(filter)
	return strings.Contains(f, "random(") || strings.Contains(f, "uuid(")
}

// verdict compares our outcome with pylance's; "" means they agree. The
// second result names the kind of disagreement.
func verdict(g goldenLine, o outcome) (problem, kind string) {
	switch {
	case o.broken != "":
		return fmt.Sprintf("%s: %v", o.stage, o.err), o.broken
	case o.err != nil && mayRefuse(g.filter) && errors.Is(o.err, expr.ErrUnsupported):
		return "", ""
	case g.ok && o.err != nil:
		return fmt.Sprintf("pylance keeps %s; we fail in %s: %v", keyList(g.want), o.stage, o.err), "want rows, " + o.stage + " failed"
	case g.ok && !slices.Equal(g.want, o.keys):
		return fmt.Sprintf("pylance keeps %s; we keep %s%s", keyList(g.want), keyList(o.keys), rowDiff(g.want, o.keys)), "wrong rows"
	case !g.ok && o.err == nil:
		return fmt.Sprintf("pylance fails: %s\n\twe keep %s", g.msg, keyList(o.keys)), "want error, got rows"
	}
	return "", ""
}

// keyList renders keys as the golden files do ([10, 20], Python's
// rendering), abbreviated when longer than 24.
func keyList(keys []int64) string {
	parts := make([]string, 0, min(len(keys), 24))
	for i, k := range keys {
		if i == 20 && len(keys) > 24 {
			return fmt.Sprintf("%d rows [%s, …]", len(keys), strings.Join(parts, ", "))
		}
		parts = append(parts, strconv.FormatInt(k, 10))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// rowDiff names the rows one side keeps and the other does not (or
// says the order differs).
func rowDiff(want, got []int64) string {
	in := func(xs []int64) map[int64]bool {
		m := map[int64]bool{}
		for _, x := range xs {
			m[x] = true
		}
		return m
	}
	w, g := in(want), in(got)
	var missing, extra []int64
	for _, x := range want {
		if !g[x] {
			missing = append(missing, x)
		}
	}
	for _, x := range got {
		if !w[x] {
			extra = append(extra, x)
		}
	}
	if len(missing) == 0 && len(extra) == 0 {
		return " (same rows, other order or repeats)"
	}
	return fmt.Sprintf("\n\tmissing %s, extra %s", keyList(missing), keyList(extra))
}

// runGolden checks every golden line in a subtest named by its line
// number and logs a summary: passed/failed and the failures by kind.
func runGolden(t *testing.T, name string, tb *table, key string, lines []goldenLine) {
	if idx := tb.schema.FieldIndices(key); len(idx) != 1 || tb.schema.Field(idx[0]).Type.ID() != arrow.INT64 {
		t.Fatalf("no int64 key column %q", key)
	}
	passed, kinds := 0, map[string]int{}
	known := knownDeviations(t)
	for _, g := range lines {
		var kind string
		t.Run(fmt.Sprintf("line%d", g.line), func(t *testing.T) {
			var problem string
			problem, kind = verdict(g, runFilter(tb, g.filter, key))
			why, listed := known[g.filter]
			switch {
			case problem != "" && listed:
				t.Logf("%s line %d: %s: known deviation (%s)\n\t%s", name, g.line, g.filter, why, problem)
			case problem != "":
				t.Errorf("%s line %d: %s\n\t%s", name, g.line, g.filter, problem)
			case listed:
				t.Errorf("%s line %d: %s now agrees with pylance: remove it from testdata/conform-known-deviations.tsv", name, g.line, g.filter)
			}
		})
		if kind == "" {
			passed++
		} else {
			kinds[kind]++
		}
	}
	t.Logf("%s: %d passed, %d failed", name, passed, len(lines)-passed)
	logKinds(t, kinds)
}

// knownDeviations reads testdata/conform-known-deviations.tsv: filters
// where the engine is known to answer otherwise than pylance 14.0.2, each
// with the reason. They are reported, not failed; one that starts to
// agree fails, so the list never outlives its entries.
func knownDeviations(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile("testdata/conform-known-deviations.tsv")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if f, why, ok := strings.Cut(line, "\t"); ok {
			out[f] = why
		}
	}
	return out
}

func logKinds(t *testing.T, kinds map[string]int) {
	names := make([]string, 0, len(kinds))
	for k := range kinds {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool { return kinds[names[i]] > kinds[names[j]] })
	for _, k := range names {
		t.Logf("  %4d %s", kinds[k], k)
	}
}
