package expr_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// conformRows is the live row count of testdata/conform.lance: 3
// fragments of 40 rows, 10 deleted (gen_filters.py's DELETE).
const conformRows = 110

// TestConformance runs the filters of testdata/conform-pylance-14.0.2.tsv
// (written with testdata/conform.lance by testdata/gen_filters.py and
// pylance 14.0.2) on that dataset read by lancego in batches of 16 rows
// (so batches are slices that never span fragments): an OK line must keep
// exactly the rows (their id, in scan order) pylance kept; an ERR line
// must fail in Parse, Bind or Evaluate.
func TestConformance(t *testing.T) {
	tb := readTable(t, "testdata/conform.lance", 16)
	if tb.rows != conformRows {
		t.Fatalf("conform.lance: %d rows, want %d", tb.rows, conformRows)
	}
	lines := readGolden(t, "testdata/conform-pylance-14.0.2.tsv")
	if len(lines) < 400 {
		t.Fatalf("conform-pylance-14.0.2.tsv: %d filters, want at least 400", len(lines))
	}
	runGolden(t, "conform", tb, "id", lines)
}

// TestConformanceLive draws liveFilters random filters (seeded: the same
// filters every run) combining columns, operators and literals of every
// type with AND, OR and NOT, has pylance ($LANCE_PY) run them on
// testdata/conform.lance (testdata/run_filters.py, one process) and
// compares our engine with it as TestConformance does.
func TestConformanceLive(t *testing.T) {
	py := os.Getenv("LANCE_PY")
	if py == "" {
		t.Skip("LANCE_PY unset: needs pylance 14.0.2 (bash testdata/pylance/setup.sh; LANCE_PY=.ci/venv/bin/python)")
	}
	filters := randomFilters(rand.New(rand.NewPCG(20261203, 14)), liveFilters)
	lines := pylanceRun(t, py, "testdata/conform.lance", filters)
	tb := readTable(t, "testdata/conform.lance", 16)
	runGolden(t, "live", tb, "id", lines)
}

const liveFilters = 200

