package layouts

import (
	"math/rand/v2"
	"testing"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// BenchmarkUnravelOneList unravels a batch of 8,192 rows shaped like the
// benchmark's list_i32 column (0-8 items a row, empty lists, no nulls).
func BenchmarkUnravelOneList(b *testing.B) {
	set, err := NewLayerSet([]pb.RepDefLayer{pb.RepDefLayer_REPDEF_ALL_VALID_ITEM, pb.RepDefLayer_REPDEF_EMPTYABLE_LIST})
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var lv Levels
	for range 8192 {
		n := rng.IntN(9)
		if n == 0 {
			lv.Rep, lv.Def = append(lv.Rep, 1), append(lv.Def, set.Layers[0].EmptyCode)
			continue
		}
		for j := range n {
			lv.Rep, lv.Def = append(lv.Rep, uint16(b2i(j == 0))), append(lv.Def, 0)
		}
	}
	lv.N = len(lv.Rep)
	b.SetBytes(int64(4 * lv.N))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Unravel(set, lv); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*lv.N), "ns/entry")
}
