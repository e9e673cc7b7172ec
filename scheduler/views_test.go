package scheduler

import (
	"context"
	"sync/atomic"
	"testing"

	lanceio "github.com/lancego/lancego/io"
)

// viewObject is a fakeObject that lends views of its bytes (or refuses to,
// with ErrUnsupported), counting views taken and released.
type viewObject struct {
	fakeObject
	unsupported     bool
	views, released atomic.Int64
}

func (v *viewObject) View(ctx context.Context, off int64, n int) ([]byte, func(), error) {
	if v.unsupported {
		return nil, nil, lanceio.ErrUnsupported
	}
	b := make([]byte, n)
	fill(b, off)
	v.views.Add(1)
	return b, func() { v.released.Add(1) }, nil
}

func (v *viewObject) ViewFault(any) error { return nil }

var viewRanges = []Range{{Off: 0, Len: 100}, {Off: 150, Len: 50}, {Off: 1 << 20, Len: 5 << 20}}

// submitFunc is one of the scheduler's ways to submit a request.
type submitFunc func(context.Context, lanceio.Object, []Range, uint64) (*Pending, error)

// submitViewRanges submits viewRanges of obj with submit, waits and checks
// the bytes; the caller ends the Pending.
func submitViewRanges(t *testing.T, submit submitFunc, obj lanceio.Object) *Pending {
	t.Helper()
	p, err := submit(context.Background(), obj, viewRanges, 1)
	if err != nil {
		t.Fatal(err)
	}
	bufs, err := p.Wait(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	check(t, bufs, viewRanges)
	return p
}

// TestSubmitViewedUsesViews: SubmitViewed is served by one view per
// merged group, without reads or bytes budget, and both Recycle and
// Release end the views.
func TestSubmitViewedUsesViews(t *testing.T) {
	for _, recycle := range []bool{true, false} {
		obj := &viewObject{fakeObject: fakeObject{size: 8 << 20}}
		s := New(LocalConfig(nil))
		p := submitViewRanges(t, s.SubmitViewed, obj)
		st := s.Stats()
		if obj.reads.Load() != 0 || obj.views.Load() != 2 || st.Views != 2 || st.Requests != 2 || st.MaxInFlightBytes != 0 {
			t.Fatalf("reads %d, views %d, stats %+v; want 0 reads and 2 views (one per merged group)", obj.reads.Load(), obj.views.Load(), st)
		}
		if obj.released.Load() != 0 {
			t.Fatal("a view was released before the request ended")
		}
		if recycle {
			p.Recycle()
		} else {
			p.Release()
		}
		p.Release()
		if obj.released.Load() != 2 {
			t.Fatalf("recycle=%v: %d of 2 views released", recycle, obj.released.Load())
		}
		s.Close()
	}
}

// TestOnlySubmitViewedViews: Submit's bytes may be kept (aliased) by the
// caller and SubmitPooled's go to pooled buffers, so both always read; and
// SubmitViewed reads from an object refusing views.
func TestOnlySubmitViewedViews(t *testing.T) {
	for _, c := range []struct {
		name        string
		unsupported bool
	}{{"Submit", false}, {"SubmitPooled", false}, {"SubmitViewed/unsupported", true}} {
		obj := &viewObject{fakeObject: fakeObject{size: 8 << 20}, unsupported: c.unsupported}
		s := New(LocalConfig(nil))
		submit := s.Submit
		switch c.name {
		case "SubmitPooled":
			submit = s.SubmitPooled
		case "SubmitViewed/unsupported":
			submit = s.SubmitViewed
		}
		submitViewRanges(t, submit, obj).Release()
		if obj.views.Load() != 0 || obj.reads.Load() == 0 || s.Stats().Views != 0 {
			t.Fatalf("%s: %d views, %d reads; want reads only", c.name, obj.views.Load(), obj.reads.Load())
		}
		s.Close()
	}
}
