package scheduler

import (
	"context"
	"sync"
	"testing"
)

// TestRoundTrips checks the depth an operation reaches for sequential,
// concurrent (forked) and mixed chains of requests.
func TestRoundTrips(t *testing.T) {
	fetch := func(ctx context.Context, s *Scheduler, obj *fakeObject) {
		if _, err := s.Fetch(ctx, obj, []Range{{Off: 0, Len: 10}}, 0); err != nil {
			t.Error(err)
		}
	}
	parallel := func(ctx context.Context, n int, fn func(context.Context)) {
		var wg sync.WaitGroup
		joins := make([]func(), n)
		for i := range n {
			c, join := Fork(ctx)
			joins[i] = join
			wg.Go(func() { fn(c) })
		}
		wg.Wait()
		for _, j := range joins {
			j()
		}
	}
	tests := []struct {
		name string
		run  func(ctx context.Context, s *Scheduler, obj *fakeObject)
		want int64
	}{
		{"none", func(context.Context, *Scheduler, *fakeObject) {}, 0},
		{"one", func(ctx context.Context, s *Scheduler, o *fakeObject) { fetch(ctx, s, o) }, 1},
		{"three in series", func(ctx context.Context, s *Scheduler, o *fakeObject) {
			fetch(ctx, s, o)
			fetch(ctx, s, o)
			fetch(ctx, s, o)
		}, 3},
		{"ten forked", func(ctx context.Context, s *Scheduler, o *fakeObject) {
			parallel(ctx, 10, func(c context.Context) { fetch(c, s, o) })
		}, 1},
		{"forked then one", func(ctx context.Context, s *Scheduler, o *fakeObject) {
			parallel(ctx, 4, func(c context.Context) { fetch(c, s, o) })
			fetch(ctx, s, o) // follows the joined answers
		}, 2},
		{"forks of different depths", func(ctx context.Context, s *Scheduler, o *fakeObject) {
			parallel(ctx, 3, func(c context.Context) {
				fetch(c, s, o)
				if Depth(c) == 1 {
					fetch(c, s, o)
				}
			})
		}, 2},
		{"submitted together, waited in turn", func(ctx context.Context, s *Scheduler, o *fakeObject) {
			a, _ := s.Submit(ctx, o, []Range{{Off: 0, Len: 5}}, 0)
			b, _ := s.Submit(ctx, o, []Range{{Off: 100, Len: 5}}, 0)
			for _, p := range []*Pending{a, b} {
				if _, err := p.Wait(ctx); err != nil {
					t.Error(err)
				}
				p.Release()
			}
		}, 1},
		{"nested operation", func(ctx context.Context, s *Scheduler, o *fakeObject) {
			inner, end := Track(ctx)
			fetch(inner, s, o)
			end()
			fetch(ctx, s, o)
		}, 2},
		{"empty ranges are no request", func(ctx context.Context, s *Scheduler, o *fakeObject) {
			if _, err := s.Fetch(ctx, o, []Range{{Off: 0, Len: 0}}, 0); err != nil {
				t.Error(err)
			}
			fetch(ctx, s, o)
		}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Config{})
			defer s.Close()
			obj := &fakeObject{size: 1 << 20}
			ctx, end := Track(context.Background())
			tc.run(ctx, s, obj)
			end()
			st := s.Stats()
			if st.RoundTrips != tc.want {
				t.Errorf("RoundTrips = %d, want %d", st.RoundTrips, tc.want)
			}
			if wantOps := min(tc.want, 1); st.Operations != wantOps {
				t.Errorf("Operations = %d, want %d", st.Operations, wantOps)
			}
		})
	}
}

// TestRoundTripsUntracked checks that requests without a tracked context
// count no round trips, and that Issue/Reached/Attach count a request
// served elsewhere.
func TestRoundTripsUntracked(t *testing.T) {
	s := New(Config{})
	defer s.Close()
	obj := &fakeObject{size: 1 << 20}
	if _, err := s.Fetch(context.Background(), obj, []Range{{Off: 0, Len: 10}}, 0); err != nil {
		t.Fatal(err)
	}
	if got := s.Stats().RoundTrips; got != 0 {
		t.Errorf("untracked RoundTrips = %d, want 0", got)
	}
	ctx, end := Track(context.Background())
	d := Issue(ctx)
	Reached(ctx, d)
	Attach(ctx, s)
	if _, err := s.Fetch(ctx, obj, []Range{{Off: 0, Len: 10}}, 0); err != nil {
		t.Fatal(err)
	}
	end()
	if d != 1 || s.Stats().RoundTrips != 2 {
		t.Errorf("Issue depth %d, RoundTrips %d; want 1, 2", d, s.Stats().RoundTrips)
	}
}
