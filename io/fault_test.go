package lanceio_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	lanceio "github.com/lancego/lancego/io"
	"github.com/lancego/lancego/io/lanceiotest"
)

// fakeS3 is a minimal path-style S3 endpoint (HEAD and ranged GET of
// preloaded objects) so fault tests run without a server.
type fakeS3 struct{ objects map[string][]byte }

func (f *fakeS3) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	data, ok := f.objects[strings.TrimPrefix(r.URL.Path, "/")]
	if !ok {
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(http.StatusNotFound)
		if r.Method != http.MethodHead {
			io.WriteString(w, `<Error><Code>NoSuchKey</Code><Message>no</Message></Error>`)
		}
		return
	}
	w.Header().Set("ETag", `"v1"`)
	w.Header().Set("Last-Modified", time.Unix(1_700_000_000, 0).UTC().Format(http.TimeFormat))
	lo, hi := int64(0), int64(len(data))
	if rg := r.Header.Get("Range"); rg != "" {
		spec := strings.TrimPrefix(rg, "bytes=")
		a, b, _ := strings.Cut(spec, "-")
		if a == "" {
			n, _ := strconv.ParseInt(b, 10, 64)
			lo = max(0, hi-n)
		} else {
			lo, _ = strconv.ParseInt(a, 10, 64)
			if b != "" {
				e, _ := strconv.ParseInt(b, 10, 64)
				hi = min(hi, e+1)
			}
		}
		w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", lo, hi-1, len(data)))
		w.Header().Set("Content-Length", strconv.FormatInt(hi-lo, 10))
		w.WriteHeader(http.StatusPartialContent)
	} else {
		w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	}
	if r.Method == http.MethodGet {
		w.Write(data[lo:hi])
	}
}

type fault int

const (
	pass fault = iota
	slowDown
	serverError
	reset
	truncate
	forbidden
)

// injector is an http.RoundTripper that applies scripted faults to
// successive requests and records their Range headers.
type injector struct {
	base   http.RoundTripper
	mu     sync.Mutex
	script []fault
	ranges []string
	signed []bool // whether each request used a presigned URL
	urls   []string
}

func (in *injector) RoundTrip(r *http.Request) (*http.Response, error) {
	in.mu.Lock()
	f := pass
	if len(in.script) > 0 {
		f, in.script = in.script[0], in.script[1:]
	}
	in.ranges = append(in.ranges, r.Header.Get("Range"))
	in.signed = append(in.signed, r.URL.Query().Has("X-Amz-Signature"))
	in.urls = append(in.urls, r.URL.String())
	in.mu.Unlock()
	switch f {
	case slowDown:
		return xmlResponse(r, http.StatusServiceUnavailable, "SlowDown"), nil
	case serverError:
		return xmlResponse(r, http.StatusInternalServerError, "InternalError"), nil
	case forbidden:
		return xmlResponse(r, http.StatusForbidden, "AccessDenied"), nil
	case reset:
		return nil, &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}
	}
	resp, err := in.base.RoundTrip(r)
	if err == nil && f == truncate {
		resp.Body = &cutBody{rc: resp.Body, left: 1000}
	}
	return resp, err
}

func xmlResponse(r *http.Request, code int, s3code string) *http.Response {
	body := fmt.Sprintf(`<Error><Code>%s</Code><Message>x</Message></Error>`, s3code)
	return &http.Response{StatusCode: code, Status: http.StatusText(code), Request: r, Proto: "HTTP/1.1",
		ProtoMajor: 1, ProtoMinor: 1, ContentLength: int64(len(body)),
		Header: http.Header{"Content-Type": {"application/xml"}}, Body: io.NopCloser(strings.NewReader(body))}
}

// cutBody ends the body with io.ErrUnexpectedEOF after left bytes.
type cutBody struct {
	rc   io.ReadCloser
	left int
}

func (c *cutBody) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, io.ErrUnexpectedEOF
	}
	n, err := c.rc.Read(p[:min(len(p), c.left)])
	c.left -= n
	return n, err
}
func (c *cutBody) Close() error { return c.rc.Close() }

func faultStore(t *testing.T) (*lanceio.Store, *injector, []byte) {
	return faultStoreOn(t, "", true)
}

// faultStoreOn returns a store whose HTTP requests pass through an
// injector, holding key "obj": on the in-process fake S3 when endpoint is
// "", else on the real server at endpoint (bucket LANCE_TEST_S3_BUCKET).
// Its reads use presigned URLs if signed.
func faultStoreOn(t *testing.T, endpoint string, signed bool) (*lanceio.Store, *injector, []byte) {
	data := lanceiotest.Data(42, 100_000)
	in := &injector{base: http.DefaultTransport}
	cfg := lanceio.Config{HTTPClient: &http.Client{Transport: in}, BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond,
		NoSignedReads: !signed}
	if endpoint != "" {
		u := s3URL(t)
		prefix := fmt.Sprintf("/faults-%d", time.Now().UnixNano())
		i := strings.Index(u, "?")
		s := openStore(t, u[:i]+prefix+u[i:], cfg)
		w, err := s.Create(context.Background(), "obj")
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Delete(context.Background(), "obj") })
		return s, in, data
	}
	srv := httptest.NewServer(&fakeS3{objects: map[string][]byte{"b/obj": data}})
	t.Cleanup(srv.Close)
	t.Setenv("AWS_ACCESS_KEY_ID", "k")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "s")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	s := openStore(t, "s3://b?region=us-east-1&use_path_style=true&endpoint="+srv.URL, cfg)
	return s, in, data
}

