package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/lancego/lancego/internal/testkit"
)

// TestSearchTextMatchesPylance: lance search --text prints the rows and
// _score values pylance's to_table(full_text_query=...) returns, for term,
// phrase, column-restricted and filtered queries (prefilter and
// postfilter), over two INVERTED indices plus an unindexed appended
// fragment.
func TestSearchTextMatchesPylance(t *testing.T) {
	py := testkit.LancePython()
	if py == "" {
		t.Skip("no pylance (set LANCE_PY)")
	}
	dir := filepath.Join(t.TempDir(), "ds")
	script := `
import json, sys, lance, pyarrow as pa
words = ['apple', 'banana', 'cherry', 'date', 'elder', 'fig', 'grape']
docs = [' '.join(words[(i * k) % 7] for k in range(1, 2 + i % 5)) for i in range(120)]
titles = ['t ' + words[i % 7] for i in range(120)]
ds = lance.write_dataset(pa.table({'id': pa.array(range(120)), 'doc': docs, 'title': titles}), sys.argv[1])
ds.create_scalar_index('doc', 'INVERTED', with_position=True)
ds.create_scalar_index('title', 'INVERTED')
ds = lance.write_dataset(pa.table({'id': pa.array(range(120, 130)), 'doc': ['apple fig'] * 10, 'title': ['t x'] * 10}), sys.argv[1], mode='append')
cases = json.loads(sys.argv[2])
out = []
for c in cases:
    kw = dict(full_text_query=c['text'] if not c.get('cols') else {'query': c['text'], 'columns': c['cols']},
              limit=c['k'], columns=['id'], with_row_id=False)
    if c.get('filter'):
        kw['filter'], kw['prefilter'] = c['filter'], not c.get('post', False)
    r = ds.to_table(**kw)
    kw['limit'] = 1000
    a = ds.to_table(**kw)
    out.append({'id': r['id'].to_pylist(), 'score': r['_score'].to_pylist(),
                'all': {str(i): x for i, x in zip(a['id'].to_pylist(), a['_score'].to_pylist())}})
print(json.dumps(out))
`
	type tc struct {
		Text   string   `json:"text"`
		Cols   []string `json:"cols,omitempty"`
		K      int      `json:"k"`
		Filter string   `json:"filter,omitempty"`
		Post   bool     `json:"post,omitempty"`
	}
	cases := []tc{
		{Text: "apple", K: 10},
		{Text: "cherry grape", K: 7},
		{Text: `"banana cherry"`, Cols: []string{"doc"}, K: 5},
		{Text: "fig", Cols: []string{"doc"}, K: 8},
		{Text: "apple", K: 6, Filter: "id > 60"},
		{Text: "apple", K: 6, Filter: "id > 60", Post: true},
		{Text: "elder", Cols: []string{"title"}, K: 20},
	}
	arg, _ := json.Marshal(cases)
	raw, err := exec.Command(py, "-c", script, dir, string(arg)).Output()
	if err != nil {
		t.Fatalf("pylance: %v", err)
	}
	var want []struct {
		ID    []int64            `json:"id"`
		Score []float64          `json:"score"`
		All   map[string]float64 `json:"all"` // every matching row's score (limit 1000)
	}
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		args := []string{"search", dir, "--text", c.Text, "--k", jsonNum(uint64(c.K)), "--columns", "id", "--format", "json"}
		if c.Cols != nil {
			args = append(args, "--text-columns", c.Cols[0])
		}
		if c.Filter != "" {
			args = append(args, "--filter", c.Filter)
		}
		if c.Post {
			args = append(args, "--postfilter")
		}
		var out, errb bytes.Buffer
		if err := run(context.Background(), args, &out, &errb); err != nil {
			t.Fatalf("%v: %v %s", args, err, errb.String())
		}
		var rows []struct {
			ID    int64   `json:"id"`
			Score float64 `json:"_score"`
		}
		if err := json.Unmarshal(out.Bytes(), &rows); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out.String())
		}
		// pylance orders rows of equal score differently from run to run,
		// and which of them fill the last places too: the scores must be
		// pylance's, place by place, and each row one that pylance scores
		// so.
		ok := len(rows) == len(want[i].ID)
		seen := map[int64]bool{}
		for j := 0; ok && j < len(rows); j++ {
			all, found := want[i].All[jsonNum(uint64(rows[j].ID))]
			ok = found && !seen[rows[j].ID] && close32(rows[j].Score, want[i].Score[j]) && close32(rows[j].Score, all)
			seen[rows[j].ID] = true
		}
		if !ok {
			t.Errorf("%+v: got %v, pylance ids %v scores %v", c, rows, want[i].ID, want[i].Score)
		}
	}
	for _, bad := range [][]string{
		{"search", dir, "--text", "apple", "--column", "doc"},
		{"search", dir, "--text", "apple", "--text-columns", "nope"},
		{"search", dir, "--text", "apple", "--filter", "id >"},
		{"search", dir, "--text", `"banana cherry"`}, // a phrase over two indexed columns: pylance refuses it too
	} {
		var out, errb bytes.Buffer
		if err := run(context.Background(), bad, &out, &errb); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}

// close32 compares scores computed in float32.
func close32(a, b float64) bool { return math.Abs(a-b) <= 1e-6*math.Abs(b) }
