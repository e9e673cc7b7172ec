package integration

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	lance "github.com/lancego/lancego"
	"github.com/lancego/lancego/internal/valuejson"
	lanceio "github.com/lancego/lancego/io"
)

// uploadDir copies the files under dir to prefix/ in the store at base,
// keeping their relative paths, and returns the prefix URL.
func uploadDir(t *testing.T, base, dir, prefix string) string {
	t.Helper()
	ctx := context.Background()
	store, err := lanceio.OpenStore(ctx, base, lanceio.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		w, err := store.Create(ctx, prefix+"/"+filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
		return w.Close()
	})
	if err != nil {
		t.Fatal(err)
	}
	return objectURL(base, prefix)
}

type expectedVersion struct {
	Version     uint64          `json:"version"`
	NumRows     uint64          `json:"num_rows"`
	Columns     json.RawMessage `json:"columns"`
	TakeOffsets []uint64        `json:"take_offsets"`
	Take        json.RawMessage `json:"take"`
	TakeRowIDs  []string        `json:"take_row_ids"`
	TakeRows    json.RawMessage `json:"take_rows"`
}

func sameAs(t *testing.T, what string, recs []arrow.RecordBatch, schema *arrow.Schema, want json.RawMessage) {
	t.Helper()
	var buf bytes.Buffer
	if err := valuejson.WriteRecords(&buf, schema, recs); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Columns json.RawMessage `json:"columns"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	g, _ := valuejson.Decode(bytes.NewReader(got.Columns))
	w, _ := valuejson.Decode(bytes.NewReader(want))
	if ok, diff := valuejson.EqualJSON(w, g); !ok {
		t.Fatalf("%s: %s", what, diff)
	}
}

// TestDatasetOverS3 reads the committed pylance datasets from S3 at every
// version (all rows with _rowid/_rowaddr, takes by offset and row id),
// and checks the request counts: opening the latest version costs at most
// 2 requests (list + manifest), a cold take of one row at most 2 more
// (data file tail + data) plus 1 for a deletion file.
func TestDatasetOverS3(t *testing.T) {
	checkCommittedDatasets(t, s3Base(t))
}

// checkCommittedDatasets uploads the committed pylance datasets to the
// store at base and checks every version against pylance's values and
// the request bounds.
func checkCommittedDatasets(t *testing.T, base string) {
	for _, name := range []string{"small", "stable_small"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("..", "testdata", "datasets", name)
			checkDatasetOn(t, base, dir, name+".lance", 3) // version 3: before the last append
		})
	}
}

// checkDatasetOn uploads the pylance dataset at dir (its expected values
// in dir.expected.json) to the store at base, reads every version there
// as pylance read it, and checks the request bounds at the latest version
// and at version older.
func checkDatasetOn(t *testing.T, base, dir, name string, older uint64) {
	t.Helper()
	ctx := context.Background()
	url := uploadDir(t, base, dir, fmt.Sprintf("datasets-%d/%s", time.Now().UnixNano(), name))
	raw, err := os.ReadFile(dir + ".expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var exp struct {
		Versions []expectedVersion `json:"versions"`
	}
	if err := json.Unmarshal(raw, &exp); err != nil {
		t.Fatal(err)
	}
	if len(exp.Versions) == 0 {
		t.Fatalf("%s: no versions expected", dir)
	}
	for _, v := range exp.Versions {
		checkVersionAt(t, ctx, url, v)
	}
	checkRequestCounts(t, ctx, url, 0)
	checkRequestCounts(t, ctx, url, older)
}

func checkVersionAt(t *testing.T, ctx context.Context, url string, v expectedVersion) {
	ds, err := lance.OpenDataset(ctx, url, lance.WithVersion(v.Version))
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	ro := lance.ReadOptions{WithRowID: true, WithRowAddress: true}
	var recs []arrow.RecordBatch
	for rec, err := range ds.Batches(ctx, lance.DatasetScanOptions{ReadOptions: ro}) {
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
		defer rec.Release()
	}
	what := fmt.Sprintf("%s v%d", url, v.Version)
	sameAs(t, what+" scan", recs, recs[0].Schema(), v.Columns)
	rec, err := ds.Take(ctx, v.TakeOffsets, ro)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	sameAs(t, what+" take", []arrow.RecordBatch{rec}, rec.Schema(), v.Take)
	ids := make([]uint64, len(v.TakeRowIDs))
	for i, s := range v.TakeRowIDs {
		ids[i], _ = strconv.ParseUint(s, 10, 64)
	}
	rows, err := ds.TakeRowIDs(ctx, ids, ro)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Release()
	sameAs(t, what+" take row ids", []arrow.RecordBatch{rows}, rows.Schema(), v.TakeRows)
}

// checkRequestCounts opens version v (0: the latest) and takes row 0
// cold: at most 2 requests to open, at most 2 more for the take plus 1
// when row 0's fragment has a deletion file.
func checkRequestCounts(t *testing.T, ctx context.Context, url string, v uint64) {
	var opts []lance.Option
	if v != 0 {
		opts = append(opts, lance.WithVersion(v))
	}
	ds, err := lance.OpenDataset(ctx, url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	open := ds.Stats().Requests
	if open > 2 {
		t.Errorf("opening the latest version cost %d requests, want <= 2", open)
	}
	frags, err := ds.Fragments(ctx) // reads nothing: the manifest records the deletion counts
	if err != nil {
		t.Fatal(err)
	}
	budget := int64(2)
	if frags[0].DeletionFile != "" {
		budget++
	}
	before := ds.Stats().Requests
	if before != open {
		t.Errorf("Fragments cost %d requests", before-open)
	}
	rec, err := ds.Take(ctx, []uint64{0}, lance.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rec.Release()
	take := ds.Stats().Requests - before
	t.Logf("%s version %d: open %d requests, cold take of one row %d (deletion file: %v)", url, v, open, take, budget == 3)
	if take > budget {
		t.Errorf("a cold take of one row cost %d requests, want <= %d (tail + data + deletion file)", take, budget)
	}
}

// TestPylanceDatasetsOverS3 is TestDatasetOverS3 for the larger datasets
// of testdata/pylance/gen_datasets.py (every write operation, stable row
// ids, V1 manifest names), data storage version 2.1: taken from
// $LANCE_DATASETS/2.1 when generated there, else generated with $LANCE_PY.
func TestPylanceDatasetsOverS3(t *testing.T) {
	base := s3Base(t)
	dir := pylanceDatasets(t)
	for _, name := range []string{"history", "stable", "v1paths"} {
		t.Run(name, func(t *testing.T) {
			checkDatasetOn(t, base, filepath.Join(dir, "2.1", name), name, 5) // fragment 0 has a roaring deletion file
		})
	}
}

// pylanceDatasets returns the root of the gen_datasets.py tree holding
// 2.1/: $LANCE_DATASETS when generated there, else a tree generated now
// with $LANCE_PY; it skips the test when neither is available.
func pylanceDatasets(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("LANCE_DATASETS")
	if dir != "" && exists(filepath.Join(dir, "2.1", "history.expected.json")) {
		return dir
	}
	py := pythonPath()
	if py == "" {
		t.Skip("no pylance (LANCE_PY) and no generated LANCE_DATASETS tree")
	}
	dir = t.TempDir()
	cmd := exec.Command(py, "../testdata/pylance/gen_datasets.py", "--out", dir, "--versions", "2.1")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gen_datasets.py: %v\n%s", err, b)
	}
	return dir
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
