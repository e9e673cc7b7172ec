package scheduler

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	lanceio "github.com/lancego/lancego/io"
)

// halfObject fills a read, reports its first half as arrived, then holds
// the rest until rest is closed (or fails with err instead when set).
type halfObject struct {
	size int64
	half chan struct{} // closed when a long read has reported its half
	rest chan struct{}
	err  error
}

func (o *halfObject) ReadAt(ctx context.Context, p []byte, off int64) error {
	fill(p, off)
	notify := lanceio.ReadProgressOf(ctx)
	if notify == nil {
		return nil
	}
	notify(len(p) / 2)
	close(o.half)
	select {
	case <-o.rest:
	case <-ctx.Done():
		return ctx.Err()
	}
	if o.err != nil {
		return o.err
	}
	notify(len(p))
	return nil
}
func (o *halfObject) Size() int64                { return o.size }
func (o *halfObject) Identity() lanceio.Identity { return lanceio.Identity{URL: "half", Size: o.size} }
func (o *halfObject) Close() error               { return nil }

func newHalfObject() *halfObject {
	return &halfObject{size: 64 << 20, half: make(chan struct{}), rest: make(chan struct{})}
}

// TestWaitPrefix: a range's first bytes are handed over while the rest of
// its read runs, a later range of the same read only once it is in, and
// Close ends the request (goleak checks its goroutine is gone).
func TestWaitPrefix(t *testing.T) {
	ctx := context.Background()
	obj := newHalfObject()
	s := New(ObjectStoreConfig(nil))
	defer s.Close()
	first, second := Range{Off: 1000, Len: 1 << 20}, Range{Off: 1000 + 1<<20, Len: 1 << 20}
	p, err := s.Submit(ctx, obj, []Range{first, second}, 0) // one read of 2 MiB
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.WaitPrefix(ctx, 0, first.Len) // in the reported half
	if err != nil {
		t.Fatal(err)
	}
	want := make([]byte, first.Len)
	fill(want, first.Off)
	if !bytes.Equal(b, want) {
		t.Fatal("first range: wrong bytes")
	}
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	_, err = p.WaitPrefix(short, 1, 1) // beyond the half: must wait
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("second range before its bytes: %v, want a deadline", err)
	}
	close(obj.rest)
	if b, err = p.WaitPrefix(ctx, 1, second.Len); err != nil {
		t.Fatal(err)
	}
	check(t, [][]byte{b}, []Range{second})
	p.Close(false)
	if st := s.Stats(); st.BytesUsed != first.Len+second.Len {
		t.Errorf("bytes used %d, want %d (each range once)", st.BytesUsed, first.Len+second.Len)
	}
}

// TestWaitPrefixError: bytes reported before a read fails are delivered;
// bytes after it give the read's error; Close after the failure is clean.
func TestWaitPrefixError(t *testing.T) {
	ctx := context.Background()
	obj := newHalfObject()
	obj.err = errBoom
	s := New(ObjectStoreConfig(nil))
	defer s.Close()
	p, err := s.Submit(ctx, obj, []Range{{Off: 0, Len: 4 << 20}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.WaitPrefix(ctx, 0, 1<<20); err != nil {
		t.Fatal(err)
	}
	close(obj.rest)
	if _, err := p.WaitPrefix(ctx, 0, 3<<20); !errors.Is(err, errBoom) {
		t.Fatalf("past the failure: %v, want the read's error", err)
	}
	p.Close(true)
}

// TestWaitPrefixWithoutProgress: reads that report nothing (short ones, or
// objects that fill p at once) are handed over when complete; Close stops
// a request still queued or running.
func TestWaitPrefixWithoutProgress(t *testing.T) {
	ctx := context.Background()
	f := &fakeObject{size: 1 << 20, delay: 5 * time.Millisecond}
	s := New(ObjectStoreConfig(nil))
	defer s.Close()
	r := Range{Off: 10, Len: 100}
	p, err := s.Submit(ctx, f, []Range{r}, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.WaitPrefix(ctx, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	check(t, [][]byte{b}, []Range{r})
	p.Close(false)
	if _, err := p.WaitPrefix(ctx, 1, 1); err == nil {
		t.Error("range 1 of 1: no error")
	}

	g := &fakeObject{size: 1 << 20, gate: make(chan struct{})}
	p, err = s.Submit(ctx, g, []Range{r}, 0)
	if err != nil {
		t.Fatal(err)
	}
	p.Close(false) // the read waits at the gate: canceled, joined
}
