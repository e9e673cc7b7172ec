package bench

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync"
	"sync/atomic"
	"time"
)

// Proxy is a loopback HTTP reverse proxy in front of an S3-compatible
// server that adds a first-byte latency to every request, caps the total
// response bandwidth (one shared link), and counts requests and response
// bytes. The Host header is passed through unchanged, so SigV4 signatures
// made for the proxy's address verify at the server.
type Proxy struct {
	// Latency is added before each request is forwarded.
	Latency time.Duration
	// BytesPerSec caps the summed response body rate (0: no cap).
	BytesPerSec float64

	// ReportCPU makes each mark report the CPU this process used since
	// the previous one (set when the proxy runs in a process of its own,
	// `lance bench-proxy`, so that it is the proxy's CPU alone).
	ReportCPU bool
	// ServerPID, if > 0, makes each mark report the CPU the S3 server
	// process used since the previous one (Linux /proc).
	ServerPID int

	ln       net.Listener
	srv      *http.Server
	requests atomic.Int64
	bytes    atomic.Int64
	pace     pacer
	marks    markClock
}

// markClock holds the CPU readings of the previous mark.
type markClock struct {
	mu          sync.Mutex
	self, serve time.Duration
}

// StartProxy listens on 127.0.0.1:0 and forwards to upstream (http://host:port).
func StartProxy(upstream string, latency time.Duration, bytesPerSec float64) (*Proxy, error) {
	target, err := url.Parse(upstream)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{Latency: latency, BytesPerSec: bytesPerSec, ln: ln}
	p.pace.bps = bytesPerSec
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.Out.Host = pr.In.Host
		},
		Transport:     &http.Transport{MaxIdleConnsPerHost: 256, MaxConnsPerHost: 0, DisableCompression: true},
		FlushInterval: -1,
	}
	p.srv = &http.Server{Handler: p.handler(rp), ReadHeaderTimeout: 30 * time.Second}
	go p.srv.Serve(ln)
	return p, nil
}

// URL is the proxy's base URL, to use as the S3 endpoint.
func (p *Proxy) URL() string { return "http://" + p.ln.Addr().String() }

// Counts returns requests and response body bytes since the last Mark.
func (p *Proxy) Counts() (requests, bytes int64) { return p.requests.Load(), p.bytes.Load() }

// Close stops the proxy.
func (p *Proxy) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := p.srv.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		return p.srv.Close()
	}
	return err
}

func (p *Proxy) handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == MarkPath {
			p.serveMark(w)
			return
		}
		p.requests.Add(1)
		if p.Latency > 0 {
			t := time.NewTimer(p.Latency)
			select {
			case <-t.C:
			case <-r.Context().Done():
				t.Stop()
				return
			}
		}
		next.ServeHTTP(&countingWriter{ResponseWriter: w, p: p, ctx: r.Context()}, r)
	})
}

// MarkPath is the proxy's own endpoint: a GET returns the counts since
// the previous mark as JSON (MarkCounts) and resets them. Drivers call it
// around the timed part of a run. It is not forwarded or counted.
const MarkPath = "/__lancego_bench/mark"

// MarkCounts is what a mark returns: requests and response bytes since
// the previous mark, and where measured the CPU seconds the proxy process
// and the S3 server used meanwhile.
type MarkCounts struct {
	Requests         int64    `json:"requests"`
	Bytes            int64    `json:"bytes"`
	CPUSeconds       *float64 `json:"cpu_seconds,omitempty"`
	ServerCPUSeconds *float64 `json:"server_cpu_seconds,omitempty"`
}

// Mark returns the counts since the previous mark and starts new ones.
func (p *Proxy) Mark() (MarkCounts, error) {
	m := MarkCounts{Requests: p.requests.Swap(0), Bytes: p.bytes.Swap(0)}
	p.marks.mu.Lock()
	defer p.marks.mu.Unlock()
	if p.ReportCPU {
		now := processCPU()
		m.CPUSeconds = seconds(now - p.marks.self)
		p.marks.self = now
	}
	if now, ok := pidCPU(p.ServerPID); p.ServerPID > 0 && ok {
		m.ServerCPUSeconds = seconds(now - p.marks.serve)
		p.marks.serve = now
	}
	return m, nil
}

func seconds(d time.Duration) *float64 {
	s := d.Seconds()
	return &s
}

func (p *Proxy) serveMark(w http.ResponseWriter) {
	m, _ := p.Mark()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(m)
}

// countingWriter counts and paces response body bytes.
type countingWriter struct {
	http.ResponseWriter
	p   *Proxy
	ctx context.Context
}

// paceChunk is the unit in which response bytes are paced.
const paceChunk = 32 << 10

func (c *countingWriter) Write(b []byte) (int, error) {
	done := 0
	for done < len(b) {
		n := min(paceChunk, len(b)-done)
		if err := c.p.pace.wait(c.ctx, n); err != nil {
			return done, err
		}
		// Counted before the write: once the client has the bytes it may
		// finish and read the counters before Write returns here (an 8 MB
		// scan then counted ~20 KB short).
		c.p.bytes.Add(int64(n))
		m, err := c.ResponseWriter.Write(b[done : done+n])
		c.p.bytes.Add(int64(m - n))
		done += m
		if err != nil {
			return done, err
		}
	}
	return done, nil
}

// Flush forwards flushes so streamed bodies are not held back.
func (c *countingWriter) Flush() {
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// paceBurst is how far the pacer's schedule may lag behind the clock
// before it is reset (the burst a link allows after a slow or idle moment).
const paceBurst = 2 * time.Millisecond

// pacer serializes bytes through one link of bps bytes per second.
type pacer struct {
	mu   sync.Mutex
	next time.Time
	bps  float64
}

func (p *pacer) wait(ctx context.Context, n int) error {
	if p.bps <= 0 {
		return nil
	}
	p.mu.Lock()
	// The schedule is absolute: a sleep that overshoots (timer slack on a
	// busy 2-core machine is often ~1 ms, longer than a 32 KiB chunk takes
	// at 200 MB/s) is made up by the next chunks, within paceBurst; only
	// an idle link resets the schedule to now - paceBurst.
	now := time.Now()
	if floor := now.Add(-paceBurst); p.next.Before(floor) {
		p.next = floor
	}
	p.next = p.next.Add(time.Duration(float64(n) / p.bps * float64(time.Second)))
	until := p.next
	p.mu.Unlock()
	d := time.Until(until)
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
