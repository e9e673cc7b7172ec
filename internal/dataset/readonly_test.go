package dataset

import (
	"context"
	"errors"
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
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	lanceio "github.com/lancego/lancego/io"
)

// makeReadOnly makes the tree at dir unwritable, also for root (tests
// run as root in CI, and root ignores permission bits): chmod for other
// users, the immutable attribute (chattr +i) for root. It skips the test
// when neither takes effect, and undoes it at cleanup.
func makeReadOnly(t *testing.T, dir string) {
	if os.Geteuid() == 0 {
		out, err := exec.Command("chattr", "-R", "+i", dir).CombinedOutput()
		if err != nil {
			t.Skipf("chattr +i: %v %s", err, out)
		}
		t.Cleanup(func() { _ = exec.Command("chattr", "-R", "-i", dir).Run() })
	} else {
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				_ = os.Chmod(p, 0o555)
			}
			return nil
		})
		t.Cleanup(func() {
			_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err == nil && d.IsDir() {
					_ = os.Chmod(p, 0o755)
				}
				return nil
			})
		})
	}
	probe := filepath.Join(dir, "probe")
	if err := os.WriteFile(probe, nil, 0o644); err == nil {
		_ = os.Remove(probe)
		t.Skip("cannot make a read-only directory here")
	}
}

// TestDatasetWriteReadOnlyLocal appends to a dataset in a read-only
// directory tree and creates one under a read-only parent: both fail with
// a permission error naming the file, and leave the tree as it was.
func TestDatasetWriteReadOnlyLocal(t *testing.T) {
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	parent := t.TempDir()
	dir := filepath.Join(parent, "ds")
	rdr, rows := rowsReader(t, mem, 0, 100, 50)
	ds, err := CreateDataset(ctx, dir, rdr)
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	before := listTree(t, parent)
	makeReadOnly(t, parent)
	rdr, _ = rowsReader(t, mem, 100, 50, 50)
	_, err = ds.Append(ctx, rdr)
	rdr.Release()
	checkPermissionError(t, "append", err)
	rdr, _ = rowsReader(t, mem, 100, 50, 50)
	_, err = CreateDataset(ctx, filepath.Join(parent, "new"), rdr)
	rdr.Release()
	checkPermissionError(t, "create", err)
	if after := listTree(t, parent); !slices.Equal(before, after) {
		t.Fatalf("a failed write changed the tree:\n%v\n%v", before, after)
	}
	d, err := OpenDataset(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.Version() != 1 || !slices.Equal(readRows(t, d), rows) {
		t.Fatalf("after the failed writes: version %d", d.Version())
	}
}

// checkPermissionError checks that err is a write's permission failure.
func checkPermissionError(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s to a read-only destination succeeded", what)
	}
	if !errors.Is(err, lanceio.ErrPermission) {
		t.Fatalf("%s: %v, want lanceio.ErrPermission", what, err)
	}
	t.Logf("%s: %v", what, err)
}

