package layouts

import (
	"math/rand/v2"
	"reflect"
	"testing"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// TestUnravelOneListMatchesGeneral compares the one-list fast path with
// the general layer walk on random levels of every one-list layer shape.
func TestUnravelOneListMatchesGeneral(t *testing.T) {
	items := []pb.RepDefLayer{pb.RepDefLayer_REPDEF_ALL_VALID_ITEM, pb.RepDefLayer_REPDEF_NULLABLE_ITEM}
	lists := []pb.RepDefLayer{pb.RepDefLayer_REPDEF_ALL_VALID_LIST, pb.RepDefLayer_REPDEF_NULLABLE_LIST,
		pb.RepDefLayer_REPDEF_EMPTYABLE_LIST, pb.RepDefLayer_REPDEF_NULL_AND_EMPTY_LIST}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, it := range items {
		for _, li := range lists {
			set, err := NewLayerSet([]pb.RepDefLayer{it, li})
			if err != nil {
				t.Fatal(err)
			}
			if !isOneList(set) {
				t.Fatalf("%v/%v not recognized as one list", it, li)
			}
			for trial := 0; trial < 200; trial++ {
				lv := randomOneListLevels(rng, set)
				want, err := unravelLayers(set, lv)
				if err != nil {
					t.Fatal(err)
				}
				got, err := Unravel(set, lv)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(normalize(got), normalize(want)) {
					t.Fatalf("%v/%v levels %+v:\n got %+v / %+v\nwant %+v / %+v", it, li, lv, got, got.Child, want, want.Child)
				}
				checkSplitAppend(t, set, lv, want)
			}
		}
	}
}

// randomOneListLevels makes valid levels for a [list, item] set: each row
// is null or empty (one entry) or holds 1-4 items (some null).
func randomOneListLevels(rng *rand.Rand, set LayerSet) Levels {
	list, item := set.Layers[0], set.Layers[1]
	var lv Levels
	lv.Rep, lv.Def = []uint16{}, []uint16{}
	for r := rng.IntN(20); r >= 0; r-- {
		switch k := rng.IntN(4); {
		case k == 0 && list.NullCode != 0:
			lv.Rep, lv.Def = append(lv.Rep, 1), append(lv.Def, list.NullCode)
		case k == 1 && list.EmptyCode != 0:
			lv.Rep, lv.Def = append(lv.Rep, 1), append(lv.Def, list.EmptyCode)
		default:
			for j := 0; j <= rng.IntN(4); j++ {
				rep := uint16(0)
				if j == 0 {
					rep = 1
				}
				d := uint16(0)
				if item.NullCode != 0 && rng.IntN(3) == 0 {
					d = item.NullCode
				}
				lv.Rep, lv.Def = append(lv.Rep, rep), append(lv.Def, d)
			}
		}
		if rng.IntN(10) == 0 && len(lv.Rep) > 0 { // hostile: a stray continuation
			lv.Rep, lv.Def = append(lv.Rep, 0), append(lv.Def, uint16(rng.IntN(int(set.MaxDef)+1)))
		}
	}
	lv.N = len(lv.Rep)
	if set.MaxDef == 0 {
		lv.Def = nil
	}
	return lv
}

// normalize trims bitmaps to their used bytes so equal nodes compare equal.
func normalize(n *PathNode) []PathNode {
	var out []PathNode
	for ; n != nil; n = n.Child {
		c := *n
		c.Child = nil
		if c.Validity != nil {
			c.Validity = append([]byte(nil), c.Validity[:(c.Len+7)/8]...)
			if r := c.Len % 8; r != 0 {
				c.Validity[len(c.Validity)-1] &= byte(1)<<r - 1
			}
		}
		out = append(out, c)
	}
	return out
}

// TestCountZeroOne compares the word-at-a-time count with a plain loop
// and checks that any level above 1, in any lane, is reported.
func TestCountZeroOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for n := range 41 {
		lv := make([]uint16, n)
		want := 0
		for i := range lv {
			lv[i] = uint16(rng.IntN(2))
			want += int(lv[i])
		}
		if got, ok := countZeroOne(lv); got != want || !ok {
			t.Fatalf("n=%d: %d, %v; want %d, true", n, got, ok, want)
		}
		for i := range lv {
			for _, bad := range []uint16{2, 3, 0x100, 0x8000} {
				old := lv[i]
				lv[i] = bad
				if _, ok := countZeroOne(lv); ok {
					t.Fatalf("n=%d: level %#x at %d not reported", n, bad, i)
				}
				lv[i] = old
			}
		}
	}
}
