package lanceio_test

import (
	"context"
	"io"
	"net"
	"net/url"
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

// TestS3ReusesConnectionsAcrossBursts reads 64 ranges at once twice: the
// second burst must run on the first one's connections (an HTTP client
// keeping only a few idle connections per host closes the rest and dials
// again, a TCP and on real S3 a TLS handshake per read).
func TestS3ReusesConnectionsAcrossBursts(t *testing.T) {
	raw := s3URL(t)
	u, _ := url.Parse(raw)
	ep, _ := url.Parse(u.Query().Get("endpoint"))
	fw := startForwarder(t, ep.Host)
	q := u.Query()
	q.Set("endpoint", "http://"+fw.ln.Addr().String())
	u.RawQuery = q.Encode()
	ctx := context.Background()
	s := openStore(t, u.String(), lanceio.Config{})
	w, err := s.Create(ctx, "conns/object")
	if err != nil {
		t.Fatal(err)
	}
	data := make([]byte, 64<<10)
	if _, err := w.Write(data); err != nil {
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
	burst()
	if again := fw.accepted.Load() - first; again > readers/8 {
		t.Fatalf("second burst of %d reads opened %d new connections (first burst: %d in all)", readers, again, first)
	}
}
