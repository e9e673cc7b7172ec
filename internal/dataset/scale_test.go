package dataset

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"google.golang.org/protobuf/proto"

	"github.com/lancego/lancego/format/pb/tablepb"
)

// manyFragments writes a dataset whose manifest lists n fragments, all
// sharing the last data file of testdata/datasets/small (rows with id 6..9),
// and returns its root.
func manyFragments(t *testing.T, n int) string {
	t.Helper()
	root := copyDataset(t, "small")
	path := filepath.Join(root, VersionsDir, ManifestName(4, NamingV2))
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pos, _ := ManifestStart(int64(len(b)), b)
	var m tablepb.Manifest
	if err := proto.Unmarshal(b[pos+4:len(b)-FooterSize], &m); err != nil {
		t.Fatal(err)
	}
	last := m.Fragments[len(m.Fragments)-1] // 4 rows, no deletions
	m.Fragments = make([]*tablepb.DataFragment, n)
	for i := range m.Fragments {
		m.Fragments[i] = &tablepb.DataFragment{Id: uint64(i), Files: last.Files, PhysicalRows: last.PhysicalRows}
	}
	m.Version = 5
	body, err := proto.Marshal(&m)
	if err != nil {
		t.Fatal(err)
	}
	out := binary.LittleEndian.AppendUint32(nil, uint32(len(body)))
	out = append(out, body...)
	out = binary.LittleEndian.AppendUint64(out, 0)
	out = append(out, b[len(b)-8:]...)
	if err := os.WriteFile(filepath.Join(root, VersionsDir, ManifestName(5, NamingV2)), out, 0o644); err != nil {
		t.Fatal(err)
	}
	if keep := os.Getenv("LANCE_KEEP_SCALE_DATASETS"); keep != "" { // to time pylance on the same datasets
		dst := filepath.Join(keep, fmt.Sprintf("frags-%d", n))
		_ = os.RemoveAll(dst)
		if err := os.MkdirAll(keep, 0o755); err != nil || os.Rename(root, dst) != nil {
			t.Fatalf("keeping %s: %v", dst, err)
		}
		return dst
	}
	return root
}

// TestManyFragments simulates datasets of 1k, 10k and 100k fragments:
// opening is fast and its peak heap small (sampled during the open, and
// checked to lie between the heap live after it and the bytes it
// allocated), no fragment's metadata is decoded by opening
// or counting, and a take of 100 random rows decodes only the fragments it
// touches and returns their rows.
func TestManyFragments(t *testing.T) {
	ctx := context.Background()
	sizes := []int{1_000, 10_000, 100_000}
	if testing.Short() {
		sizes = sizes[:2]
	}
	for _, n := range sizes {
		root := manyFragments(t, n)
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		stop := sampleHeapPeak()
		t0 := time.Now()
		ds, err := OpenDataset(ctx, root)
		if err != nil {
			t.Fatal(err)
		}
		open := time.Since(t0)
		peak := stop() - int64(before.HeapAlloc)
		runtime.ReadMemStats(&after)
		allocated := int64(after.TotalAlloc - before.TotalAlloc)
		runtime.GC()
		runtime.ReadMemStats(&after)
		heap := int64(after.HeapAlloc) - int64(before.HeapAlloc)
		rows, err := ds.CountRows(ctx)
		if err != nil || rows != uint64(4*n) {
			t.Fatalf("%d fragments: %d rows, %v", n, rows, err)
		}
		if d := decodedFragments(ds); d != 0 {
			t.Fatalf("%d fragments: open and count decoded %d fragments", n, d)
		}
		r := rand.New(rand.NewPCG(uint64(n), 1))
		offs := make([]uint64, 100)
		for i := range offs {
			offs[i] = r.Uint64N(rows)
		}
		t1 := time.Now()
		rec, err := ds.Take(ctx, offs, ReadOptions{Columns: []string{"id"}, WithRowAddress: true})
		if err != nil {
			t.Fatal(err)
		}
		take := time.Since(t1)
		ids := rec.Column(0).(*array.Int64)
		addrs := rec.Column(1).(*array.Uint64)
		for i, o := range offs {
			if ids.Value(i) != int64(6+o%4) || addrs.Value(i) != (o/4)<<32|o%4 {
				t.Fatalf("offset %d: id %d, address %d", o, ids.Value(i), addrs.Value(i))
			}
		}
		rec.Release()
		touched := map[uint64]bool{}
		for _, o := range offs {
			touched[o/4] = true
		}
		if d := decodedFragments(ds); d != len(touched) {
			t.Fatalf("take decoded %d fragments, touched %d", d, len(touched))
		}
		mb := func(b int64) float64 { return float64(b) / (1 << 20) }
		t.Logf("%7d fragments: open %v, heap: peak %.1f MB during open (allocated %.1f MB), %.1f MB live after; take of 100 random rows %v",
			n, open.Round(100*time.Microsecond), mb(peak), mb(allocated), mb(heap), take.Round(time.Millisecond))
		if peak > allocated+1<<20 || heap > peak+1<<20 {
			t.Errorf("%d fragments: sampled peak %d B is not between the live heap %d B and the bytes allocated %d B", n, peak, heap, allocated)
		}
		if n == 100_000 && (open > time.Second || peak > 256<<20) {
			t.Errorf("%d fragments: open took %v and a peak of %d MB of heap, want < 1 s and < 256 MB", n, open, peak>>20)
		}
		ds.Close()
	}
}

// sampleHeapPeak samples the bytes of live and not yet swept heap
// objects (HeapAlloc) every 100 µs in a goroutine; stop ends the sampling
// and returns the largest value seen, including one last sample.
func sampleHeapPeak() (stop func() int64) {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() int64 { metrics.Read(s); return int64(s[0].Value.Uint64()) }
	var peak atomic.Int64
	peak.Store(read())
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for {
			if v := read(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-time.After(100 * time.Microsecond):
			}
		}
	}()
	return func() int64 {
		close(done)
		<-finished
		return max(peak.Load(), read())
	}
}

func decodedFragments(ds *Dataset) int {
	n := 0
	for _, f := range ds.frags {
		if f.meta != nil {
			n++
		}
	}
	return n
}