func TestRetryFaults(t *testing.T) {
	for _, signed := range []bool{true, false} {
		t.Run(fmt.Sprintf("signed=%v", signed), func(t *testing.T) { testRetryFaults(t, "", signed) })
	}
}

// TestRetryFaultsS3 runs the fault script against the real S3 server.
func TestRetryFaultsS3(t *testing.T) {
	s3URL(t) // skips without a server
	for _, signed := range []bool{true, false} {
		t.Run(fmt.Sprintf("signed=%v", signed), func(t *testing.T) {
			testRetryFaults(t, os.Getenv("LANCE_TEST_S3_ENDPOINT"), signed)
		})
	}
}

type faultCase struct {
	name     string
	script   []fault
	class    error // nil: success
	requests int64
}

// faultCases are the fault scripts of a store reading through presigned
// URLs (signed) or the SDK. A refused presigned read is repeated through
// the SDK, which reports the permission error if there is one.
func faultCases(signed bool) []faultCase {
	cases := []faultCase{
		{"503 then ok", []fault{slowDown}, nil, 2},
		{"500 then ok", []fault{serverError}, nil, 2},
		{"reset then ok", []fault{reset}, nil, 2},
		{"truncated then resumed", []fault{truncate}, nil, 2},
		{"503 forever", []fault{slowDown, slowDown, slowDown, slowDown}, lanceio.ErrThrottled, 4},
		{"truncated forever", []fault{truncate, truncate, truncate, truncate}, lanceio.ErrShortRead, 4},
	}
	if signed {
		return append(cases,
			faultCase{"403 then through the SDK", []fault{forbidden}, nil, 2},
			faultCase{"403 through the SDK too, not retried", []fault{forbidden, forbidden}, lanceio.ErrPermission, 2})
	}
	return append(cases, faultCase{"403 not retried", []fault{forbidden}, lanceio.ErrPermission, 1})
}

func testRetryFaults(t *testing.T, endpoint string, signed bool) {
	for _, c := range faultCases(signed) {
		t.Run(c.name, func(t *testing.T) {
			s, in, data := faultStoreOn(t, endpoint, signed)
			o, err := s.Open(context.Background(), "obj")
			if err != nil {
				t.Fatal(err)
			}
			in.mu.Lock()
			in.script, in.ranges = c.script, nil
			in.mu.Unlock()
			before := s.Stats()
			buf := make([]byte, 50_000)
			err = o.ReadAt(context.Background(), buf, 10_000)
			got := s.Stats().Requests - before.Requests
			if c.class == nil && (err != nil || !bytes.Equal(buf, data[10_000:60_000])) {
				t.Fatalf("ReadAt = %v (ranges %q)", err, in.ranges)
			}
			if c.class != nil && !errors.Is(err, c.class) {
				t.Fatalf("ReadAt = %v, want %v", err, c.class)
			}
			if got != c.requests {
				t.Fatalf("requests = %d, want %d (ranges %q)", got, c.requests, in.ranges)
			}
			if c.name == "truncated then resumed" && in.ranges[1] != "bytes=11000-59999" {
				t.Fatalf("resume range = %q, want the remainder", in.ranges[1])
			}
		})
	}
}

func TestOpenTailOneRequestAndNotFound(t *testing.T) {
	s, in, data := faultStore(t)
	o, tail, err := s.OpenTail(context.Background(), "obj", 4096)
	if err != nil || o.Size() != int64(len(data)) || !bytes.Equal(tail, data[len(data)-4096:]) {
		t.Fatalf("OpenTail: %v", err)
	}
	if len(in.ranges) != 1 || in.ranges[0] != "bytes=-4096" {
		t.Fatalf("requests = %q, want one suffix range", in.ranges)
	}
	if o.Identity().ETag != `"v1"` {
		t.Fatalf("identity = %+v", o.Identity())
	}
	if _, err := s.Open(context.Background(), "missing"); !errors.Is(err, lanceio.ErrNotFound) {
		t.Fatalf("Open(missing) = %v", err)
	}
}

func TestCancelDuringBackoff(t *testing.T) {
	s, in, _ := faultStore(t)
	o, err := s.Open(context.Background(), "obj")
	if err != nil {
		t.Fatal(err)
	}
	in.script = []fault{slowDown, slowDown, slowDown}
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	err = o.ReadAt(ctx, make([]byte, 10), 0)
	if !errors.Is(err, lanceio.ErrCanceled) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
}

func TestURLs(t *testing.T) {
	for _, c := range [][3]string{
		{"s3://b/a/c.lance?endpoint=x", "s3://b/a?endpoint=x", "c.lance"},
		{"s3://b/c.lance", "s3://b", "c.lance"},
		{"file:///tmp/d/f", "file:///tmp/d", "f"},
	} {
		st, k, err := lanceio.SplitURL(c[0])
		if err != nil || st != c[1] || k != c[2] {
			t.Errorf("SplitURL(%s) = %s, %s, %v", c[0], st, k, err)
		}
	}
	if _, err := lanceio.Open(context.Background(), "ftp://x/y", lanceio.Config{}); !errors.Is(err, lanceio.ErrUnsupported) {
		t.Errorf("ftp: %v", err)
	}
	dir := t.TempDir()
	w, err := lanceio.Create(context.Background(), dir+"/x/y.bin", lanceio.Config{})
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("hello"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	o, tail, err := lanceio.OpenTail(context.Background(), "file://"+dir+"/x/y.bin", 3, lanceio.Config{})
	if err != nil || string(tail) != "llo" {
		t.Fatalf("OpenTail = %q, %v", tail, err)
	}
	o.Close()
}
