// Package lanceiotest is the one conformance suite every lanceio backend
// must pass (local files, memory, S3, GCS, Azure).
package lanceiotest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	lanceio "github.com/lancego/lancego/io"
)

// Harness describes the backend under test.
type Harness struct {
	// Store is the store under test (required). The suite writes keys
	// below a unique prefix and deletes them afterwards.
	Store *lanceio.Store
	// Put, if set, seeds objects out of band (e.g. by copying into the
	// server's data directory); by default the suite uses Store.Create.
	Put func(t *testing.T, key string, data []byte)
	// OneRequestTail requires OpenTail to cost exactly one request (S3, GCS,
	// and local/mem where Open itself is free).
	OneRequestTail bool
	// SmallTailOneRequest requires OpenTail(n) of an object of at most n
	// bytes to cost one request and of a larger one at most two (Azure,
	// which reads the head since it cannot ask for a suffix).
	SmallTailOneRequest bool
	// DetectsChange requires reads of an object replaced after Open to fail
	// with ErrChanged (S3 with ETags, GCS); otherwise the check is skipped.
	DetectsChange bool
}

// RunObjectSuite runs the conformance tests as subtests of t.
func RunObjectSuite(t *testing.T, h Harness) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent(),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).writeLoop"),
		goleak.IgnoreAnyFunction("internal/poll.runtime_pollWait"))
	s := &suite{h: h, prefix: fmt.Sprintf("lanceiotest-%d-%d", time.Now().UnixNano(), rand.Uint32())}
	t.Cleanup(func() { s.cleanup(t) })
	t.Run("ExactBytes", s.testExactBytes)
	t.Run("RangesAtEnds", s.testRangesAtEnds)
	t.Run("OutOfRange", s.testOutOfRange)
	t.Run("NotFound", s.testNotFound)
	t.Run("OpenTail", s.testOpenTail)
	t.Run("IdentityStable", s.testIdentityStable)
	t.Run("ConcurrentReaders", s.testConcurrentReaders)
	t.Run("Canceled", s.testCanceled)
	t.Run("Closed", s.testClosed)
	t.Run("WriterAtomic", s.testWriterAtomic)
	t.Run("LargeObject", s.testLargeObject)
	t.Run("ChangedAfterOpen", s.testChangedAfterOpen)
	t.Run("Views", s.testViews)
	t.Run("List", s.testList)
	t.Run("ListAll", s.testListAll)
}

type suite struct {
	h      Harness
	prefix string
	mu     sync.Mutex
	keys   []string
}

// Data returns n deterministic pseudo-random bytes for seed.
func Data(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func (s *suite) put(t *testing.T, name string, data []byte) string {
	t.Helper()
	key := s.prefix + "/" + name
	s.mu.Lock()
	s.keys = append(s.keys, key)
	s.mu.Unlock()
	if s.h.Put != nil {
		s.h.Put(t, key, data)
		return key
	}
	w, err := s.h.Store.Create(context.Background(), key)
	if err != nil {
		t.Fatalf("create %s: %v", key, err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatalf("write %s: %v", key, err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("commit %s: %v", key, err)
	}
	return key
}

func (s *suite) cleanup(t *testing.T) {
	for _, k := range s.keys {
		if err := s.h.Store.Delete(context.Background(), k); err != nil && !errors.Is(err, lanceio.ErrNotFound) {
			t.Logf("cleanup %s: %v", k, err)
		}
	}
}

func (s *suite) open(t *testing.T, key string) lanceio.Object {
	t.Helper()
	o, err := s.h.Store.Open(context.Background(), key)
	if err != nil {
		t.Fatalf("open %s: %v", key, err)
	}
	t.Cleanup(func() { _ = o.Close() })
	return o
}

func mustRead(t *testing.T, o lanceio.Object, want []byte, off, n int64) {
	t.Helper()
	got := make([]byte, n)
	if err := o.ReadAt(context.Background(), got, off); err != nil {
		t.Fatalf("ReadAt(%d, %d): %v", off, n, err)
	}
	if !bytes.Equal(got, want[off:off+n]) {
		t.Fatalf("ReadAt(%d, %d): bytes differ", off, n)
	}
}

func (s *suite) testExactBytes(t *testing.T) {
	data := Data(1, 300_000)
	o := s.open(t, s.put(t, "exact", data))
	if o.Size() != int64(len(data)) {
		t.Fatalf("Size = %d, want %d", o.Size(), len(data))
	}
	mustRead(t, o, data, 0, int64(len(data)))
	for _, r := range [][2]int64{{0, 1}, {1, 4095}, {4096, 65536}, {123_457, 100_001}, {299_000, 1000}} {
		mustRead(t, o, data, r[0], r[1])
	}
}

func (s *suite) testRangesAtEnds(t *testing.T) {
	data := Data(2, 10_000)
	o := s.open(t, s.put(t, "ends", data))
	mustRead(t, o, data, 0, 1)
	mustRead(t, o, data, 9_999, 1)
	mustRead(t, o, data, 9_900, 100)
	if err := o.ReadAt(context.Background(), nil, o.Size()); err != nil {
		t.Fatalf("empty read at Size: %v", err)
	}
}

func (s *suite) testOutOfRange(t *testing.T) {
	o := s.open(t, s.put(t, "oor", Data(3, 1000)))
	before := s.h.Store.Stats().Requests
	for _, r := range [][2]int64{{-1, 1}, {1000, 1}, {999, 2}, {0, 1001}, {5000, 10}} {
		err := o.ReadAt(context.Background(), make([]byte, r[1]), r[0])
		if !errors.Is(err, lanceio.ErrOutOfRange) {
			t.Errorf("ReadAt(%d, %d) = %v, want ErrOutOfRange", r[0], r[1], err)
		}
	}
	if after := s.h.Store.Stats().Requests; after != before {
		t.Errorf("out-of-range reads issued %d requests, want 0", after-before)
	}
}

func (s *suite) testNotFound(t *testing.T) {
	ctx := context.Background()
	_, err := s.h.Store.Open(ctx, s.prefix+"/missing")
	if !errors.Is(err, lanceio.ErrNotFound) {
		t.Errorf("Open missing = %v, want ErrNotFound", err)
	}
	_, _, err = s.h.Store.OpenTail(ctx, s.prefix+"/missing", 1024)
	if !errors.Is(err, lanceio.ErrNotFound) {
		t.Errorf("OpenTail missing = %v, want ErrNotFound", err)
	}
}