// pylanceRun has pylance run filters on the dataset at dir and returns
// its answers as golden lines (line = the filter's number, from 1).
func pylanceRun(t *testing.T, py, dir string, filters []string) []goldenLine {
	t.Helper()
	cmd := exec.Command(py, "testdata/run_filters.py", dir)
	cmd.Stdin = strings.NewReader(strings.Join(filters, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("run_filters.py: %v\n%s", err, tail(stderr.String(), 4000))
	}
	var lines []goldenLine
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r struct {
			OK  bool    `json:"ok"`
			IDs []int64 `json:"ids"`
			Err string  `json:"err"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("run_filters.py printed %q: %v", sc.Text(), err)
		}
		n := len(lines)
		if n >= len(filters) {
			t.Fatalf("run_filters.py printed more than %d answers", len(filters))
		}
		g := goldenLine{line: n + 1, ok: r.OK, filter: filters[n], want: r.IDs, msg: r.Err}
		if g.ok && g.want == nil {
			g.want = []int64{}
		}
		lines = append(lines, g)
	}
	if len(lines) != len(filters) {
		t.Fatalf("run_filters.py answered %d of %d filters\n%s", len(lines), len(filters), tail(stderr.String(), 4000))
	}
	return lines
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// A typeClass is a set of column expressions of one kind with literals
// that compare with them (mostly losslessly; a few are refused as Lance
// refuses them, e.g. a negative literal against an unsigned column).
type typeClass struct {
	cols, lits []string
}

var (
	intClass = typeClass{
		cols: []string{"i8", "i16", "i32", "j", "i64", "id", "CUBE", "MixedCase", "`col with space`"},
		lits: []string{"0", "1", "-1", "2", "3", "5", "-5", "10", "100", "-128", "127", "NULL"},
	}
	uintClass = typeClass{
		cols: []string{"u8", "u32", "u64", "_rowid", "_rowaddr"},
		lits: []string{"0", "1", "2", "5", "10", "20", "255", "1000", "4294967296", "NULL"},
	}
	floatClass = typeClass{
		cols: []string{"f32", "f64", "st.x"},
		lits: []string{"0.0", "-0.0", "0.5", "1.5", "-2.25", "1.0", "3.0", "100.0", "-1e-300", "CAST('NaN' AS double)", "NULL"},
	}
	stringClass = typeClass{
		cols: []string{"s", "ls", "st.y", "tags[1]"},
		lits: []string{"'apple'", "'Apple'", "''", "'a%b'", "'é'", "'banana'", "'b'", "'zebra'", "'日本語'", "'a\\b'", "NULL"},
	}
	dateClass = typeClass{
		cols: []string{"d"},
		lits: []string{"date '2021-01-01'", "date '1970-01-01'", "date '2000-01-01'", "date '2020-02-29'", "date '1969-12-31'", "NULL"},
	}
	tsClass = typeClass{
		cols: []string{"ts"},
		lits: []string{"timestamp '2021-01-01 00:00:00'", "timestamp '2021-01-01 12:34:56.789'",
			"timestamp '1970-01-01 00:00:00'", "date '2021-01-01'", "timestamp '1969-12-31 23:59:59.999999'"},
	}
	decClass = typeClass{
		cols: []string{"dec"},
		lits: []string{"0", "1", "-1", "10", "decimal(8,3) '2.500'", "decimal(8,3) '0.001'", "NULL"},
	}
	classes = []typeClass{intClass, uintClass, floatClass, stringClass, dateClass, tsClass, decClass}

	cmpOps    = []string{"=", "!=", "<>", "<", "<=", ">", ">=", "IS DISTINCT FROM", "IS NOT DISTINCT FROM"}
	likes     = []string{"'a%'", "'%a%'", "'_'", "'%e'", "'a\\%%'", "'%\\_%'", "''", "'%'", "'A%'", "'%an%'", "'é%'", "'_____'"}
	boolAtoms = []string{"b", "NOT b", "b IS TRUE", "b IS NOT TRUE", "b IS FALSE", "b IS NOT FALSE", "b = true", "b != false"}
	funcAtoms = []string{"isnan($F)", "NOT isnan($F)", "abs($I) > 3", "$I % 3 = 0", "$I + $J > 0", "$I - $J < 2", "$I * 2 = $J",
		"coalesce($I, 0) = 0", "lower($S) = 'apple'", "upper($S) = 'APPLE'", "length($S) > 4", "length($S) = 0",
		"starts_with($S, 'a')", "ends_with($S, 'e')", "contains($S, 'an')", "array_has(l, 1)", "array_has(l, 2)",
		"array_length(l) = 2", "array_has(tags, 'a')", "array_has_any(tags, ['b', 'c'])", "empty(l)",
		"CAST($I AS string) = '1'", "nanvl($F, 0.0) > 0.5", "greatest($I, $J) > 2", "date_part('year', d) = 2021",
		"date_part('month', ts) = 1", "regexp_like($S, '^a')", "$I / 3 = 1", "$F * 2 > 1.0", "$S || 'x' = 'ax'",
		"l[1] = 1", "vec[1] = 1.0", "st IS NULL", "m IS NULL", "element_at(m, 'k1') = ['v1']", "is_valid($S)"}
)

// randomFilters returns n filters of depth at most 3.
func randomFilters(r *rand.Rand, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = randomPred(r, 3)
	}
	return out
}

func randomPred(r *rand.Rand, depth int) string {
	if depth == 0 || r.IntN(100) < 35 {
		return randomAtom(r)
	}
	switch k := r.IntN(10); {
	case k < 4:
		return "(" + randomPred(r, depth-1) + " AND " + randomPred(r, depth-1) + ")"
	case k < 8:
		return "(" + randomPred(r, depth-1) + " OR " + randomPred(r, depth-1) + ")"
	default:
		return "NOT (" + randomPred(r, depth-1) + ")"
	}
}

func pick(r *rand.Rand, xs []string) string { return xs[r.IntN(len(xs))] }

func randomAtom(r *rand.Rand) string {
	c := classes[r.IntN(len(classes))]
	col, lit := pick(r, c.cols), pick(r, c.lits)
	switch k := r.IntN(100); {
	case k < 25:
		if r.IntN(8) == 0 {
			return lit + " " + pick(r, cmpOps) + " " + col
		}
		return col + " " + pick(r, cmpOps) + " " + lit
	case k < 35:
		return col + " " + pick(r, cmpOps) + " " + pick(r, c.cols)
	case k < 42:
		return col + pick(r, []string{" IS NULL", " IS NOT NULL"})
	case k < 50:
		not := pick(r, []string{"", "NOT "})
		return fmt.Sprintf("%s %sBETWEEN %s AND %s", col, not, pick(r, c.lits), pick(r, c.lits))
	case k < 60:
		not := pick(r, []string{"", "NOT "})
		items := []string{lit, pick(r, c.lits)}
		if r.IntN(2) == 0 {
			items = append(items, pick(r, c.lits))
		}
		return fmt.Sprintf("%s %sIN (%s)", col, not, strings.Join(items, ", "))
	case k < 72:
		op := pick(r, []string{"LIKE", "NOT LIKE", "ILIKE", "NOT ILIKE"})
		return pick(r, stringClass.cols) + " " + op + " " + pick(r, likes)
	case k < 80:
		return pick(r, boolAtoms)
	default:
		f := pick(r, funcAtoms)
		f = strings.ReplaceAll(f, "$J", pick(r, intClass.cols))
		f = strings.ReplaceAll(f, "$I", pick(r, intClass.cols))
		f = strings.ReplaceAll(f, "$F", pick(r, floatClass.cols))
		return strings.ReplaceAll(f, "$S", pick(r, stringClass.cols))
	}
}
