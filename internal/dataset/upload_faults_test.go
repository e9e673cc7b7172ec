package dataset

import (
	"cmp"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"github.com/lancego/lancego/internal/fileread"
	"io"
	"maps"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	lanceio "github.com/lancego/lancego/io"
)

// uploadFault is what uploadFaultProxy does to a request it faults.
type uploadFault int

const (
	// fault503 answers 503 ServiceUnavailable; nothing reaches the server.
	fault503 uploadFault = iota + 1
	// faultResetMidBody reads part of the request body, then resets the
	// connection: nothing reaches the server.
	faultResetMidBody
	// faultResetAfter forwards the request, then resets the connection
	// instead of answering: the server did the work, the client cannot
	// know it.
	faultResetAfter
)

// uploadRule faults the first n attempts (n < 0: every attempt) at each
// object of the requests of one kind (see requestKind).
type uploadRule struct {
	kind  string
	fault uploadFault
	n     int
}

// uploadFaultProxy forwards to an S3 endpoint and faults the writes its
// rules name. Reads (GET, HEAD, listings) always pass.
type uploadFaultProxy struct {
	rp       *httputil.ReverseProxy
	mu       sync.Mutex
	rules    []uploadRule
	attempts map[string]int // by kind and object (and part number)
	injected map[string]int // faults by kind
}

func newUploadFaultProxy(t *testing.T, endpoint string) (*httptest.Server, *uploadFaultProxy) {
	u, err := url.Parse(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	p := &uploadFaultProxy{rp: httputil.NewSingleHostReverseProxy(u)}
	p.set()
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	return srv, p
}

// set replaces the rules and forgets the attempts and faults counted.
func (p *uploadFaultProxy) set(rules ...uploadRule) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rules, p.attempts, p.injected = rules, map[string]int{}, map[string]int{}
}

// faults returns the faults injected since set, by request kind.
func (p *uploadFaultProxy) faults() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return maps.Clone(p.injected)
}

// requestKind names what a request writes: "data" (a data file put),
// "part" / "complete" (a part or the completion of a multipart data file
// upload), "txn", "deletion", "manifest", "hint", "delete" (any DELETE);
// "" for reads and anything else.
func requestKind(r *http.Request) string {
	q := r.URL.Query()
	switch {
	case r.Method == http.MethodDelete:
		return "delete"
	case r.Method == http.MethodPut && q.Has("partNumber"):
		return "part"
	case r.Method == http.MethodPost && q.Has("uploadId"):
		return "complete"
	case r.Method != http.MethodPut:
		return ""
	case strings.Contains(r.URL.Path, "/_versions/") && strings.HasSuffix(r.URL.Path, ".manifest"):
		return "manifest"
	case strings.HasSuffix(r.URL.Path, ".json"):
		return "hint"
	case strings.Contains(r.URL.Path, "/data/"):
		return "data"
	case strings.Contains(r.URL.Path, "/_transactions/"):
		return "txn"
	case strings.Contains(r.URL.Path, "/_deletions/"):
		return "deletion"
	}
	return ""
}

