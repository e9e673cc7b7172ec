package fileread

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/internal/bufpool"
	"github.com/lancego/lancego/internal/filewriter"
	lanceio "github.com/lancego/lancego/io"
	"github.com/lancego/lancego/scheduler"
)

// waveSchema is three columns, each one page in a file of waveRows rows.
var waveSchema = arrow.NewSchema([]arrow.Field{
	{Name: "i", Type: arrow.PrimitiveTypes.Int64},
	{Name: "f", Type: arrow.PrimitiveTypes.Float64},
	{Name: "s", Type: arrow.BinaryTypes.String},
}, nil)

const waveRows = 20000

// waveFile writes waveRows rows of waveSchema in one batch to a store in
// memory (an object that lends no views, like S3's) and returns the store
// and key.
func waveFile(t *testing.T) (*lanceio.Store, string) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "wave.lance")
	w, err := filewriter.Create(ctx, path, waveSchema, filewriter.WithFileVersion("2.1"))
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, waveSchema)
	defer b.Release()
	for i := range waveRows {
		b.Field(0).(*array.Int64Builder).Append(int64(i)*7919 - 1<<40) // no bit-packing to speak of
		b.Field(1).(*array.Float64Builder).Append(float64(i) / 3)
		b.Field(2).(*array.StringBuilder).Append("value-" + string(rune('a'+i%26)))
	}
	rec := b.NewRecordBatch()
	err = w.Write(ctx, rec)
	rec.Release()
	if err == nil {
		err = w.Close(ctx)
	}
	if err != nil {
		t.Fatal(err)
	}
	return memStoreOf(t, path, "wave.lance"), "wave.lance"
}

// memStoreOf returns a store in memory (whose objects, like S3's, lend
// no views) holding the local file path as key.
func memStoreOf(t *testing.T, path, key string) *lanceio.Store {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	store := lanceio.NewMemStore(lanceio.Config{})
	t.Cleanup(func() { _ = store.Close() })
	out, err := store.Create(context.Background(), key)
	if err == nil {
		_, err = out.Write(data)
	}
	if err == nil {
		err = out.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	return store
}

// waveScanRequests opens the file with a scheduler of cfg, a tail too
// short to hold any page, scans cols and checks their values; it returns
// the requests the scan issued and the file.
func waveScanRequests(t *testing.T, store *lanceio.Store, key string, cfg scheduler.Config, cols []string) (int64, *File) {
	t.Helper()
	ctx := context.Background()
	obj, tail, err := store.OpenTail(ctx, key, 64)
	if err != nil {
		t.Fatal(err)
	}
	sched := scheduler.New(cfg)
	t.Cleanup(func() { _ = sched.Close() })
	f, err := OpenObject(ctx, "mem://"+key, obj, tail, sched, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	tailStart := uint64(obj.Size()) - uint64(len(tail))
	for c := range f.meta.Columns {
		for i := range f.meta.Columns[c].GetPages() {
			bufs, err := f.meta.PageRanges(c, i)
			span, ok := pageSpan(bufs)
			if err != nil || !ok || span.Offset+span.Length > tailStart {
				t.Fatalf("column %d page %d: span %v (%v), tail from %d: want pages before the tail", c, i, span, err, tailStart)
			}
		}
	}
	before := sched.Stats().Requests
	rows := 0
	for rec, err := range f.Batches(ctx, ScanOptions{Columns: cols, BatchSize: 4096}) {
		if err != nil {
			t.Fatal(err)
		}
		for k, name := range cols {
			for r := range int(rec.NumRows()) {
				row := rows + r
				switch name {
				case "i":
					if v := rec.Column(k).(*array.Int64).Value(r); v != int64(row)*7919-1<<40 {
						t.Fatalf("row %d: i = %d", row, v)
					}
				case "f":
					if v := rec.Column(k).(*array.Float64).Value(r); v != float64(row)/3 {
						t.Fatalf("row %d: f = %v", row, v)
					}
				case "s":
					if v := rec.Column(k).(*array.String).Value(r); v != "value-"+string(rune('a'+row%26)) {
						t.Fatalf("row %d: s = %q", row, v)
					}
				}
			}
		}
		rows += int(rec.NumRows())
		rec.Release()
	}
	if rows != waveRows {
		t.Fatalf("scan of %v: %d rows, want %d", cols, rows, waveRows)
	}
	return sched.Stats().Requests - before, f
}

// TestScanWaveRequests checks that a scan on an object store fetches the
// adjacent pages of all its columns in one request, and pages a gap apart
// in one only when the cost model says the gap is worth reading; locally
// (no cost model) each page is its own request.
func TestScanWaveRequests(t *testing.T) {
	store, key := waveFile(t)
	all := []string{"i", "f", "s"}
	obj := scheduler.ObjectStoreConfig(nil)
	pooled := obj
	pooled.Buffers = bufpool.New(64 << 20) // waves of mini-block pages are recycled
	for _, tc := range []struct {
		name string
		cfg  scheduler.Config
		cols []string
		want int64
	}{
		{"object store, 3 adjacent pages", obj, all, 1},
		{"object store, pooled buffers", pooled, all, 1},
		{"local, 3 pages", scheduler.LocalConfig(nil), all, 3},
		{"one column", obj, []string{"f"}, 1},
	} {
		got, f := waveScanRequests(t, store, key, tc.cfg, tc.cols)
		if pages := len(f.meta.Columns[0].GetPages()) + len(f.meta.Columns[1].GetPages()) + len(f.meta.Columns[2].GetPages()); pages != 3 {
			t.Fatalf("want one page per column, got %d pages", pages)
		}
		if got != tc.want {
			t.Errorf("%s: scan of %v: %d requests, want %d", tc.name, tc.cols, got, tc.want)
		}
	}

	// Columns i and s, with f's page between them: the gap is read when
	// it costs less than a request (first byte 100 ms), not when a
	// request costs less (1 ms: 16 KiB at 1 GiB/s over 64 in flight).
	_, f := waveScanRequests(t, store, key, obj, []string{"f"})
	gap := pageBytes(f.meta.Columns[1].GetPages()[0])
	for _, tc := range []struct {
		latency time.Duration
		want    int64
	}{{time.Millisecond, 2}, {100 * time.Millisecond, 1}} {
		cfg := obj
		cfg.CoalesceGap = -1 // only the cost model merges across gaps
		cfg.FirstByteLatency = tc.latency
		cfg.MaxReadAmplification = 100
		if tc.latency == time.Millisecond && gap <= uint64(cfg.FirstByteLatency.Seconds()*float64(cfg.Bandwidth)/64) {
			t.Fatalf("f's page of %d bytes is no larger than the 1 ms break-even gap", gap)
		}
		if got, _ := waveScanRequests(t, store, key, cfg, []string{"i", "s"}); got != tc.want {
			t.Errorf("first byte %v: scan of i and s across a %d-byte gap: %d requests, want %d", tc.latency, gap, got, tc.want)
		}
	}
}
