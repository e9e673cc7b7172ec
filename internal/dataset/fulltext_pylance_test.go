package dataset

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/internal/testkit"
)

// ftsBuildPy builds the full-text datasets with pylance (make_indices.py's
// fts group, plus: two index segments and an unindexed fragment; stable
// row ids with compaction, deletions and an unindexed fragment; two
// indexed text columns) and answers every case of argv[2] with
// to_table(full_text_query=...).
const ftsBuildPy = `
import json, sys, os, shutil, runpy
import numpy as np, pyarrow as pa
out = sys.argv[1]; cases = json.loads(sys.argv[2])
sys.argv = ["make_indices.py", out, "fts"]
runpy.run_path(os.environ["MAKE_INDICES"], run_name="__main__")
g = runpy.run_path(os.environ["MAKE_INDICES"], run_name="lib")
fts_table = g["fts_table"]
import lance
from lance.query import MatchQuery, PhraseQuery, BooleanQuery, BoostQuery, MultiMatchQuery, Occur, FullTextOperator

def extra(n, seed, start):
    return fts_table(n, seed=seed).set_column(0, "id", pa.array(np.arange(start, start + n), pa.int64()))

p = os.path.join(out, "fts_seg2.lance"); shutil.rmtree(p, ignore_errors=True)
ds = lance.write_dataset(fts_table(600), p, max_rows_per_file=300)
ds.create_scalar_index("doc", "INVERTED", with_position=True)
ds = lance.write_dataset(extra(40, 9, 600), p, mode="append")
ds.optimize.optimize_indices(num_indices_to_merge=0)
ds = lance.write_dataset(extra(25, 11, 640), p, mode="append")
ds.delete("id IN (3, 4, 301, 605, 650)")

p = os.path.join(out, "fts_stable.lance"); shutil.rmtree(p, ignore_errors=True)
ds = lance.write_dataset(fts_table(600), p, max_rows_per_file=150, enable_stable_row_ids=True)
ds.delete("id < 40 OR (id >= 200 AND id < 230)")
ds.optimize.compact_files(target_rows_per_fragment=1000)
ds = lance.dataset(p)
ds.create_scalar_index("doc", "INVERTED")
ds = lance.write_dataset(extra(30, 13, 600), p, mode="append")
ds.delete("id IN (41, 300, 601)")

p = os.path.join(out, "fts_two.lance"); shutil.rmtree(p, ignore_errors=True)
t = fts_table(300)
t2 = fts_table(300, seed=21)
t = t.append_column("title", t2["doc"])
ds = lance.write_dataset(t, p, max_rows_per_file=200)
ds.create_scalar_index("doc", "INVERTED")
ds.create_scalar_index("title", "INVERTED", stem=False)

def build(q):
    k, v = next(iter(q.items()))
    op = FullTextOperator.AND if isinstance(v, dict) and v.get("op") == "AND" else FullTextOperator.OR
    if k == "match":
        return MatchQuery(v["terms"], v["column"], boost=v.get("boost", 1.0), operator=op)
    if k == "phrase":
        return PhraseQuery(v["terms"], v["column"], slop=v.get("slop", 0))
    if k == "multi":
        return MultiMatchQuery(v["terms"], v["columns"], boosts=v.get("boosts"), operator=op)
    if k == "boost":
        return BoostQuery(build(v["pos"]), build(v["neg"]), negative_boost=v.get("nb", 0.5))
    if k == "bool":
        return BooleanQuery([(Occur[o], build(sub)) for o, sub in v])
    raise ValueError(k)

res = []
for c in cases:
    ds = lance.dataset(os.path.join(out, c["ds"] + ".lance"))
    kw = dict(with_row_id=True, columns=["id", "_score"], prefilter=c.get("prefilter", False),
              fast_search=c.get("fast", False))
    if c.get("k"): kw["limit"] = c["k"]
    if c.get("filter"): kw["filter"] = c["filter"]
    if "q" in c:
        fq = build(c["q"])
    elif c.get("cols"):
        fq = {"query": c["text"], "columns": c["cols"]}
    else:
        fq = c["text"]
    try:
        t = ds.to_table(full_text_query=fq, **kw)
        res.append({"rows": t["_rowid"].to_pylist(), "scores": t["_score"].to_pylist(), "ids": t["id"].to_pylist()})
    except Exception as e:
        res.append({"error": str(e).split("\n")[0]})
print(json.dumps(res))
`

