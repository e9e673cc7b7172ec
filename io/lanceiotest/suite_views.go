package lanceiotest

import (
	"bytes"
	"context"
	"errors"
	"testing"

	lanceio "github.com/lancego/lancego/io"
)

// viewer returns o's views, or skips when the backend lends none.
func viewer(t *testing.T, o lanceio.Object) lanceio.Viewer {
	t.Helper()
	v, ok := o.(lanceio.Viewer)
	if !ok {
		t.Skip("backend lends no views")
	}
	_, release, err := v.View(context.Background(), 0, 1)
	if errors.Is(err, lanceio.ErrUnsupported) {
		t.Skip("views unsupported here")
	}
	if err != nil {
		t.Fatalf("View(0, 1): %v", err)
	}
	release()
	return v
}

// testViews checks a backend's views (lanceio.Viewer): the same bytes as
// ReadAt, the same range and context errors, and a view taken before
// Close stays readable until it is released.
func (s *suite) testViews(t *testing.T) {
	ctx := context.Background()
	data := Data(21, 200_000)
	o, err := s.h.Store.Open(ctx, s.put(t, "views", data))
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	v := viewer(t, o)
	for _, r := range [][2]int{{0, 200_000}, {0, 1}, {199_999, 1}, {4095, 4098}, {123_456, 0}} {
		b, release, err := v.View(ctx, int64(r[0]), r[1])
		if err != nil {
			t.Fatalf("View(%d, %d): %v", r[0], r[1], err)
		}
		if !bytes.Equal(b, data[r[0]:r[0]+r[1]]) || cap(b) != r[1] {
			t.Fatalf("View(%d, %d): bytes differ or capacity %d past the range", r[0], r[1], cap(b))
		}
		release()
	}
	if _, _, err := v.View(ctx, 199_999, 2); !errors.Is(err, lanceio.ErrOutOfRange) {
		t.Errorf("View past the end = %v, want ErrOutOfRange", err)
	}
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := v.View(canceled, 0, 10); !errors.Is(err, lanceio.ErrCanceled) {
		t.Errorf("View(canceled) = %v, want ErrCanceled", err)
	}
	held, release, err := v.View(ctx, 100_000, 50_000)
	if err != nil {
		t.Fatal(err)
	}
	_ = o.Close()
	if !bytes.Equal(held, data[100_000:150_000]) {
		t.Error("a view taken before Close changed before its release")
	}
	release()
	if _, _, err := v.View(ctx, 0, 10); !errors.Is(err, lanceio.ErrClosed) {
		t.Errorf("View after Close = %v, want ErrClosed", err)
	}
}
