package layouts

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// shredGeneral runs the recursive scan/visit shredder (the path every
// other shape takes) on any path.
func shredGeneral(t *testing.T, top arrow.Array, child []int) *Shredded {
	t.Helper()
	s, err := newShredder(top, child)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < top.Len(); i++ {
		s.scan(0, i)
	}
	set, err := s.layerSet()
	if err != nil {
		t.Fatal(err)
	}
	if set.HasLists() {
		s.out.Rep = []uint16{}
	}
	if set.NeedsDef() {
		s.out.Def = []uint16{}
	}
	s.out.Idx = []int{}
	for i := 0; i < top.Len(); i++ {
		s.visit(0, i, set.MaxRep)
	}
	return s.out
}

// TestShredStructsMatchesGeneral checks the struct-only fast path against
// the general shredder over random null patterns in each layer, sliced.
func TestShredStructsMatchesGeneral(t *testing.T) {
	inner := arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int16, Nullable: true})
	outer := arrow.StructOf(arrow.Field{Name: "s", Type: inner, Nullable: true}, arrow.Field{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true})
	for _, pNull := range []float64{0, 0.1, 0.5} {
		for _, mask := range []int{1, 2, 4, 7} {
			rng := rand.New(rand.NewPCG(uint64(mask), uint64(pNull*10)))
			b := array.NewStructBuilder(memory.DefaultAllocator, outer)
			sb := b.FieldBuilder(0).(*array.StructBuilder)
			xb := sb.FieldBuilder(0).(*array.Int16Builder)
			fb := b.FieldBuilder(1).(*array.Float64Builder)
			null := func(bit int) bool { return mask&bit != 0 && rng.Float64() < pNull }
			for i := 0; i < 3000; i++ {
				b.Append(!null(1))
				sb.Append(!null(2))
				if null(4) {
					xb.AppendNull()
				} else {
					xb.Append(int16(i))
				}
				fb.Append(float64(i))
			}
			whole := b.NewArray()
			for _, a := range []arrow.Array{whole, array.NewSlice(whole, 17, 2500)} {
				for _, child := range [][]int{{0, 0}, {1}} {
					got, err := Shred(a, child, nil)
					if err != nil {
						t.Fatal(err)
					}
					want := shredGeneral(t, a, child)
					if !slices.Equal(got.Layers, want.Layers) || !slices.Equal(got.Def, want.Def) ||
						!slices.Equal(got.Slots(nil), want.Slots(nil)) || got.NumNull != want.NumNull || got.NumRows != want.NumRows {
						t.Fatalf("p=%v mask=%d child=%v len=%d: fast path differs (layers %v/%v, nulls %d/%d)",
							pNull, mask, child, a.Len(), got.Layers, want.Layers, got.NumNull, want.NumNull)
					}
				}
			}
		}
	}
}