// ftsCase is one query, in the form both sides read.
type ftsCase struct {
	DS        string          `json:"ds"`
	Text      string          `json:"text,omitempty"`
	Cols      []string        `json:"cols,omitempty"`
	Q         json.RawMessage `json:"q,omitempty"`
	K         int             `json:"k,omitempty"`
	Filter    string          `json:"filter,omitempty"`
	Prefilter bool            `json:"prefilter,omitempty"`
	Fast      bool            `json:"fast,omitempty"`
}

type ftsAnswer struct {
	Rows   []uint64  `json:"rows"`
	Scores []float64 `json:"scores"`
	IDs    []int64   `json:"ids"`
	Error  string    `json:"error"`
}

// ftsPylance builds the datasets once and answers the cases.
func ftsPylance(t *testing.T, cases []ftsCase) (string, []ftsAnswer) {
	t.Helper()
	py := testkit.LancePython()
	if py == "" {
		t.Skip("LANCE_PY not set")
	}
	mk := "/work/shared/spec/indices/make_indices.py"
	if v := os.Getenv("LANCE_MAKE_INDICES"); v != "" {
		mk = v
	}
	if _, err := os.Stat(mk); err != nil {
		t.Skipf("make_indices.py: %v", err)
	}
	dir := t.TempDir()
	cj, _ := json.Marshal(cases)
	cmd := exec.Command(py, "-c", ftsBuildPy, dir, string(cj))
	cmd.Env = append(os.Environ(), "MAKE_INDICES="+mk, "RUST_LOG=error")
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Logf("pylance stderr: %s", ee.Stderr)
		}
		t.Fatalf("pylance: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	var ans []ftsAnswer
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &ans); err != nil {
		t.Fatal(err)
	}
	if len(ans) != len(cases) {
		t.Fatalf("%d answers for %d cases", len(ans), len(cases))
	}
	return dir, ans
}

// goQuery turns a case's query tree into an FTSQuery.
func goQuery(t *testing.T, raw json.RawMessage) FTSQuery {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || len(m) != 1 {
		t.Fatalf("query %s: %v", raw, err)
	}
	for k, v := range m {
		var f struct {
			Terms, Column, Op string
			Columns           []string
			Boost, NB         *float32
			Boosts            []float32
			Slop              int
			Pos, Neg          json.RawMessage
		}
		if k != "bool" {
			if err := json.Unmarshal(v, &f); err != nil {
				t.Fatal(err)
			}
		}
		op := OperatorOr
		if f.Op == "AND" {
			op = OperatorAnd
		}
		switch k {
		case "match":
			q := &MatchQuery{Terms: f.Terms, Column: f.Column, Operator: op}
			if f.Boost != nil {
				q.Boost = *f.Boost
			}
			return q
		case "phrase":
			return &PhraseQuery{Terms: f.Terms, Column: f.Column, Slop: f.Slop}
		case "multi":
			return &MultiMatchQuery{Terms: f.Terms, Columns: f.Columns, Boosts: f.Boosts, Operator: op}
		case "boost":
			q := &BoostQuery{Positive: goQuery(t, f.Pos), Negative: goQuery(t, f.Neg), NegativeBoost: 0.5}
			if f.NB != nil {
				q.NegativeBoost = *f.NB
			}
			return q
		case "bool":
			var cl [][2]json.RawMessage
			if err := json.Unmarshal(v, &cl); err != nil {
				t.Fatal(err)
			}
			q := &BooleanQuery{}
			for _, c := range cl {
				var occ string
				_ = json.Unmarshal(c[0], &occ)
				o := map[string]Occur{"SHOULD": Should, "MUST": Must, "MUST_NOT": MustNot}[occ]
				q.Clauses = append(q.Clauses, BooleanClause{o, goQuery(t, c[1])})
			}
			return q
		}
	}
	t.Fatalf("query %s", raw)
	return nil
}

func (c ftsCase) String() string {
	b, _ := json.Marshal(c)
	return string(b)
}

