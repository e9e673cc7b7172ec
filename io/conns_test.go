package lanceio_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"testing"

	lanceio "github.com/lancego/lancego/io"
)

// countingForwarder accepts TCP connections on loopback and pipes each to
// target, counting the connections it accepted.
type countingForwarder struct {
	ln       net.Listener
	accepted atomic.Int64
	wg       sync.WaitGroup
	mu       sync.Mutex
	conns    []net.Conn // closed at cleanup: idle keep-alive connections never end
}

func startForwarder(t *testing.T, target string) *countingForwarder {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &countingForwarder{ln: ln}
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			f.accepted.Add(1)
			f.mu.Lock()
			f.conns = append(f.conns, c)
			f.mu.Unlock()
			f.wg.Add(1)
			go func() { defer f.wg.Done(); f.pipe(c, target) }()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		f.mu.Lock()
		for _, c := range f.conns {
			c.Close()
		}
		f.mu.Unlock()
		f.wg.Wait()
	})
	return f
}

func (f *countingForwarder) pipe(c net.Conn, target string) {
	defer c.Close()
	up, err := net.Dial("tcp", target)
	if err != nil {
		return
	}
	defer up.Close()
	done := make(chan struct{})
	go func() { io.Copy(up, c); up.(*net.TCPConn).CloseWrite(); close(done) }()
	io.Copy(c, up)
	c.Close()
	<-done
}

// TestS3ReusesConnectionsAcrossBursts reads 64 ranges at once twice
// through S3: the second burst must run on the first one's connections
// (an HTTP client keeping only a few idle connections per host closes the
// rest and dials again, a TCP and on real S3 a TLS handshake per read).
func TestS3ReusesConnectionsAcrossBursts(t *testing.T) {
	u, _ := url.Parse(s3URL(t))
	ep, _ := url.Parse(u.Query().Get("endpoint"))
	fw := startForwarder(t, ep.Host)
	q := u.Query()
	q.Set("endpoint", "http://"+fw.ln.Addr().String())
	u.RawQuery = q.Encode()
	checkConnectionReuse(t, u.String(), fw)
}

// TestGCSReusesConnectionsAcrossBursts is the same through the GCS
// emulator (gocloud's own opener kept 2 idle connections per host). The
// emulator routes by Host, so an HTTP proxy that sets the emulator's Host
// counts the client's connections here.
func TestGCSReusesConnectionsAcrossBursts(t *testing.T) {
	raw := gcsURL(t)
	host := os.Getenv("STORAGE_EMULATOR_HOST")
	if host == "" {
		t.Skip("needs the GCS emulator (STORAGE_EMULATOR_HOST)")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fw := &countingForwarder{ln: ln}
	target := &url.URL{Scheme: "http", Host: host}
	srv := &http.Server{
		Handler: &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) { pr.SetURL(target) }},
		ConnState: func(_ net.Conn, st http.ConnState) {
			if st == http.StateNew {
				fw.accepted.Add(1)
			}
		},
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	t.Setenv("STORAGE_EMULATOR_HOST", ln.Addr().String())
	checkConnectionReuse(t, raw, fw)
}

// checkConnectionReuse writes an object through storeURL, reads 64
// ranges of it at once twice, and fails if the second burst opened more
// than a few new connections through fw.
func checkConnectionReuse(t *testing.T, storeURL string, fw *countingForwarder) {
	ctx := context.Background()
	s := openStore(t, storeURL, lanceio.Config{})
	w, err := s.Create(ctx, "conns/object")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(make([]byte, 64<<10)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	obj, err := s.Open(ctx, "conns/object")
	if err != nil {
		t.Fatal(err)
	}
	defer obj.Close()
	const readers = 64
	burst := func() {
		var wg sync.WaitGroup
		for i := range readers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := obj.ReadAt(ctx, make([]byte, 1000), int64(i)*1000); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
	}
	burst()
	first := fw.accepted.Load()
	// A later burst may overlap more reads than the first did (on a loaded
	// machine goroutines start unevenly) and so open a few connections the
	// pool never had. Those are kept too, so one of the next bursts opens
	// almost none; a pool that drops idle connections (gocloud's 2 per host)
	// opens about as many again in every burst.
	var opened []int64
	for range 3 {
		before := fw.accepted.Load()
		burst()
		again := fw.accepted.Load() - before
		if again <= readers/8 {
			return
		}
		opened = append(opened, again)
	}
	t.Fatalf("each later burst of %d reads opened new connections: %v (first burst: %d in all)", readers, opened, first)
}
