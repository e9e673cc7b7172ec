package integration

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	lance "github.com/lancego/lancego"
	lanceio "github.com/lancego/lancego/io"
	"go.uber.org/goleak"
)

// faults is an http.RoundTripper that injects failures into object-store
// traffic: throttling (503 SlowDown), connection resets, truncated bodies
// and added latency, each on a fixed schedule of request numbers.
type faults struct {
	next                       http.RoundTripper
	n                          atomic.Int64
	every503, everyReset       int64 // fail request k when k % every == 0
	everyTruncate              int64
	always503                  bool
	latency                    time.Duration
	bytesPerSec                int64 // caps each response body's rate when > 0
	requests, injected, served atomic.Int64
}

func (f *faults) RoundTrip(r *http.Request) (*http.Response, error) {
	k := f.n.Add(1)
	f.requests.Add(1)
	if f.latency > 0 {
		select {
		case <-time.After(f.latency):
		case <-r.Context().Done():
			return nil, r.Context().Err()
		}
	}
	switch {
	case f.always503 || f.every503 > 0 && k%f.every503 == 0:
		f.injected.Add(1)
		return slowDown(r), nil
	case f.everyReset > 0 && k%f.everyReset == 0:
		f.injected.Add(1)
		return nil, &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}
	}
	resp, err := f.next.RoundTrip(r)
	if err == nil && f.everyTruncate > 0 && k%f.everyTruncate == 0 && resp.ContentLength > 1 {
		f.injected.Add(1)
		resp.Body = &cutBody{rc: resp.Body, left: resp.ContentLength / 2}
	}
	if err == nil && f.bytesPerSec > 0 {
		resp.Body = &slowBody{rc: resp.Body, rate: f.bytesPerSec, start: time.Now()}
	}
	f.served.Add(1)
	return resp, err
}

// slowBody delivers a body no faster than rate bytes per second.
type slowBody struct {
	rc    io.ReadCloser
	rate  int64
	start time.Time
	n     int64
}

func (s *slowBody) Read(p []byte) (int, error) {
	if len(p) > 4096 {
		p = p[:4096]
	}
	n, err := s.rc.Read(p)
	s.n += int64(n)
	due := s.start.Add(time.Duration(s.n * int64(time.Second) / s.rate))
	time.Sleep(time.Until(due))
	return n, err
}

func (s *slowBody) Close() error { return s.rc.Close() }

func slowDown(r *http.Request) *http.Response {
	body := `<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>`
	return &http.Response{StatusCode: http.StatusServiceUnavailable, Status: "503 Slow Down", Proto: "HTTP/1.1",
		ProtoMajor: 1, ProtoMinor: 1, Header: http.Header{"Content-Type": {"application/xml"}},
		Body: io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body)), Request: r}
}

// cutBody ends a response body early, as a dropped connection does.
type cutBody struct {
	rc   io.ReadCloser
	left int64
}

func (c *cutBody) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, io.ErrUnexpectedEOF
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.rc.Read(p)
	c.left -= int64(n)
	return n, err
}

func (c *cutBody) Close() error { return c.rc.Close() }

func faultyIO(f *faults, attempts int) lance.Option {
	f.next = http.DefaultTransport.(*http.Transport).Clone()
	return lance.WithIOConfig(lanceio.Config{
		HTTPClient: &http.Client{Transport: f}, MaxAttempts: attempts,
		BaseDelay: time.Millisecond, MaxDelay: 20 * time.Millisecond,
	})
}

// TestS3ExactUnderFaults reads files through a transport that throttles,
// resets and truncates a share of requests: values stay exact and the
// retries are counted.
func TestS3ExactUnderFaults(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreTopFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"), goleak.IgnoreTopFunction("internal/poll.runtime_pollWait"))
	base := s3Base(t)
	files := corpusFiles(t)[:12]
	urls := upload(t, base, "faults", files)
	ctx := context.Background()
	inj := &faults{every503: 3, everyReset: 5, everyTruncate: 4, latency: time.Millisecond}
	var retries int64
	for i, path := range files {
		remote, err := lance.Open(ctx, urls[i], faultyIO(inj, 8), lance.WithTailSize(4096), lance.WithSmallPageSize(0))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		local, err := lance.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		compareScans(t, scanAll(t, local), scanAll(t, remote))
		compareTakes(t, local, remote)
		retries += remote.Stats().Retries
		remote.Close()
		local.Close()
	}
	if inj.injected.Load() == 0 || retries == 0 {
		t.Fatalf("no faults injected (%d) or no retries counted (%d)", inj.injected.Load(), retries)
	}
	t.Logf("%d requests, %d faults injected, %d retries", inj.requests.Load(), inj.injected.Load(), retries)
}

// TestS3RetriesExhausted: a server that always throttles gives a clear,
// classified error after the configured attempts.
func TestS3RetriesExhausted(t *testing.T) {
	base := s3Base(t)
	url := upload(t, base, "exhaust", corpusFiles(t)[:1])[0]
	inj := &faults{always503: true}
	_, err := lance.Open(context.Background(), url, faultyIO(inj, 3))
	if err == nil {
		t.Fatal("open succeeded against a server that always throttles")
	}
	if !errors.Is(err, lanceio.ErrThrottled) {
		t.Errorf("error %v is not ErrThrottled", err)
	}
	if got := inj.requests.Load(); got != 3 {
		t.Errorf("%d attempts, want 3", got)
	}
	if !strings.Contains(err.Error(), "lance") {
		t.Errorf("error does not say what failed: %v", err)
	}
}

// TestS3CancelStopsPromptly cancels a read stuck behind a slow server.
func TestS3CancelStopsPromptly(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreTopFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"), goleak.IgnoreTopFunction("internal/poll.runtime_pollWait"))
	base := s3Base(t)
	url := upload(t, base, "cancel", corpusFiles(t)[:1])[0]
	inj := &faults{}
	f, err := lance.Open(context.Background(), url, faultyIO(inj, 4), lance.WithTailSize(4096), lance.WithSmallPageSize(0))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	inj.latency = 5 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	var rec arrow.RecordBatch
	rec, err = f.Take(ctx, []uint64{0}, nil)
	if err == nil {
		rec.Release()
		t.Fatal("take finished despite a 5 s server delay")
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("cancel took %v", el)
	}
	if !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, lanceio.ErrCanceled) {
		t.Errorf("error %v is not a cancellation", err)
	}
}

// TestS3ExactUnderBandwidthCap reads through a slow link (latency and a
// bandwidth cap): values stay exact.
func TestS3ExactUnderBandwidthCap(t *testing.T) {
	base := s3Base(t)
	files := corpusFiles(t)[:4]
	urls := upload(t, base, "bandwidth", files)
	inj := &faults{latency: 5 * time.Millisecond, bytesPerSec: 4 << 20}
	ctx := context.Background()
	for i, path := range files {
		remote, err := lance.Open(ctx, urls[i], faultyIO(inj, 4))
		if err != nil {
			t.Fatal(err)
		}
		local, err := lance.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		compareScans(t, scanAll(t, local), scanAll(t, remote))
		remote.Close()
		local.Close()
	}
}