// ftsRun answers a case with lancego: row ids and scores, in order.
func ftsRun(t *testing.T, ctx context.Context, dir string, c ftsCase) ([]uint64, []float32, error) {
	t.Helper()
	ds, err := OpenDataset(ctx, filepath.Join(dir, c.DS+".lance"))
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	q := FullTextQuery{Text: c.Text, SearchColumns: c.Cols, K: c.K, Filter: c.Filter, Prefilter: c.Prefilter,
		FastSearch: c.Fast, Columns: []string{"id"}, WithRowID: true}
	if c.Q != nil {
		q.Query = goQuery(t, c.Q)
	}
	rec, err := ds.FullTextSearch(ctx, q)
	if err != nil {
		return nil, nil, err
	}
	defer rec.Release()
	if rec.NumCols() != 3 || rec.Schema().Field(1).Name != ScoreColumn || rec.Schema().Field(2).Name != RowIDColumn {
		t.Fatalf("%s: result schema %s", c, rec.Schema())
	}
	ids := rec.Column(2).(*array.Uint64).Uint64Values()
	sc := rec.Column(1).(*array.Float32).Float32Values()
	return append([]uint64(nil), ids...), append([]float32(nil), sc...), nil
}

// compareFTS checks lancego's answer against pylance's: the same rows with
// the same float32 scores (bit-exact: lancego does Lance's float32
// operations in Lance's order), in descending score order. Rows of equal
// score may come in another order (pylance's depends on hash maps), and
// with a limit the rows tied at the cut may be other rows of that score.
func compareFTS(t *testing.T, c ftsCase, want ftsAnswer, rows []uint64, scores []float32) {
	t.Helper()
	if len(rows) != len(want.Rows) {
		t.Errorf("%s: %d rows, pylance %d", c, len(rows), len(want.Rows))
		return
	}
	for i := 1; i < len(scores); i++ {
		if scores[i] > scores[i-1] {
			t.Fatalf("%s: scores not descending at %d", c, i)
		}
	}
	byScore := func(rs []uint64, sc func(int) float32) map[float32][]uint64 {
		m := map[float32][]uint64{}
		for i, r := range rs {
			m[sc(i)] = append(m[sc(i)], r)
		}
		for _, v := range m {
			sort.Slice(v, func(a, b int) bool { return v[a] < v[b] })
		}
		return m
	}
	got := byScore(rows, func(i int) float32 { return scores[i] })
	exp := byScore(want.Rows, func(i int) float32 { return float32(want.Scores[i]) })
	var cut float32 = -1
	if c.K > 0 && len(want.Scores) == c.K {
		cut = float32(want.Scores[len(want.Scores)-1])
	}
	bad := 0
	for s, rs := range exp {
		g := got[s]
		if s == cut { // ties at the limit: same count, any rows of that score
			if len(g) != len(rs) {
				bad++
				t.Errorf("%s: %d rows of the cut score %g, pylance %d", c, len(g), s, len(rs))
			}
			continue
		}
		if fmt.Sprint(g) != fmt.Sprint(rs) && bad < 5 {
			bad++
			t.Errorf("%s: score %g (bits %08x): rows %v, pylance %v", c, s, math.Float32bits(s), g, rs)
		}
	}
	if bad == 0 {
		for i := range rows {
			if scores[i] != float32(want.Scores[i]) {
				t.Errorf("%s: row %d score %g, pylance %g", c, i, scores[i], want.Scores[i])
				break
			}
		}
	}
}

