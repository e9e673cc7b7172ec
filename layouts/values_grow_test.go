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
