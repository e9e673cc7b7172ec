package layouts

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestShredListsMatchesGeneral checks the lists fast path against the
// recursive walk over list<list<int32>>, struct<list<string>> and
// list<struct<list<int32>>> with nulls and empty lists in any layer
// (none in structs, which the fast path leaves to the walk), sliced.
func TestShredListsMatchesGeneral(t *testing.T) {
	i32, str := arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String
	shapes := []struct {
		name  string
		dt    arrow.DataType
		child []int
	}{
		{"list<list<int32>>", arrow.ListOf(arrow.ListOf(i32)), []int{0, 0}},
		{"large_list<list<int32>>", arrow.LargeListOf(arrow.ListOf(i32)), []int{0, 0}},
		{"struct<list<string>>", arrow.StructOf(arrow.Field{Name: "l", Type: arrow.ListOf(str), Nullable: true}), []int{0, 0}},
		{"list<struct<list<int32>>>", arrow.ListOf(arrow.StructOf(arrow.Field{Name: "l", Type: arrow.ListOf(i32), Nullable: true})), []int{0, 0, 0}},
		{"list<list<list<int32>>>", arrow.ListOf(arrow.ListOf(arrow.ListOf(i32))), []int{0, 0, 0}},
	}
	for _, sh := range shapes {
		for _, mask := range []int{0, 1, 2, 4, 8, 15} {
			for _, pNull := range []float64{0.1, 0.6} {
				rng := rand.New(rand.NewPCG(uint64(mask), uint64(pNull*10)))
				b := array.NewBuilder(memory.DefaultAllocator, sh.dt)
				for range 2000 {
					appendRandomNested(b, rng, mask, pNull, 0)
				}
				whole := b.NewArray()
				for _, a := range []arrow.Array{whole, array.NewSlice(whole, 13, 1700)} {
					name := fmt.Sprintf("%s mask=%d p=%v len=%d", sh.name, mask, pNull, a.Len())
					s, err := newShredder(a, sh.child)
					if err != nil {
						t.Fatal(err)
					}
					if !s.listsPath() {
						t.Fatalf("%s: not a lists path", name)
					}
					got, err := Shred(a, sh.child, nil)
					if err != nil {
						t.Fatal(err)
					}
					want := shredGeneral(t, a, sh.child)
					if !slices.Equal(got.Layers, want.Layers) || !slices.Equal(got.Rep, want.Rep) || !slices.Equal(got.Def, want.Def) ||
						!slices.Equal(got.Slots(nil), want.Slots(nil)) || got.NumNull != want.NumNull || got.NumRows != want.NumRows {
						t.Fatalf("%s: fast path differs (layers %v/%v, %d/%d entries, nulls %d/%d)", name, got.Layers, want.Layers,
							got.NumItems(), want.NumItems(), got.NumNull, want.NumNull)
					}
				}
			}
		}
	}
}

// appendRandom appends one random value to b: a null with probability
// pNull where mask has the bit of its depth (structs never null), lists
// of 0-3 entries.
func appendRandomNested(b array.Builder, rng *rand.Rand, mask int, pNull float64, depth int) {
	null := mask&(1<<depth) != 0 && rng.Float64() < pNull
	switch bb := b.(type) {
	case array.ListLikeBuilder: // list and large list
		if null {
			bb.AppendNull()
			return
		}
		bb.Append(true)
		for range rng.IntN(4) {
			appendRandomNested(bb.ValueBuilder(), rng, mask, pNull, depth+1)
		}
	case *array.StructBuilder:
		bb.Append(true)
		appendRandomNested(bb.FieldBuilder(0), rng, mask, pNull, depth+1)
	case *array.Int32Builder:
		if null {
			bb.AppendNull()
		} else {
			bb.Append(int32(rng.IntN(100)))
		}
	case *array.StringBuilder:
		if null {
			bb.AppendNull()
		} else {
			bb.Append(fmt.Sprint(rng.IntN(100)))
		}
	}
}
