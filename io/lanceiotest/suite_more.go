package lanceiotest

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"testing"

	lanceio "github.com/lancego/lancego/io"
)

func (s *suite) testOpenTail(t *testing.T) {
	ctx := context.Background()
	data := Data(4, 200_000)
	key := s.put(t, "tail", data)
	for _, n := range []int64{1, 65536, 150_000, 200_000, 1 << 20} {
		before := s.h.Store.Stats().Requests
		o, tail, err := s.h.Store.OpenTail(ctx, key, n)
		if err != nil {
			t.Fatalf("OpenTail(%d): %v", n, err)
		}
		reqs := s.h.Store.Stats().Requests - before
		want := data[len(data)-int(min(n, int64(len(data)))):]
		if o.Size() != int64(len(data)) || !bytes.Equal(tail, want) {
			t.Errorf("OpenTail(%d): size %d, %d tail bytes; want %d, %d", n, o.Size(), len(tail), len(data), len(want))
		}
		if s.h.OneRequestTail && reqs != 1 {
			t.Errorf("OpenTail(%d) cost %d requests, want 1", n, reqs)
		}
		if s.h.SmallTailOneRequest {
			if limit := smallTailRequests(n, len(data)); reqs > limit {
				t.Errorf("OpenTail(%d) of %d bytes cost %d requests, want at most %d", n, len(data), reqs, limit)
			}
		}
		mustRead(t, o, data, 17, 1000)
		_ = o.Close()
	}
	o, tail, err := s.h.Store.OpenTail(ctx, s.put(t, "empty", nil), 1024)
	if err != nil || o.Size() != 0 || len(tail) != 0 {
		t.Fatalf("OpenTail(empty) = size %v, %d bytes, %v", o, len(tail), err)
	}
	_ = o.Close()
}

// smallTailRequests is what OpenTail(n) of a size-byte object may cost
// when it reads the head: one request when that is the whole object.
func smallTailRequests(n int64, size int) int64 {
	if n >= int64(size) {
		return 1
	}
	return 2
}

func (s *suite) testIdentityStable(t *testing.T) {
	key := s.put(t, "identity", Data(5, 5000))
	a := s.open(t, key)
	b, _, err := s.h.Store.OpenTail(context.Background(), key, 100)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if a.Identity() != b.Identity() {
		t.Errorf("Identity differs between Open and OpenTail:\n %+v\n %+v", a.Identity(), b.Identity())
	}
	if a.Identity().Size != 5000 || a.Identity().URL != s.h.Store.URL(key) {
		t.Errorf("Identity = %+v", a.Identity())
	}
}

func (s *suite) testConcurrentReaders(t *testing.T) {
	data := Data(6, 1<<20)
	o := s.open(t, s.put(t, "concurrent", data))
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := range 16 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(g), 7))
			for range 20 {
				off := r.Int64N(int64(len(data)))
				n := r.Int64N(min(int64(len(data))-off, 100_000) + 1)
				got := make([]byte, n)
				if err := o.ReadAt(context.Background(), got, off); err != nil {
					errs <- err
					return
				}
				if !bytes.Equal(got, data[off:off+n]) {
					errs <- errors.New("concurrent read returned wrong bytes")
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func (s *suite) testCanceled(t *testing.T) {
	o := s.open(t, s.put(t, "cancel", Data(7, 1000)))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := o.ReadAt(ctx, make([]byte, 10), 0)
	if !errors.Is(err, lanceio.ErrCanceled) || !errors.Is(err, context.Canceled) {
		t.Errorf("ReadAt(canceled) = %v, want ErrCanceled and context.Canceled", err)
	}
	if _, err := s.h.Store.Open(ctx, s.prefix+"/cancel"); !errors.Is(err, lanceio.ErrCanceled) {
		t.Errorf("Open(canceled) = %v, want ErrCanceled", err)
	}
}

func (s *suite) testClosed(t *testing.T) {
	o := s.open(t, s.put(t, "closed", Data(8, 100)))
	_ = o.Close()
	if err := o.ReadAt(context.Background(), make([]byte, 1), 0); !errors.Is(err, lanceio.ErrClosed) {
		t.Errorf("ReadAt after Close = %v, want ErrClosed", err)
	}
}

func (s *suite) testWriterAtomic(t *testing.T) {
	ctx := context.Background()
	st := s.h.Store
	abortKey, cancelKey := s.prefix+"/aborted", s.prefix+"/canceled"
	w, err := st.Create(ctx, abortKey)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = w.Write(Data(9, 1000))
	if err := w.Abort(); err != nil {
		t.Fatalf("Abort: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	w, err = st.Create(cctx, cancelKey)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = w.Write(Data(9, 1000))
	cancel()
	if err := w.Close(); err == nil {
		t.Errorf("Close after cancel succeeded, want an error")
	}
	for _, k := range []string{abortKey, cancelKey} {
		if _, err := st.Open(ctx, k); !errors.Is(err, lanceio.ErrNotFound) {
			t.Errorf("Open(%s) = %v, want ErrNotFound", k, err)
		}
	}
}

func (s *suite) testLargeObject(t *testing.T) {
	data := Data(10, 11<<20) // crosses 5 MiB multipart boundaries
	o := s.open(t, s.put(t, "large", data))
	mustRead(t, o, data, 5<<20-100, 200)
	mustRead(t, o, data, 0, int64(len(data)))
}

func (s *suite) testChangedAfterOpen(t *testing.T) {
	if !s.h.DetectsChange {
		t.Skip("backend does not pin the opened version")
	}
	key := s.put(t, "changed", Data(11, 4000))
	o := s.open(t, key)
	s.put(t, "changed", Data(12, 4000))
	err := o.ReadAt(context.Background(), make([]byte, 100), 0)
	if !errors.Is(err, lanceio.ErrChanged) {
		t.Fatalf("read after replace = %v, want ErrChanged", err)
	}
}
