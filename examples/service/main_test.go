package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	lance "github.com/lancego/lancego"
	lanceio "github.com/lancego/lancego/io"
)

// The test table: ids 0..numRows-1 in fragments of fragRows rows, a name
// and a 4-dimensional float32 vector per row.
const numRows, fragRows, dim = 2000, 500, 4

// table is the generated data, kept to compute expected answers.
type table struct {
	vecs [][dim]float32
}

func (tb *table) name(id int) string { return fmt.Sprintf("name-%d", id) }

// writeTable writes the table as a local dataset.
func writeTable(t *testing.T, dir string) (*table, string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	tb := &table{vecs: make([][dim]float32, numRows)}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "name", Type: arrow.BinaryTypes.String},
		{Name: "v", Type: arrow.FixedSizeListOf(dim, arrow.PrimitiveTypes.Float32)},
	}, nil)
	b := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	defer b.Release()
	vb := b.Field(2).(*array.FixedSizeListBuilder)
	for i := range numRows {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).(*array.StringBuilder).Append(tb.name(i))
		vb.Append(true)
		for d := range dim {
			tb.vecs[i][d] = rng.Float32()*2 - 1
			vb.ValueBuilder().(*array.Float32Builder).Append(tb.vecs[i][d])
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	rdr, err := array.NewRecordReader(schema, []arrow.RecordBatch{rec})
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Release()
	local := filepath.Join(dir, "t.lance")
	ds, err := lance.CreateDataset(context.Background(), local, rdr,
		lance.WithMaxRowsPerFile(fragRows), lance.WithFileOptions(lance.WithZoneSeeds(0)))
	if err != nil {
		t.Fatal(err)
	}
	if err := ds.Close(); err != nil {
		t.Fatal(err)
	}
	return tb, local
}

// startS3 serves an in-memory S3-compatible store with one bucket and
// returns the anonymous s3:// URL of key in it.
func startS3(t *testing.T, key string) string {
	t.Helper()
	backend := s3mem.New()
	if err := backend.CreateBucket("tables"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend, gofakes3.WithLogger(gofakes3.DiscardLog())).Server())
	t.Cleanup(srv.Close)
	q := url.Values{"endpoint": {srv.URL}, "use_path_style": {"true"}, "region": {"us-east-1"}, "anonymous": {"true"}}
	return "s3://tables/" + key + "?" + q.Encode()
}

// upload copies every file under dir to the store at url.
func upload(t *testing.T, url, dir string) {
	t.Helper()
	ctx := context.Background()
	store, err := lanceio.OpenStore(ctx, url, lanceio.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		w, err := store.Create(ctx, filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		if _, err := w.Write(data); err != nil {
			w.Abort()
			return err
		}
		return w.Close()
	})
	if err != nil {
		t.Fatal(err)
	}
}

