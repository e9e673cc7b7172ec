package zonestats

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// FuzzParseSeed: any bytes either fail validation or give a seed whose
// views (JSON, summary, regrouped zones, bound arrays) work.
func FuzzParseSeed(f *testing.F) {
	mem := memory.NewGoAllocator()
	s := goodInt()
	s.bitmap = strp(bitmapHex(0, 4, 5))
	f.Add(s.build(f, mem), uint8(0))
	f.Add(goodFloat().build(f, mem), uint8(1))
	arr := arrayFromJSON(f, mem, arrow.PrimitiveTypes.Int32, `[1, null, 3, 4, 5, null]`)
	f.Add(collect(f, mem, arrow.PrimitiveTypes.Int32, 4, true, arr), uint8(0))
	arr.Release()
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		dt, rpz, rows := arrow.DataType(arrow.PrimitiveTypes.Int32), uint64(4), uint64(6)
		if which%2 == 1 {
			dt, rpz, rows = arrow.PrimitiveTypes.Float64, 3, 3
		}
		seed, err := ParseSeed(data, dt, rpz, rows, mem)
		if err != nil {
			return
		}
		if _, err := seed.JSON(); err != nil {
			t.Fatal(err)
		}
		if _, err := seed.Summary(); err != nil {
			t.Fatal(err)
		}
		zones, err := seed.ZonesOf(2, rows)
		if err != nil {
			t.Fatal(err)
		}
		for i := range zones {
			if lo, hi, ok := zones[i].BoundArrays(mem); ok {
				lo.Release()
				hi.Release()
			}
		}
	})
}