// fault returns the fault for r, counting the attempt.
func (p *uploadFaultProxy) fault(r *http.Request) uploadFault {
	kind := requestKind(r)
	if kind == "" {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	key := kind + " " + r.URL.Path + " " + r.URL.Query().Get("partNumber")
	p.attempts[key]++
	for _, rule := range p.rules {
		if rule.kind == kind && (rule.n < 0 || p.attempts[key] <= rule.n) {
			p.injected[kind]++
			return rule.fault
		}
	}
	return 0
}

func (p *uploadFaultProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch p.fault(r) {
	case fault503:
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = io.WriteString(w, `<Error><Code>ServiceUnavailable</Code><Message>injected</Message></Error>`)
	case faultResetMidBody:
		n := r.ContentLength / 2
		if n <= 0 {
			n = 512
		}
		_, _ = io.CopyN(io.Discard, r.Body, n)
		resetConn(w)
	case faultResetAfter:
		p.rp.ServeHTTP(httptest.NewRecorder(), r)
		resetConn(w)
	default:
		p.rp.ServeHTTP(w, r)
	}
}

// resetConn closes the client's connection with a TCP reset.
func resetConn(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic("uploadFaultProxy: cannot hijack")
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		return
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}

// s3PylanceOptions are the pylance storage options of the S3 endpoint ep.
func s3PylanceOptions(ep string) map[string]string {
	return map[string]string{"aws_endpoint": ep, "allow_http": "true", "aws_virtual_hosted_style_request": "false",
		"aws_access_key_id": os.Getenv("AWS_ACCESS_KEY_ID"), "aws_secret_access_key": os.Getenv("AWS_SECRET_ACCESS_KEY"),
		"aws_region": cmp.Or(os.Getenv("AWS_REGION"), "us-east-1")}
}

// s3FaultTarget is a fresh dataset prefix on the S3 test server, reached
// directly (direct) and through a fault proxy (faulty).
type s3FaultTarget struct {
	ep, prefix, direct, faulty string
	proxy                      *uploadFaultProxy
}

func newS3FaultTarget(t *testing.T, name string) *s3FaultTarget {
	ep, bucket := os.Getenv("LANCE_TEST_S3_ENDPOINT"), cmp.Or(os.Getenv("LANCE_TEST_S3_BUCKET"), "lance-test")
	if ep == "" {
		t.Skip("LANCE_TEST_S3_ENDPOINT not set (run .ci/objectstores.sh start)")
	}
	srv, proxy := newUploadFaultProxy(t, ep)
	query := func(ep string) string {
		q := url.Values{"endpoint": {ep}, "use_path_style": {"true"}}
		if os.Getenv("AWS_REGION") == "" {
			q.Set("region", "us-east-1")
		}
		return q.Encode()
	}
	prefix := fmt.Sprintf("s3://%s/%s-%d", bucket, name, time.Now().UnixNano())
	return &s3FaultTarget{ep: ep, prefix: prefix, direct: prefix + "?" + query(ep), faulty: prefix + "?" + query(srv.URL), proxy: proxy}
}

// referencedKeys returns the keys under the dataset root that some
// version of it references (data and deletion files), and the versions.
func referencedKeys(t *testing.T, u string) (map[string]bool, []uint64) {
	ctx := context.Background()
	ds, err := OpenDataset(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	vs, err := ds.Versions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	refs := map[string]bool{}
	var versions []uint64
	for _, v := range vs {
		versions = append(versions, v.Version)
		d, err := OpenDataset(ctx, u, WithVersion(v.Version))
		if err != nil {
			t.Fatal(err)
		}
		frags, err := d.Fragments(ctx)
		d.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range frags {
			for _, df := range f.DataFiles {
				refs[path.Join("data", df.Path)] = true
			}
			if f.DeletionFile != "" {
				refs[f.DeletionFile] = true
			}
		}
	}
	return refs, versions
}

// TestDatasetWriteS3UploadFaults writes to a dataset on S3 through a
// proxy that resets connections mid-upload, answers 503, or loses the
// answer to a manifest put the server did commit, on data, transaction,
// deletion file and manifest puts. Faults the retries outlast must leave
// every write committed exactly once; persistent ones must fail with an
// error naming the store fault, commit nothing, and leave only files no
// version references. pylance then reads every version with exactly the
// rows committed.
func TestDatasetWriteS3UploadFaults(t *testing.T) {
	tg := newS3FaultTarget(t, "dswrite-upload-faults")
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	want := map[uint64][]wrow{}

	rdr, all := rowsReader(t, mem, 0, 200, 50)
	// Quick retries (the store's, which pace the SDK's write retries too);
	// every later write goes through the store of this one.
	fast := WithOpenOptions(fileread.WithIOConfig(lanceio.Config{BaseDelay: 5 * time.Millisecond, MaxDelay: 20 * time.Millisecond}))
	ds, err := CreateDataset(ctx, tg.faulty, rdr, WithMaxRowsPerFile(100), fast)
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	want[1] = all

	// Retried through: every data, transaction and manifest put reset
	// mid-body once.
	tg.proxy.set(uploadRule{"data", faultResetMidBody, 1}, uploadRule{"txn", faultResetMidBody, 1}, uploadRule{"manifest", faultResetMidBody, 1})
	rdr, rows := rowsReader(t, mem, 1000, 300, 50)
	ds = faultStep(t, tg.proxy, ds, "append through resets", func(d *Dataset) (*Dataset, error) {
		return d.Append(ctx, rdr, WithMaxRowsPerFile(100))
	}, 2, map[string]int{"data": 3, "txn": 1, "manifest": 1})
	rdr.Release()
	all = append(slices.Clone(all), rows...)
	want[2] = all

	// Data puts answered 503 twice; every manifest put reaches the
	// server but its answer is lost (the SDK's retries meet their own
	// manifest): committed once.
	tg.proxy.set(uploadRule{"data", fault503, 2}, uploadRule{"manifest", faultResetAfter, -1})
	rdr, rows = rowsReader(t, mem, 2000, 50, 50)
	ds = faultStep(t, tg.proxy, ds, "append with lost answers", func(d *Dataset) (*Dataset, error) {
		return d.Append(ctx, rdr)
	}, 3, map[string]int{"data": 2, "manifest": 2})
	rdr.Release()
	all = append(slices.Clone(all), rows...)
	want[3] = all

	// A delete whose deletion file put is reset mid-body, and whose
	// manifest put gets a 503 first.
	tg.proxy.set(uploadRule{"deletion", faultResetMidBody, 1}, uploadRule{"manifest", fault503, 1})
	ds = faultStep(t, tg.proxy, ds, "delete through faults", func(d *Dataset) (*Dataset, error) {
		return d.Delete(ctx, "a >= 1050 AND a < 1100 OR a < 20")
	}, 4, map[string]int{"deletion": 2, "manifest": 1})
	all = slices.DeleteFunc(slices.Clone(all), func(r wrow) bool { return r.A >= 1050 && r.A < 1100 || r.A < 20 })
	want[4] = all

	// Persistent faults: nothing committed, nothing left.
	before := s3Keys(t, tg.direct)
	tg.proxy.set(uploadRule{"data", fault503, -1})
	failStep(t, ds, "append, data puts always 503", lanceio.ErrThrottled, "/data/", func(d *Dataset) error {
		rdr, _ := rowsReader(t, mem, 3000, 100, 50)
		defer rdr.Release()
		_, err := d.Append(ctx, rdr)
		return err
	})
	tg.proxy.set(uploadRule{"manifest", faultResetMidBody, -1})
	failStep(t, ds, "append, manifest puts always reset", lanceio.ErrTransient, "not committed (commit attempts: 2)", func(d *Dataset) error {
		rdr, _ := rowsReader(t, mem, 3000, 100, 50)
		defer rdr.Release()
		_, err := d.Append(ctx, rdr, WithCommitRetries(1))
		return err
	})
	if after := s3Keys(t, tg.direct); !slices.Equal(before, after) {
		t.Fatalf("failed writes left files:\n%v\n%v", before, after)
	}

	// Persistent manifest faults and a cleanup that fails too: the data
	// and transaction files stay, referenced by no version.
	tg.proxy.set(uploadRule{"manifest", fault503, -1}, uploadRule{"delete", fault503, -1})
	failStep(t, ds, "append, manifest and cleanup fail", lanceio.ErrThrottled, "not committed (commit attempts: 1)", func(d *Dataset) error {
		rdr, _ := rowsReader(t, mem, 4000, 100, 50)
		defer rdr.Release()
		_, err := d.Append(ctx, rdr, WithCommitRetries(0), WithMaxRowsPerFile(50))
		return err
	})
	left := s3Keys(t, tg.direct)
	var added []string
	for _, k := range left {
		if !slices.Contains(before, k) {
			added = append(added, path.Dir(k))
		}
	}
	if !slices.Equal(added, []string{"data", "data", "_transactions"}) {
		t.Fatalf("the write whose cleanup failed left %v, want its 2 data files and its transaction file", added)
	}

	// An overwrite whose data put the server stores but whose answer is
	// lost (the retry puts it again), and whose manifest put is reset
	// twice.
	tg.proxy.set(uploadRule{"data", faultResetAfter, 1}, uploadRule{"manifest", faultResetMidBody, 2})
	rdr, rows = rowsReader(t, mem, 5000, 100, 50)
	faultStep(t, tg.proxy, ds, "overwrite through faults", func(d *Dataset) (*Dataset, error) {
		return d.Overwrite(ctx, rdr)
	}, 5, map[string]int{"data": 1, "manifest": 2})
	rdr.Release()
	want[5] = rows

	tg.proxy.set()
	checkFaultVersions(t, tg, want, left, before)
}

// faultStep runs a write through the proxy's faults: it must commit
// version v (once: the dataset has v versions), and the proxy must have
// injected at least the faults named (by request kind).
func faultStep(t *testing.T, p *uploadFaultProxy, ds *Dataset, what string, write func(*Dataset) (*Dataset, error), v uint64, faults map[string]int) *Dataset {
	t.Helper()
	d, err := write(ds)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	t.Cleanup(func() { d.Close() })
	if d.Version() != v {
		t.Fatalf("%s: committed version %d, want %d", what, d.Version(), v)
	}
	vs, err := d.Versions(context.Background())
	if err != nil || len(vs) != int(v) {
		t.Fatalf("%s: versions %v (%v), want %d (a version committed twice?)", what, vs, err, v)
	}
	got := p.faults()
	for kind, n := range faults {
		if got[kind] < n {
			t.Fatalf("%s: faults injected %v, want at least %v", what, got, faults)
		}
	}
	t.Logf("%s: version %d committed through faults %v", what, v, got)
	return d
}

// failStep runs a write that must fail with an error matching class and
// containing text, and commit nothing.
func failStep(t *testing.T, ds *Dataset, what string, class error, text string, write func(*Dataset) error) {
	t.Helper()
	err := write(ds)
	if err == nil {
		t.Fatalf("%s: succeeded", what)
	}
	if !errors.Is(err, class) || !strings.Contains(err.Error(), text) {
		t.Fatalf("%s: %v; want %v and %q in the message", what, err, class, text)
	}
	t.Logf("%s: %v", what, err)
	vs, err := ds.Versions(context.Background())
	if err != nil || len(vs) != int(ds.Version()) {
		t.Fatalf("%s: versions %v (%v) after a failed write, want %d", what, vs, err, ds.Version())
	}
}

// checkFaultVersions checks the dataset after the fault steps: exactly
// the versions of want, each holding its rows for us and for pylance;
// every referenced file exists; the files no version references are the
// data files a failed cleanup left (those of left not in before).
func checkFaultVersions(t *testing.T, tg *s3FaultTarget, want map[uint64][]wrow, left, before []string) {
	ctx := context.Background()
	refs, versions := referencedKeys(t, tg.direct)
	if len(versions) != len(want) {
		t.Fatalf("versions %v, want %d", versions, len(want))
	}
	for v, rows := range want {
		d, err := OpenDataset(ctx, tg.direct, WithVersion(v))
		if err != nil {
			t.Fatal(err)
		}
		got := readRows(t, d)
		d.Close()
		if !slices.Equal(got, sortRows(rows)) {
			t.Fatalf("version %d: we read %d rows, want %d", v, len(got), len(rows))
		}
	}
	keys := s3Keys(t, tg.direct)
	for k := range refs {
		if !slices.Contains(keys, k) {
			t.Fatalf("version references %s, which is not in the bucket", k)
		}
	}
	var garbage, expected []string
	for _, k := range keys {
		if !refs[k] && !strings.HasPrefix(k, "_versions/") && !strings.HasPrefix(k, "_transactions/") {
			garbage = append(garbage, k)
		}
	}
	for _, k := range left {
		if !slices.Contains(before, k) && strings.HasPrefix(k, "data/") {
			expected = append(expected, k)
		}
	}
	if !slices.Equal(garbage, expected) {
		t.Fatalf("unreferenced files %v; want those the failed cleanup left, %v", garbage, expected)
	}
	py := pylanceRunOpts(t, tg.prefix, s3PylanceOptions(tg.ep), "", 0)
	if py == nil {
		t.Log("no LANCE_PY: pylance check skipped")
		return
	}
	if len(py) != len(want) {
		t.Fatalf("pylance reads %d versions, want %d", len(py), len(want))
	}
	for v, rows := range want {
		if !slices.Equal(py[v], sortRows(rows)) {
			t.Fatalf("pylance: version %d has %d rows, want %d", v, len(py[v]), len(rows))
		}
	}
}

// TestDatasetWriteS3MultipartFaults creates a dataset whose data file is
// uploaded in parts (over 16 MiB: the SDK's multipart threshold) with every
// part reset mid-body once and the first answer to the upload's completion
// lost: it is committed once, and pylance reads every row. An append whose
// parts are always reset fails with a transient error naming the data file
// and leaves the bucket as it was.
func TestDatasetWriteS3MultipartFaults(t *testing.T) {
	tg := newS3FaultTarget(t, "dswrite-multipart-faults")
	ctx := context.Background()
	fast := WithOpenOptions(fileread.WithIOConfig(lanceio.Config{BaseDelay: 5 * time.Millisecond, MaxDelay: 20 * time.Millisecond}))
	rdr, rows := bigRowsReader(t, 0, 18_000, 3_000)
	defer rdr.Release()
	tg.proxy.set(uploadRule{"part", faultResetMidBody, 1}, uploadRule{"complete", faultResetAfter, 1})
	ds := faultStep(t, tg.proxy, nil, "multipart create through faults", func(*Dataset) (*Dataset, error) {
		return CreateDataset(ctx, tg.faulty, rdr, fast)
	}, 1, map[string]int{"part": 3, "complete": 1})
	if fr, err := ds.Fragments(ctx); err != nil || len(fr) != 1 || fr[0].DataFiles[0].Size < 16<<20 {
		t.Fatalf("fragments %+v (%v), want one data file over 16 MiB", fr, err)
	}

	before := s3Keys(t, tg.direct)
	tg.proxy.set(uploadRule{"part", faultResetMidBody, -1})
	failStep(t, ds, "multipart append, parts always reset", lanceio.ErrTransient, "/data/", func(d *Dataset) error {
		rdr, _ := bigRowsReader(t, 100_000, 18_000, 3_000)
		defer rdr.Release()
		_, err := d.Append(ctx, rdr)
		return err
	})
	if after := s3Keys(t, tg.direct); !slices.Equal(before, after) {
		t.Fatalf("a failed multipart append left files:\n%v\n%v", before, after)
	}
	tg.proxy.set()
	checkFaultVersions(t, tg, map[uint64][]wrow{1: rows}, nil, nil)
}

// bigRowsReader returns rows [from, from+n) whose strings are 1,000 random base64
// characters (hardly compressible), in batches of batch rows.
func bigRowsReader(t testing.TB, from, n, batch int) (array.RecordReader, []wrow) {
	r := rand.New(rand.NewPCG(11, uint64(n)))
	var recs []arrow.RecordBatch
	var rows []wrow
	buf := make([]byte, 750)
	for off := 0; off < n; off += batch {
		b := array.NewRecordBuilder(memory.DefaultAllocator, writeSchema)
		for i := off; i < min(n, off+batch); i++ {
			for k := range buf {
				buf[k] = byte(r.Uint32())
			}
			w := wrow{int64(from + i), base64.StdEncoding.EncodeToString(buf)}
			b.Field(0).(*array.Int64Builder).Append(w.A)
			b.Field(1).(*array.StringBuilder).Append(w.S)
			rows = append(rows, w)
		}
		recs = append(recs, b.NewRecordBatch())
		b.Release()
	}
	rdr, err := array.NewRecordReader(writeSchema, recs)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		rec.Release()
	}
	return rdr, rows
}
