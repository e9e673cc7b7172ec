package zonestats

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// TestZonesOfAndZoneMap: a seed's zones regrouped to other zone sizes,
// and a zone map of two seeds with its offsets, entry statistics and
// summary.
func TestZonesOfAndZoneMap(t *testing.T) {
	mem := newMem(t)
	dt := arrow.PrimitiveTypes.Int64
	arr := arrayFromJSON(t, mem, dt, `[0,1,2,3,4,5,6,7,8,9]`)
	defer arr.Release()
	seed, err := ParseSeed(collect(t, mem, dt, 4, false, arr), dt, 4, 10, mem)
	if err != nil {
		t.Fatal(err)
	}
	for rpz, want := range map[uint64][][2]string{
		4:  {{"0", "3"}, {"4", "7"}, {"8", "9"}},
		3:  {{"0", "3"}, {"0", "7"}, {"4", "9"}, {"8", "9"}},
		8:  {{"0", "7"}, {"8", "9"}},
		10: {{"0", "9"}},
	} {
		zones, err := seed.ZonesOf(rpz, 10)
		if err != nil || len(zones) != len(want) {
			t.Fatalf("rpz %d: %d zones, %v", rpz, len(zones), err)
		}
		for k, z := range zones {
			lo, hi, err := z.Bounds()
			if err != nil || lo != want[k][0] || hi != want[k][1] {
				t.Errorf("rpz %d zone %d: [%v, %v] %v, want %v", rpz, k, lo, hi, err, want[k])
			}
		}
	}
	if _, err := seed.ZonesOf(4, 11); !errors.Is(err, ErrMismatch) {
		t.Errorf("row mismatch: %v", err)
	}
	zm, err := BuildZoneMap(seed, seed)
	if err != nil {
		t.Fatal(err)
	}
	if len(zm.Entries) != 6 || zm.Entries[3].Offset != 10 || zm.Entries[3].Source != 1 || zm.Rows != 20 {
		t.Errorf("zone map %+v", zm.Entries[3])
	}
	st := zm.Stats()
	if len(st) != 6 {
		t.Fatalf("%d entry stats", len(st))
	}
	if lo, hi, _ := st[4].Bounds(); lo != "4" || hi != "7" {
		t.Errorf("entry 4: [%v, %v]", lo, hi)
	}
	sum, err := zm.Summary()
	if err != nil {
		t.Fatal(err)
	}
	if lo, hi, _ := sum.Bounds(); lo != "0" || hi != "9" || sum.ZoneLength != 20 {
		t.Errorf("summary %v %v %d", lo, hi, sum.ZoneLength)
	}
}