// fixture is the table on the fake S3 store, opened as the service opens it.
type fixture struct {
	tb  *table
	url string
	cfg config
	ds  *lance.Dataset
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	tb, local := writeTable(t, t.TempDir())
	u := startS3(t, "t.lance")
	upload(t, u, local)
	cfg, err := parseFlags([]string{"-table", u, "-timeout", "10s", "-max-requests", "8"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := openTable(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ds.Close() })
	return &fixture{tb: tb, url: u, cfg: cfg, ds: ds}
}

// answer is a decoded response.
type answer struct {
	Rows  []map[string]any `json:"rows"`
	Error string           `json:"error"`
}

// get sends a GET of path to srv and decodes the JSON answer (numbers as
// json.Number, so ids stay exact).
func get(t *testing.T, srv *httptest.Server, path string) (int, answer) {
	t.Helper()
	resp, err := srv.Client().Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var a answer
	dec := json.NewDecoder(resp.Body)
	dec.UseNumber()
	if err := dec.Decode(&a); err != nil {
		t.Fatalf("GET %s: %d, body does not decode: %v", path, resp.StatusCode, err)
	}
	return resp.StatusCode, a
}

// ids returns the id column of rows.
func ids(t *testing.T, rows []map[string]any) []int64 {
	t.Helper()
	out := make([]int64, len(rows))
	for i, r := range rows {
		n, err := r["id"].(json.Number).Int64()
		if err != nil {
			t.Fatalf("row %d: id %v", i, r["id"])
		}
		out[i] = n
	}
	return out
}

// bruteForce returns the k ids nearest q by squared L2 among the ids
// keep selects, ties by id, with their distances.
func (tb *table) bruteForce(q [dim]float32, k int, keep func(int) bool) ([]int64, []float64) {
	type cand struct {
		id   int
		dist float64
	}
	var cs []cand
	for id, v := range tb.vecs {
		if keep != nil && !keep(id) {
			continue
		}
		var d float64
		for i := range dim {
			x := float64(v[i]) - float64(q[i])
			d += x * x
		}
		cs = append(cs, cand{id, d})
	}
	slices.SortFunc(cs, func(a, b cand) int {
		if a.dist != b.dist {
			if a.dist < b.dist {
				return -1
			}
			return 1
		}
		return a.id - b.id
	})
	var gotIDs []int64
	var dists []float64
	for _, c := range cs[:min(k, len(cs))] {
		gotIDs = append(gotIDs, int64(c.id))
		dists = append(dists, c.dist)
	}
	return gotIDs, dists
}

func TestService(t *testing.T) {
	f := newFixture(t)
	srv := httptest.NewServer(newHandler(f.ds, f.cfg))
	defer srv.Close()

	t.Run("rows by id", func(t *testing.T) {
		for _, id := range []int{0, 17, 1234, numRows - 1} {
			code, a := get(t, srv, fmt.Sprintf("/rows?id=%d", id))
			if code != http.StatusOK || len(a.Rows) != 1 {
				t.Fatalf("id %d: %d %+v", id, code, a)
			}
			r := a.Rows[0]
			if got := ids(t, a.Rows); got[0] != int64(id) || r["name"] != f.tb.name(id) {
				t.Errorf("id %d: row %v", id, r)
			}
			vec := r["v"].([]any)
			for d := range dim {
				x, _ := vec[d].(json.Number).Float64()
				if float32(x) != f.tb.vecs[id][d] {
					t.Errorf("id %d: v[%d] = %v, want %v", id, d, x, f.tb.vecs[id][d])
				}
			}
		}
	})
	t.Run("rows by row id", func(t *testing.T) {
		// without stable row ids a row id is the row address:
		// fragment << 32 | offset in the fragment
		for _, id := range []int{3, 777, 1999} {
			rowid := uint64(id/fragRows)<<32 | uint64(id%fragRows)
			code, a := get(t, srv, fmt.Sprintf("/rows?rowid=%d&columns=id,name", rowid))
			if code != http.StatusOK || len(a.Rows) != 1 || ids(t, a.Rows)[0] != int64(id) || a.Rows[0]["name"] != f.tb.name(id) {
				t.Errorf("rowid %d: %d %+v", rowid, code, a)
			}
			if _, ok := a.Rows[0]["v"]; ok {
				t.Errorf("rowid %d: column v returned without being asked for", rowid)
			}
		}
	})
	t.Run("scan", func(t *testing.T) {
		code, a := get(t, srv, "/scan?"+url.Values{"filter": {"id >= 990 AND id < 1010"}, "limit": {"15"}, "columns": {"id"}}.Encode())
		if want := []int64{990, 991, 992, 993, 994, 995, 996, 997, 998, 999, 1000, 1001, 1002, 1003, 1004}; code != http.StatusOK || !slices.Equal(ids(t, a.Rows), want) {
			t.Errorf("scan: %d %v", code, a)
		}
		code, a = get(t, srv, "/scan?"+url.Values{"filter": {"name LIKE 'name-12_'"}}.Encode())
		var want []int64
		for id := range numRows {
			if n := f.tb.name(id); len(n) == len("name-12_") && strings.HasPrefix(n, "name-12") {
				want = append(want, int64(id))
			}
		}
		if code != http.StatusOK || !slices.Equal(ids(t, a.Rows), want) {
			t.Errorf("scan LIKE: %d %v, want ids %v", code, ids(t, a.Rows), want)
		}
	})
	t.Run("nearest", func(t *testing.T) {
		for _, tc := range []struct {
			q      [dim]float32
			k      int
			filter string
			keep   func(int) bool
		}{
			{[dim]float32{0.1, -0.2, 0.3, 0.4}, 5, "", nil},
			{f.tb.vecs[42], 7, "", nil},
			{[dim]float32{0.5, 0.5, -0.5, 0}, 4, "id < 100", func(id int) bool { return id < 100 }},
		} {
			v := url.Values{"column": {"v"}, "k": {fmt.Sprint(tc.k)}, "columns": {"id"},
				"vector": {fmt.Sprintf("%v,%v,%v,%v", tc.q[0], tc.q[1], tc.q[2], tc.q[3])}}
			if tc.filter != "" {
				v.Set("filter", tc.filter)
				v.Set("prefilter", "true")
			}
			code, a := get(t, srv, "/nearest?"+v.Encode())
			wantIDs, wantDist := f.tb.bruteForce(tc.q, tc.k, tc.keep)
			if code != http.StatusOK || !slices.Equal(ids(t, a.Rows), wantIDs) {
				t.Fatalf("nearest %v: %d ids %v, want %v (%s)", tc.q, code, ids(t, a.Rows), wantIDs, a.Error)
			}
			for i, r := range a.Rows {
				d, _ := r["_distance"].(json.Number).Float64()
				if math.Abs(d-wantDist[i]) > 1e-5*max(1, wantDist[i]) {
					t.Errorf("nearest %v: row %d distance %v, want %v", tc.q, i, d, wantDist[i])
				}
			}
		}
	})
	t.Run("errors", func(t *testing.T) {
		for _, tc := range []struct {
			path string
			code int
		}{
			{"/rows?id=" + fmt.Sprint(numRows), http.StatusNotFound},
			{"/rows?id=abc", http.StatusBadRequest},
			{fmt.Sprintf("/rows?rowid=%d", uint64(9)<<32), http.StatusNotFound}, // no fragment 9
			{fmt.Sprintf("/rows?rowid=%d", fragRows), http.StatusNotFound},      // past fragment 0's rows
			{"/rows", http.StatusBadRequest},
			{"/scan?" + url.Values{"filter": {"id >>= 3"}}.Encode(), http.StatusBadRequest},
			{"/scan?" + url.Values{"filter": {"nosuch > 3"}}.Encode(), http.StatusBadRequest},
			{"/scan?limit=0", http.StatusBadRequest},
			{"/nearest?column=v&vector=1,2,3", http.StatusBadRequest}, // wrong dimension
			{"/nearest?column=v&vector=1,x,3,4", http.StatusBadRequest},
			{"/nearest?column=nosuch&vector=1,2,3,4", http.StatusBadRequest},
			{"/nearest?column=v&vector=1,2,3,4&k=0", http.StatusBadRequest},
			{"/nearest?column=v&vector=1,2,3,4&metric=nosuch", http.StatusBadRequest},
		} {
			code, a := get(t, srv, tc.path)
			if code != tc.code || a.Error == "" {
				t.Errorf("GET %s: %d %+v, want %d with an error", tc.path, code, a, tc.code)
			}
		}
	})
	t.Run("deadline", func(t *testing.T) {
		cfg := f.cfg
		cfg.timeout = time.Nanosecond
		slow := httptest.NewServer(newHandler(f.ds, cfg))
		defer slow.Close()
		for _, path := range []string{"/scan", "/rows?id=5", "/nearest?column=v&vector=1,2,3,4"} {
			if code, a := get(t, slow, path); code != http.StatusGatewayTimeout {
				t.Errorf("GET %s with a 1ns deadline: %d %+v", path, code, a)
			}
		}
	})
	resp, err := srv.Client().Get(srv.URL + "/stats")
	if err != nil {
		t.Fatal(err)
	}
	var st lance.Stats
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil || st.Requests == 0 {
		t.Errorf("stats: %+v %v", st, err)
	}
	resp.Body.Close()
}

// TestRun starts the whole service on a loopback port, asks one query
// and stops it by cancelling its context.
func TestRun(t *testing.T) {
	tb, local := writeTable(t, t.TempDir())
	u := startS3(t, "t.lance")
	upload(t, u, local)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := run(ctx, []string{"-table", u, "-addr", "127.0.0.1:0"}, pw)
		pw.CloseWithError(err)
		done <- err
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("service did not start: %v", err)
	}
	addr, _, _ := strings.Cut(strings.TrimPrefix(line, "listening on "), " ")
	resp, err := http.Get(addr + "/rows?id=1500")
	if err != nil {
		t.Fatal(err)
	}
	var a answer
	err = json.NewDecoder(resp.Body).Decode(&a)
	resp.Body.Close()
	if err != nil || len(a.Rows) != 1 || a.Rows[0]["name"] != tb.name(1500) {
		t.Errorf("GET /rows?id=1500: %+v %v", a, err)
	}
	cancel()
	go io.Copy(io.Discard, pr)
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return after cancel")
	}
}

// TestFlags checks that bad command lines fail before opening anything.
func TestFlags(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"-table", "x", "-timeout", "0s"},
		{"-table", "x", "-max-requests", "0"},
		{"-table", "x", "extra"},
		{"-nosuch"},
	} {
		if _, err := parseFlags(args, io.Discard); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}
