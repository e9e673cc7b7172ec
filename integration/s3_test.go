package integration

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	lance "github.com/lancego/lancego"
	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/internal/valuejson"
)

// scanAll reads every row of f in batches of 1000.
func scanAll(t *testing.T, f *lance.File) []arrow.RecordBatch {
	t.Helper()
	return scanRange(t, f, 0, 0, 1000)
}

// scanRange scans rows [from, to) (to 0: to the end) in batches of size.
func scanRange(t *testing.T, f *lance.File, from, to uint64, size int) []arrow.RecordBatch {
	t.Helper()
	var out []arrow.RecordBatch
	for rec, err := range f.Batches(context.Background(), lance.ScanOptions{From: from, To: to, BatchSize: size}) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, rec)
	}
	return out
}

func release(recs []arrow.RecordBatch) {
	for _, r := range recs {
		r.Release()
	}
}

// TestS3ReadsEqualLocalReads uploads every golden file and checks that a
// scan and a random take through s3:// give exactly the local values, and
// that opening costs one request.
func TestS3ReadsEqualLocalReads(t *testing.T) {
	checkReadsEqualLocal(t, s3Base(t), corpusFiles(t))
}

// TestGCSReadsEqualLocalReads does the same through gs:// (fake-gcs-server).
func TestGCSReadsEqualLocalReads(t *testing.T) {
	if os.Getenv("STORAGE_EMULATOR_HOST") == "" {
		t.Skip("STORAGE_EMULATOR_HOST not set: start fake-gcs-server with .ci/objectstores.sh")
	}
	bucket := os.Getenv("LANCE_TEST_GCS_BUCKET")
	if bucket == "" {
		bucket = "lance-test"
	}
	checkReadsEqualLocal(t, "gs://"+bucket, corpusFiles(t)[:16])
}

// checkReadsEqualLocal uploads files to the store at base and compares
// remote and local reads. Opening must cost one request, except on Azure,
// whose reads cannot ask for a suffix range: there the first read is of
// the head, which is the whole file up to the tail size, and a larger
// file costs a second read.
func checkReadsEqualLocal(t *testing.T, base string, files []string) {
	urls := upload(t, base, "equal", files)
	ctx := context.Background()
	for i, path := range files {
		wantOpen := int64(1)
		if st, err := os.Stat(path); err == nil && strings.HasPrefix(base, "azblob://") && st.Size() > lance.DefaultTailSize {
			wantOpen = 2
		}
		t.Run(filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			remote, err := lance.Open(ctx, urls[i], lance.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			defer remote.Close()
			if got := remote.Stats().Requests; got != wantOpen {
				t.Errorf("open took %d requests, want %d", got, wantOpen)
			}
			local, err := lance.Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer local.Close()
			compareScans(t, scanAll(t, local), scanAll(t, remote))
			if n := local.NumRows(); n > 0 { // a small and a larger range: the first read like a take
				for _, r := range [][2]uint64{{n / 3, n/3 + 1 + n/50}, {n / 7, n - n/7}} {
					compareScans(t, scanRange(t, local, r[0], r[1], 64), scanRange(t, remote, r[0], r[1], 64))
				}
			}
			compareTakes(t, local, remote)
		})
	}
}

func compareScans(t *testing.T, want, got []arrow.RecordBatch) {
	t.Helper()
	defer release(want)
	defer release(got)
	if len(want) != len(got) {
		t.Fatalf("%d batches remote, %d local", len(got), len(want))
	}
	if w, g := jsonOf(t, want), jsonOf(t, got); w != g {
		t.Fatal("scan differs between local and s3")
	}
}

// jsonOf renders batches in the corpus value conventions (float bit
// patterns, so NaNs compare exactly).
func jsonOf(t *testing.T, recs []arrow.RecordBatch) string {
	t.Helper()
	if len(recs) == 0 {
		return ""
	}
	var b strings.Builder
	if err := valuejson.WriteRecords(&b, recs[0].Schema(), recs); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func compareTakes(t *testing.T, local, remote *lance.File) {
	t.Helper()
	n := local.NumRows()
	if n == 0 {
		return
	}
	rng := rand.New(rand.NewPCG(n, 3))
	rows := []uint64{n - 1, 0}
	for range 20 {
		rows = append(rows, rng.Uint64N(n))
	}
	ctx := context.Background()
	want, err := local.Take(ctx, rows, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer want.Release()
	got, err := remote.Take(ctx, rows, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	if jsonOf(t, []arrow.RecordBatch{want}) != jsonOf(t, []arrow.RecordBatch{got}) {
		t.Fatal("take differs between local and s3")
	}
}

// columnBytes sums the buffer sizes of every page of a column.
func columnBytes(f *lance.File, col int) (bytes uint64, pages int) {
	for _, pg := range f.Metadata().Columns[col].GetPages() {
		for _, s := range pg.GetBufferSizes() {
			bytes += s
		}
		pages++
	}
	return bytes, pages
}

// TestS3ScanRequestBudget scans each column of a multi-megabyte file alone
// and checks the request and byte budget of the issue: at most
// column bytes / max request size + pages requests, and under 2% more
// bytes than the column holds.
func TestS3ScanRequestBudget(t *testing.T) {
	base := s3Base(t)
	for _, version := range []string{"2.1", "2.2"} {
		path := writeBigFile(t, version)
		url := upload(t, base, "budget"+version, []string{path})[0]
		ctx := context.Background()
		probe, err := lance.Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		names := probe.Schema().Fields()
		probe.Close()
		for c, field := range names {
			t.Run(fmt.Sprintf("%s/%s", version, field.Name), func(t *testing.T) {
				checkScanBudget(t, url, c, field.Name)
			})
		}
	}
}

func checkScanBudget(t *testing.T, url string, col int, name string) {
	ctx := context.Background()
	f, err := lance.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	open := f.Stats()
	for rec, err := range f.Batches(ctx, lance.ScanOptions{Columns: []string{name}}) {
		if err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	s := f.Stats()
	var bytes uint64
	pages := 0
	for _, leaf := range leafColumns(f, col) {
		b, p := columnBytes(f, leaf)
		bytes, pages = bytes+b, pages+p
	}
	reqs := s.Requests - open.Requests
	read := uint64(s.BytesRead - open.BytesRead)
	maxReqs := int64(bytes/(16<<20)) + int64(pages)
	t.Logf("column %s: %d pages, %d bytes; scan took %d requests, read %d bytes", name, pages, bytes, reqs, read)
	if reqs > maxReqs {
		t.Errorf("scan took %d requests, budget %d", reqs, maxReqs)
	}
	if float64(read) > 1.02*float64(bytes) {
		t.Errorf("scan read %d bytes for a column of %d (over 2%% more)", read, bytes)
	}
}

// leafColumns returns the physical columns of top-level field col.
func leafColumns(f *lance.File, col int) []int {
	var out []int
	var walk func(fl *format.Field)
	walk = func(fl *format.Field) {
		if fl.Column >= 0 {
			out = append(out, fl.Column)
			return
		}
		for _, c := range fl.Children {
			walk(c)
		}
	}
	walk(f.Metadata().Schema.Fields[col])
	sort.Ints(out)
	return out
}
