package bench

import (
	"context"
	"testing"
	"time"

	lance "github.com/lancego/lancego"
)

// TestTimeBestOpenSkipsWarmups checks that warm-up runs happen first, are
// counted as runs, and never become the reported time.
func TestTimeBestOpenSkipsWarmups(t *testing.T) {
	ctx := context.Background()
	d, err := EnsureDataset(t.TempDir(), TableDataset, 2000, 5)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := OursWrite(ctx, d, "2.1"); err != nil {
		t.Fatal(err)
	}
	calls := 0
	run := func(*lance.File) (int, error) {
		calls++
		if calls > 2 { // the two warm-ups return at once, timed runs take 20 ms
			time.Sleep(20 * time.Millisecond)
		}
		return 1, nil
	}
	var rows int
	var last ioCount
	best, err := timeBestOpen(ctx, ScanSpec{URL: d.GoLancePath(), Reps: 3, Warmups: 2}, run, &rows, &last)
	if err != nil {
		t.Fatal(err)
	}
	if calls != 5 {
		t.Fatalf("%d runs, want 2 warm-ups + 3 timed", calls)
	}
	if best < 0.019 {
		t.Fatalf("best %.4fs includes a warm-up run", best)
	}
}
