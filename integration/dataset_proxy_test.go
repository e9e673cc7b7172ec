package integration

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	lance "github.com/lancego/lancego"
	"github.com/lancego/lancego/bench"
)

// TestDatasetRequestsAtProxy counts the requests of dataset reads where
// the server sees them, at the benchmark's S3 proxy (no latency added),
// not with our own Stats: opening the latest version costs at most 2
// (list + manifest), a cold take of one row at most 2 more (data file
// tail + data) plus 1 for a deletion file, also on data files larger
// than an open reads whole (bLikeDataset), and --stats (Dataset.Stats)
// counts exactly what the proxy saw. Pylance's requests for the same
// reads, counted at the same proxy, are logged beside ours when LANCE_PY
// is set (not checked: they are its business).
func TestDatasetRequestsAtProxy(t *testing.T) {
	base := s3Base(t)
	env, ok := bench.S3FromEnv()
	if !ok {
		t.Skip("S3 credentials not in the environment (eval \"$(bash .ci/objectstores.sh env)\")")
	}
	p, err := bench.StartProxy(env.Endpoint, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	sets := []struct {
		dir  string
		rows []uint64 // offsets taken cold, one at a time
	}{
		{filepath.Join("..", "testdata", "datasets", "small"), []uint64{0, 11}},
		{filepath.Join("..", "testdata", "datasets", "stable_small"), []uint64{0, 11}},
		{filepath.Join(pylanceDatasets(t), "2.1", "history"), []uint64{0, 299}},
		{bLikeDataset(t), []uint64{0, 123_456}},
	}
	for _, set := range sets {
		name := filepath.Base(set.dir)
		t.Run(name, func(t *testing.T) {
			key := fmt.Sprintf("proxy-%d/%s", time.Now().UnixNano(), name)
			uploadDir(t, base, set.dir, key)
			url := env.URL(p.URL(), key)
			py := pylanceColdTakes(t, p, env, key, set.rows)
			for k, off := range set.rows {
				open, take, del := proxiedColdTake(t, p, url, off)
				budget := int64(2)
				if del {
					budget++
				}
				if open > 2 {
					t.Errorf("%s: opening the latest version cost %d requests at the proxy, want <= 2", name, open)
				}
				if take > budget {
					t.Errorf("%s: a cold take of offset %d cost %d requests at the proxy, want <= %d (tail + data + deletion file)", name, off, take, budget)
				}
				t.Logf("%s offset %d: open %d requests, cold take %d (deletion file: %v); pylance at the same proxy: %s", name, off, open, take, del, py[k])
			}
		})
	}
}

// bLikeDataset builds, in a temporary folder, a dataset like the dataset
// benchmark's "B": fragments of 80,000 rows of id int64, name (a
// dictionary string) and score f64, data files of ~940 KB (more than the
// 256 KiB an open reads whole, so a take reads their pages), a deletion
// file in each. Pylance writes it (bench/dataset_driver.py make) when
// LANCE_PY is set, else our writer does.
func bLikeDataset(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "b_like")
	const rows, perFrag = 160_000, 80_000
	if py := pythonPath(); py != "" {
		cmd := exec.Command(py, filepath.Join("..", "bench", "dataset_driver.py"), "make", dir, fmt.Sprint(rows), fmt.Sprint(perFrag))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("pylance: %v\n%s", err, out)
		}
		return checkBigDataFiles(t, dir)
	}
	ctx := context.Background()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "score", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i := range rows {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("name-%d", i%1000))
		b.Field(2).(*array.Float64Builder).Append(float64(i) / 2)
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	rdr, err := array.NewRecordReader(schema, []arrow.RecordBatch{rec})
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Release()
	ds, err := lance.CreateDataset(ctx, dir, rdr, lance.WithMaxRowsPerFile(perFrag))
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	del, err := ds.Delete(ctx, "name = 'name-7'")
	if err != nil {
		t.Fatal(err)
	}
	del.Close()
	return checkBigDataFiles(t, dir)
}

// checkBigDataFiles fails the test unless every data file of the dataset
// at dir is larger than the 256 KiB an open reads whole; it returns dir.
func checkBigDataFiles(t *testing.T, dir string) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "data", "*.lance"))
	if err != nil || len(files) < 2 {
		t.Fatalf("%s: data files %v (%v), want 2 or more", dir, files, err)
	}
	for _, f := range files {
		if fi, err := os.Stat(f); err != nil || fi.Size() <= 256<<10 {
			t.Fatalf("%s: want more than 256 KiB (%v)", f, err)
		}
	}
	return dir
}

// proxiedColdTake opens url (through the proxy) and takes offset off
// cold, returning the requests the proxy counted for each, and whether
// the row's fragment has a deletion file. It fails the test when our
// Stats disagree with the proxy.
func proxiedColdTake(t *testing.T, p *bench.Proxy, url string, off uint64) (open, take int64, del bool) {
	t.Helper()
	ctx := context.Background()
	if _, err := p.Mark(); err != nil {
		t.Fatal(err)
	}
	ds, err := lance.OpenDataset(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	m, _ := p.Mark()
	open = m.Requests
	if s := ds.Stats().Requests; s != open {
		t.Errorf("open: Stats count %d requests, the proxy %d", s, open)
	}
	frags, err := ds.Fragments(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var before uint64
	for _, f := range frags {
		if live := f.PhysicalRows - f.DeletedRows; off < before+live {
			del = f.DeletionFile != ""
			break
		}
		before += f.PhysicalRows - f.DeletedRows
	}
	s0 := ds.Stats().Requests
	rec, err := ds.Take(ctx, []uint64{off}, lance.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rec.Release()
	m, _ = p.Mark()
	take = m.Requests
	if s := ds.Stats().Requests - s0; s != take {
		t.Errorf("take: Stats count %d requests, the proxy %d", s, take)
	}
	return open, take, del
}

// pylanceColdTakes has pylance open the dataset at key through the proxy
// and take each offset from a dataset just opened (bench/dataset_driver.py
// "open" and "cold_take"), and describes the requests the proxy counted
// for each offset; "not run" without LANCE_PY.
func pylanceColdTakes(t *testing.T, p *bench.Proxy, env bench.S3Env, key string, offs []uint64) []string {
	out := make([]string, len(offs))
	py := pythonPath()
	if py == "" {
		for k := range out {
			out[k] = "not run (no LANCE_PY)"
		}
		return out
	}
	ops := []map[string]any{{"op": "open"}}
	for _, off := range offs {
		ops = append(ops, map[string]any{"op": "cold_take", "offsets": []uint64{off}})
	}
	req, _ := json.Marshal(map[string]any{"url": env.PyPath(key), "storage_options": env.StorageOptions(p.URL()), "reps": 1,
		"mark_url": p.URL() + bench.MarkPath, "ops": ops})
	cmd := exec.Command(py, filepath.Join("..", "bench", "dataset_driver.py"), "run")
	cmd.Stdin = bytes.NewReader(req)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("pylance driver: %v\n%s", err, stderr.String())
	}
	var res struct {
		Results []struct {
			IO *bench.MarkCounts `json:"io"`
		} `json:"results"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil || len(res.Results) != len(ops) {
		t.Fatalf("pylance driver answered %q (%v)", stdout.String(), err)
	}
	for _, r := range res.Results {
		if r.IO == nil {
			t.Fatalf("pylance driver counted nothing at the proxy: %q", stdout.String())
		}
	}
	for k := range offs {
		out[k] = fmt.Sprintf("open %d requests, cold take %d", res.Results[0].IO.Requests, res.Results[k+1].IO.Requests)
	}
	return out
}
