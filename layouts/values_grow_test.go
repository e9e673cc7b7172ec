package layouts

import (
	"testing"
	"unsafe"

	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/internal/bufpool"
)

// TestGrowDataIsGeometric reserves room piece by piece, as a take's rows
// of a full-zip string page do: the data must move a logarithmic number of
// times (it moved on every piece once, copying quadratically), keep its
// bytes, and stay in the allocator's memory.
func TestGrowDataIsGeometric(t *testing.T) {
	pool := bufpool.New(64 << 20)
	v := &Values{Kind: codecs.KindVariable, Offsets: []int64{0}}
	v.SetAllocator(pool)
	moves := 0
	var last *byte
	for i := range 5000 {
		v.growData(300)
		if p := unsafe.SliceData(v.Data); p != last {
			moves, last = moves+1, p
		}
		for range 200 {
			v.Data = append(v.Data, byte(i))
		}
	}
	if moves > 20 {
		t.Fatalf("data moved %d times over 5,000 reservations", moves)
	}
	for i, b := range v.Data {
		if b != byte(i/200) {
			t.Fatalf("byte %d is %d, want %d", i, b, byte(i/200))
		}
	}
	if !v.ownsData() {
		t.Fatal("data left the allocator's memory")
	}
	v.Free()
}

// TestNewOffsetsReusesPoolScratch checks that the offsets scratch of a
// batch comes from a pooling allocator and goes back on Free, so that the
// next batch reuses it, and that small or allocator-less requests are
// plain memory that Free leaves alone.
func TestNewOffsetsReusesPoolScratch(t *testing.T) {
	pool := bufpool.New(64 << 20)
	for _, c := range []struct {
		name   string
		mem    bool
		n      int
		pooled bool
	}{
		{"batch", true, 8193, true},
		{"small", true, 100, false},
		{"no allocator", false, 8193, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := &Values{Kind: codecs.KindVariable}
			if c.mem {
				v.SetAllocator(pool)
			}
			offs := v.newOffsets(c.n)
			if len(offs) != 0 || cap(offs) < c.n || (v.ownedOffs != nil) != c.pooled {
				t.Fatalf("len %d cap %d pooled %v", len(offs), cap(offs), v.ownedOffs != nil)
			}
			v.Offsets = append(offs, 0, 5, 9)
			first := unsafe.SliceData(v.Offsets)
			reused := pool.Reused()
			v.Free()
			if c.pooled && v.Offsets != nil {
				t.Fatal("Free kept pooled offsets")
			}
			w := &Values{Kind: codecs.KindVariable}
			w.SetAllocator(pool)
			again := w.newOffsets(c.n)
			if c.pooled && (unsafe.SliceData(again) != first || pool.Reused() != reused+1) {
				t.Fatal("second batch did not reuse the freed offsets")
			}
			w.Free()
		})
	}
}