func TestFullTextAgainstPylance(t *testing.T) {
	m := func(terms, col string, extra ...string) json.RawMessage {
		s := fmt.Sprintf(`{"match":{"terms":%q,"column":%q%s}}`, terms, col, strings.Join(extra, ""))
		return json.RawMessage(s)
	}
	var cases []ftsCase
	for _, d := range []string{"fts_default", "fts_v1", "fts_v3", "fts_raw", "fts_pos", "fts_seg2", "fts_stable"} {
		for _, q := range []string{"alpha", "seven gamma", "zeta zeta", "Running", "common", "the", "Über café", "missing", "lambda kappa iota"} {
			cases = append(cases, ftsCase{DS: d, Text: q})
		}
		cases = append(cases,
			ftsCase{DS: d, Text: "alpha beta", K: 5},
			ftsCase{DS: d, Text: "alpha beta", K: 5, Filter: "id > 300", Prefilter: true},
			ftsCase{DS: d, Text: "alpha beta", K: 5, Filter: "id > 300"},
			ftsCase{DS: d, Text: "alpha beta", Filter: "id % 3 = 0", Prefilter: true},
			ftsCase{DS: d, Text: "alpha", Fast: true},
			ftsCase{DS: d, Q: m("alpha beta", "doc", `,"op":"AND"`)},
			ftsCase{DS: d, Q: m("alpha", "doc", `,"boost":2.5`)},
		)
	}
	b := func(clauses ...string) json.RawMessage {
		return json.RawMessage(`{"bool":[` + strings.Join(clauses, ",") + `]}`)
	}
	cl := func(occ string, q json.RawMessage) string { return fmt.Sprintf(`[%q,%s]`, occ, q) }
	for _, d := range []string{"fts_default", "fts_seg2", "fts_stable"} {
		cases = append(cases,
			ftsCase{DS: d, Q: m("alpha missing", "doc", `,"op":"AND"`)},
			ftsCase{DS: d, Q: m("zeta zeta beta", "doc", `,"op":"AND"`)},
			ftsCase{DS: d, Q: b(cl("MUST", m("alpha", "doc")), cl("MUST_NOT", m("beta", "doc")))},
			ftsCase{DS: d, Q: b(cl("MUST", m("alpha", "doc")), cl("MUST", m("gamma delta", "doc")))},
			ftsCase{DS: d, Q: b(cl("SHOULD", m("alpha", "doc")), cl("SHOULD", m("seven", "doc")), cl("MUST_NOT", m("zeta", "doc")))},
			ftsCase{DS: d, Q: b(cl("MUST", m("alpha", "doc")), cl("SHOULD", m("seven", "doc")))},
			ftsCase{DS: d, Q: b(cl("MUST", m("alpha", "doc")), cl("SHOULD", m("seven", "doc"))), K: 7},
			ftsCase{DS: d, Q: json.RawMessage(`{"boost":{"pos":` + string(m("alpha", "doc")) + `,"neg":` + string(m("beta", "doc")) + `}}`)},
			ftsCase{DS: d, Q: json.RawMessage(`{"boost":{"pos":` + string(m("alpha gamma", "doc")) + `,"neg":` + string(m("beta", "doc")) + `,"nb":0.2}}`), K: 10},
			ftsCase{DS: d, Q: json.RawMessage(`{"multi":{"terms":"alpha kappa","columns":["doc"]}}`)},
			ftsCase{DS: d, Text: "alpha", Cols: []string{"doc"}, K: 4},
		)
	}
	for _, q := range []string{"alpha", "running runner", "Über theta"} {
		cases = append(cases,
			ftsCase{DS: "fts_two", Text: q},
			ftsCase{DS: "fts_two", Text: q, Cols: []string{"title"}},
			ftsCase{DS: "fts_two", Text: q, K: 5, Filter: "id < 100", Prefilter: true},
			ftsCase{DS: "fts_two", Q: json.RawMessage(fmt.Sprintf(`{"multi":{"terms":%q,"columns":["doc","title"],"boosts":[1.0,2.0]}}`, q))},
			ftsCase{DS: "fts_two", Q: json.RawMessage(fmt.Sprintf(`{"multi":{"terms":%q,"columns":["doc","title"],"op":"AND"}}`, q))},
		)
	}
	ph := func(terms string, slop int) json.RawMessage {
		return json.RawMessage(fmt.Sprintf(`{"phrase":{"terms":%q,"column":"doc","slop":%d}}`, terms, slop))
	}
	for _, d := range []string{"fts_pos", "fts_seg2", "fts_default"} {
		for _, q := range []string{"alpha beta", "running the alpha", "zeta zeta", "common seven", "beta alpha gamma", "kappa", "missing alpha", "the"} {
			for _, slop := range []int{0, 1, 3} {
				cases = append(cases, ftsCase{DS: d, Q: ph(q, slop)})
			}
		}
		cases = append(cases,
			ftsCase{DS: d, Text: `"alpha beta"`},
			ftsCase{DS: d, Text: `"gamma delta"`, K: 3, Filter: "id > 100", Prefilter: true},
			ftsCase{DS: d, Q: b(cl("MUST", ph("alpha beta", 0)), cl("SHOULD", m("seven", "doc")))},
		)
	}
	dir, ans := ftsPylance(t, cases)
	ctx := context.Background()
	compared, rowsCompared, refused := 0, 0, 0
	defer func() { t.Logf("%d cases compared (%d rows), %d refused by both", compared, rowsCompared, refused) }()
	for i, c := range cases {
		rows, scores, err := ftsRun(t, ctx, dir, c)
		if ans[i].Error != "" {
			refused++
			if err == nil {
				t.Errorf("%s: pylance fails (%s), lancego answers %d rows", c, ans[i].Error, len(rows))
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c, err)
			continue
		}
		compared++
		rowsCompared += len(rows)
		compareFTS(t, c, ans[i], rows, scores)
	}
}
