package dataset

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Environment of TestDatasetAppendHelper, the appending child process.
const (
	helperURL  = "LANCEGO_DSWRITE_URL"
	helperFrom = "LANCEGO_DSWRITE_FROM"
	helperKill = "LANCEGO_DSWRITE_KILL"
)

// killLock is a commit lock whose Lock kills the process: the writer dies
// after its data files (and transaction file) are uploaded, before the
// manifest that would reference them.
type killLock struct{}

func (killLock) Lock(context.Context, uint64) (func() error, error) {
	os.Exit(3)
	return nil, nil
}

// TestDatasetAppendHelper is not a test: run as a child process by
// appendProcesses, it appends 3 × 50 rows from $LANCEGO_DSWRITE_FROM, or
// with $LANCEGO_DSWRITE_KILL dies before its commit.
func TestDatasetAppendHelper(t *testing.T) {
	u := os.Getenv(helperURL)
	if u == "" {
		t.Skip("helper process only")
	}
	from, _ := strconv.Atoi(os.Getenv(helperFrom))
	ctx := context.Background()
	var opts []DatasetWriteOption
	if os.Getenv(helperKill) != "" {
		opts = append(opts, WithCommitLock(killLock{}))
	}
	ds, err := OpenDataset(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	for k := range 3 {
		rdr, _ := rowsReader(t, memory.DefaultAllocator, from+100*k, 50, 25)
		d, err := ds.Append(ctx, rdr, opts...)
		rdr.Release()
		if err != nil {
			t.Fatal(err)
		}
		d.Close()
	}
}

// appendProcesses runs four appending processes and one that is killed
// between upload and commit, all at once, on the dataset at u (created
// here with rows 0-99); it returns every row committed.
func appendProcesses(t *testing.T, u string) []wrow {
	ctx := context.Background()
	rdr, all := rowsReader(t, memory.DefaultAllocator, 0, 100, 100)
	ds, err := CreateDataset(ctx, u, rdr)
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	ds.Close()
	var cmds []*exec.Cmd
	outs := make([]*bytes.Buffer, 5)
	for w := range 5 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestDatasetAppendHelper$")
		cmd.Env = append(os.Environ(), helperURL+"="+u, fmt.Sprintf("%s=%d", helperFrom, 10000*(w+1)))
		if w == 4 {
			cmd.Env = append(cmd.Env, helperKill+"=1")
		}
		outs[w] = new(bytes.Buffer)
		cmd.Stdout, cmd.Stderr = outs[w], outs[w]
		cmds = append(cmds, cmd)
	}
	for _, c := range cmds {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	for w, c := range cmds {
		err := c.Wait()
		out := outs[w].String()
		switch {
		case w < 4 && err != nil:
			t.Fatalf("appender %d: %v\n%s", w, err, out)
		case w == 4 && c.ProcessState.ExitCode() != 3:
			t.Fatalf("killed writer exited with %v", err)
		}
		if w < 4 {
			for k := range 3 {
				_, rows := rowsReader(t, memory.DefaultAllocator, 10000*(w+1)+100*k, 50, 50)
				all = append(all, rows...)
			}
		}
	}
	return all
}

// checkVersions checks that version v of the dataset at u holds 100 + 50
// × (v-1) rows, all of them rows of want, and the latest holds want.
func checkVersions(t *testing.T, u string, want []wrow) {
	ctx := context.Background()
	latest, err := OpenDataset(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer latest.Close()
	if latest.Version() != 13 {
		t.Fatalf("latest version %d, want 13", latest.Version())
	}
	if got := readRows(t, latest); !slices.Equal(got, sortRows(want)) {
		t.Fatalf("latest has %d rows, want %d (lost or duplicated rows)", len(got), len(want))
	}
	for v := uint64(1); v < 13; v++ {
		d, err := OpenDataset(ctx, u, WithVersion(v))
		if err != nil {
			t.Fatal(err)
		}
		got := readRows(t, d)
		d.Close()
		if len(got) != 100+50*int(v-1) {
			t.Fatalf("version %d has %d rows", v, len(got))
		}
	}
}

// TestDatasetProcessAppendsLocal: four processes append to one local
// dataset at once while a fifth dies before committing; then a delete.
// Every committed row is there exactly once (for pylance too), nothing of
// the killed writer is visible, every older version is intact.
func TestDatasetProcessAppendsLocal(t *testing.T) {
	if os.Getenv(helperURL) != "" {
		t.Skip("in a helper process")
	}
	dir := filepath.Join(t.TempDir(), "ds")
	all := appendProcesses(t, dir)
	checkVersions(t, dir, all)
	ctx := context.Background()
	ds, err := OpenDataset(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	d2, err := ds.Delete(ctx, "a >= 30000 AND a < 40000 OR a < 10")
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	var kept []wrow
	for _, r := range all {
		if !(r.A >= 30000 && r.A < 40000 || r.A < 10) {
			kept = append(kept, r)
		}
	}
	py := pylanceRows(t, dir, 0)
	if py == nil {
		return
	}
	if !slices.Equal(py[13], sortRows(all)) || !slices.Equal(py[14], sortRows(kept)) {
		t.Fatalf("pylance: version 13 has %d rows (want %d), 14 has %d (want %d)", len(py[13]), len(all), len(py[14]), len(kept))
	}
	for v := uint64(1); v < 13; v++ {
		if len(py[v]) != 100+50*int(v-1) {
			t.Fatalf("pylance: version %d has %d rows", v, len(py[v]))
		}
	}
}

// TestDatasetProcessAppendsS3 is the same race on S3 (versitygw in CI),
// which must honour If-None-Match: * for it to pass.
func TestDatasetProcessAppendsS3(t *testing.T) {
	if os.Getenv(helperURL) != "" {
		t.Skip("in a helper process")
	}
	ep, bucket := os.Getenv("LANCE_TEST_S3_ENDPOINT"), os.Getenv("LANCE_TEST_S3_BUCKET")
	if ep == "" {
		t.Skip("LANCE_TEST_S3_ENDPOINT not set (run .ci/objectstores.sh start)")
	}
	if bucket == "" {
		bucket = "lance-test"
	}
	q := url.Values{"endpoint": {ep}, "use_path_style": {"true"}}
	if os.Getenv("AWS_REGION") == "" {
		q.Set("region", "us-east-1")
	}
	prefix := fmt.Sprintf("s3://%s/dswrite-%d", bucket, time.Now().UnixNano())
	u := prefix + "?" + q.Encode()
	all := appendProcesses(t, u)
	checkVersions(t, u, all)
	ctx := context.Background()
	ds, err := OpenDataset(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	d2, err := ds.Delete(ctx, "a >= 30000 AND a < 40000")
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	if n, _ := d2.CountRows(ctx); n != uint64(len(all)-150) {
		t.Fatalf("after delete %d rows, want %d", n, len(all)-150)
	}
	checkPylanceS3(t, prefix, ep, all)
}

// checkPylanceS3 reads every version of the S3 dataset at prefix with
// pylance (storage options for the endpoint): version 13 holds every
// committed row once, 14 the delete, older versions their rows.
func checkPylanceS3(t *testing.T, prefix, ep string, all []wrow) {
	py := pylanceRunOpts(t, prefix, s3PylanceOptions(ep), "", 0)
	if py == nil {
		return
	}
	var kept []wrow
	for _, r := range all {
		if !(r.A >= 30000 && r.A < 40000) {
			kept = append(kept, r)
		}
	}
	if len(py) != 14 || !slices.Equal(py[13], sortRows(all)) || !slices.Equal(py[14], sortRows(kept)) {
		t.Fatalf("pylance on S3: %d versions; 13 has %d rows (want %d), 14 has %d (want %d)",
			len(py), len(py[13]), len(all), len(py[14]), len(kept))
	}
	for v := uint64(1); v < 13; v++ {
		if len(py[v]) != 100+50*int(v-1) {
			t.Fatalf("pylance on S3: version %d has %d rows", v, len(py[v]))
		}
	}
	t.Logf("pylance read %d versions on S3, %d rows in the latest", len(py), len(py[14]))
}

// faultProxy forwards to an S3 endpoint and injects faults into the first
// PUT of each key: a data or transaction file upload gets a 503 without
// reaching the server; a manifest put reaches the server (and commits)
// but its answer is replaced by a 503, so the client's retry meets its own
// manifest (412 Precondition Failed).
type faultProxy struct {
	target *url.URL
	proxy  *httputil.ReverseProxy
	mu     sync.Mutex
	seen   map[string]bool
	faults atomic.Int64
}

func newFaultProxy(t *testing.T, endpoint string) (*httptest.Server, *faultProxy) {
	u, err := url.Parse(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	p := &faultProxy{target: u, proxy: httputil.NewSingleHostReverseProxy(u), seen: map[string]bool{}}
	p.proxy.ModifyResponse = func(r *http.Response) error {
		if r.Request.Header.Get("X-Fault-Lose-Answer") != "" && r.StatusCode == http.StatusOK {
			p.faults.Add(1)
			r.StatusCode = http.StatusServiceUnavailable
			r.Body = io.NopCloser(strings.NewReader(`<Error><Code>ServiceUnavailable</Code><Message>injected</Message></Error>`))
			r.ContentLength = -1
			r.Header.Del("Content-Length")
		}
		return nil
	}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	return srv, p
}

func (p *faultProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPut && r.URL.Query().Get("uploadId") == "" {
		p.mu.Lock()
		first := !p.seen[r.URL.Path]
		p.seen[r.URL.Path] = true
		p.mu.Unlock()
		if first && strings.Contains(r.URL.Path, "/_versions/") && strings.HasSuffix(r.URL.Path, ".manifest") {
			r.Header.Set("X-Fault-Lose-Answer", "1")
		} else if first && !strings.HasSuffix(r.URL.Path, ".json") {
			p.faults.Add(1)
			_, _ = io.Copy(io.Discard, r.Body)
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = io.WriteString(w, `<Error><Code>ServiceUnavailable</Code><Message>injected</Message></Error>`)
			return
		}
	}
	p.proxy.ServeHTTP(w, r)
}

// TestDatasetWriteS3Faults writes through injected 503s on S3: each
// version is committed exactly once even when the answer to the commit is
// lost, and every row is there once.
func TestDatasetWriteS3Faults(t *testing.T) {
	ep, bucket := os.Getenv("LANCE_TEST_S3_ENDPOINT"), os.Getenv("LANCE_TEST_S3_BUCKET")
	if ep == "" {
		t.Skip("LANCE_TEST_S3_ENDPOINT not set (run .ci/objectstores.sh start)")
	}
	if bucket == "" {
		bucket = "lance-test"
	}
	srv, proxy := newFaultProxy(t, ep)
	q := url.Values{"endpoint": {srv.URL}, "use_path_style": {"true"}}
	if os.Getenv("AWS_REGION") == "" {
		q.Set("region", "us-east-1")
	}
	u := fmt.Sprintf("s3://%s/dswrite-fault-%d?%s", bucket, time.Now().UnixNano(), q.Encode())
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rdr, all := rowsReader(t, mem, 0, 100, 50)
	ds, err := CreateDataset(ctx, u, rdr, WithMaxRowsPerFile(60))
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	rdr, rows := rowsReader(t, mem, 500, 30, 30)
	d2, err := ds.Append(ctx, rdr)
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	all = append(all, rows...)
	if d2.Version() != 2 {
		t.Fatalf("append committed version %d, want 2 (a lost answer committed twice?)", d2.Version())
	}
	if got := readRows(t, d2); !slices.Equal(got, sortRows(all)) {
		t.Fatalf("read %d rows, want %d", len(got), len(all))
	}
	vs, err := d2.Versions(ctx)
	if err != nil || len(vs) != 2 {
		t.Fatalf("versions %v (%v), want 2", vs, err)
	}
	if n := proxy.faults.Load(); n < 6 {
		t.Fatalf("only %d faults injected", n)
	}
}