// TestDatasetCommitReadOnlyVersions appends to a dataset whose data
// folder is writable but whose _versions folder is not: the data files
// are written, the commit fails with a permission error, and the data
// files are removed again.
func TestDatasetCommitReadOnlyVersions(t *testing.T) {
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := filepath.Join(t.TempDir(), "ds")
	rdr, rows := rowsReader(t, mem, 0, 100, 50)
	ds, err := CreateDataset(ctx, dir, rdr)
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	before := listTree(t, dir)
	makeReadOnly(t, filepath.Join(dir, "_versions"))
	rdr, _ = rowsReader(t, mem, 100, 3000, 500)
	var written uint64
	_, err = ds.Append(ctx, rdr, WithMaxRowsPerFile(1000), WithWriteProgress(func(n uint64) { written = n }))
	rdr.Release()
	checkPermissionError(t, "append", err)
	if written != 3000 {
		t.Fatalf("the append failed after %d rows, want all 3000 written before the commit", written)
	}
	if after := listTree(t, dir); !slices.Equal(before, after) {
		t.Fatalf("a failed commit left files:\n%v\n%v", before, after)
	}
	d, err := OpenDataset(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.Version() != 1 || !slices.Equal(readRows(t, d), rows) {
		t.Fatalf("after the failed commit: version %d", d.Version())
	}
}

// readOnlyProxy forwards to an S3 endpoint and answers every request that
// would change the bucket (PUT, POST, DELETE) with 403 AccessDenied, as S3
// does for credentials whose policy allows only reads. versitygw in CI
// runs without an IAM service (no --iam-dir), so it has no read-only
// account to test with; the proxy stands in for one.
func readOnlyProxy(t *testing.T, endpoint string) (*httptest.Server, *atomic.Int64) {
	u, err := url.Parse(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	var denied atomic.Int64
	rp := httputil.NewSingleHostReverseProxy(u)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodPut, http.MethodPost, http.MethodDelete:
			denied.Add(1)
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/xml")
			w.WriteHeader(http.StatusForbidden)
			_, _ = io.WriteString(w, `<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>`)
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &denied
}

// s3TestURL is an s3:// URL of a fresh prefix at endpoint (path style).
func s3TestURL(t *testing.T, bucket, endpoint, name string) string {
	q := url.Values{"endpoint": {endpoint}, "use_path_style": {"true"}}
	if os.Getenv("AWS_REGION") == "" {
		q.Set("region", "us-east-1")
	}
	return fmt.Sprintf("s3://%s/%s-%d?%s", bucket, name, time.Now().UnixNano(), q.Encode())
}

// TestDatasetWriteReadOnlyS3 appends, through read-only credentials, to a
// dataset written on S3, and creates one: both fail with a permission
// error, without retrying, and the bucket holds what it held before.
func TestDatasetWriteReadOnlyS3(t *testing.T) {
	ep, bucket := os.Getenv("LANCE_TEST_S3_ENDPOINT"), os.Getenv("LANCE_TEST_S3_BUCKET")
	if ep == "" {
		t.Skip("LANCE_TEST_S3_ENDPOINT not set (run .ci/objectstores.sh start)")
	}
	if bucket == "" {
		bucket = "lance-test"
	}
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rw := s3TestURL(t, bucket, ep, "dswrite-ro")
	rdr, rows := rowsReader(t, mem, 0, 100, 50)
	ds, err := CreateDataset(ctx, rw, rdr)
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	before := s3Keys(t, rw)
	if len(before) < 3 {
		t.Fatalf("listing the dataset found %v", before)
	}
	srv, denied := readOnlyProxy(t, ep)
	ro := strings.Replace(rw, url.QueryEscape(ep), url.QueryEscape(srv.URL), 1)
	rds, err := OpenDataset(ctx, ro)
	if err != nil {
		t.Fatal(err)
	}
	defer rds.Close()
	rdr, _ = rowsReader(t, mem, 100, 50, 50)
	_, err = rds.Append(ctx, rdr)
	rdr.Release()
	checkPermissionError(t, "append", err)
	rdr, _ = rowsReader(t, mem, 100, 50, 50)
	newURL := s3TestURL(t, bucket, srv.URL, "dswrite-ro-new")
	_, err = CreateDataset(ctx, newURL, rdr)
	rdr.Release()
	checkPermissionError(t, "create", err)
	if n := denied.Load(); n > 8 {
		t.Fatalf("%d denied requests: a permission error was retried", n)
	}
	if after := s3Keys(t, rw); !slices.Equal(before, after) {
		t.Fatalf("a denied write changed the bucket:\n%v\n%v", before, after)
	}
	if keys := s3Keys(t, strings.Replace(newURL, url.QueryEscape(srv.URL), url.QueryEscape(ep), 1)); len(keys) != 0 {
		t.Fatalf("a denied create left %v", keys)
	}
	d, err := OpenDataset(ctx, rw)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.Version() != 1 || !slices.Equal(readRows(t, d), rows) {
		t.Fatalf("after the denied writes: version %d", d.Version())
	}
}

// s3Keys lists every key of the dataset at u (its three folders).
func s3Keys(t *testing.T, u string) []string {
	store, err := lanceio.OpenStore(context.Background(), u, lanceio.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	var keys []string
	for _, dir := range []string{"data", "_versions", "_transactions", "_deletions"} {
		es, err := store.List(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			keys = append(keys, e.Key)
		}
	}
	return keys
}
