package filewriter

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestGatherFSLBool: contiguous rows of fixed_size_list<bool> without nulls
// give their items' bits from bit 0 whether the bitmap is sliced in place
// (items start on a byte) or gathered (they do not, or the array is a
// slice), and rows with nulls are gathered with their validity.
func TestGatherFSLBool(t *testing.T) {
	dt := arrow.FixedSizeListOf(3, arrow.FixedWidthTypes.Boolean)
	var rows []string
	for i := range 20 {
		rows = append(rows, []string{"[true,false,true]", "[false,false,true]", "[true,true,false]"}[i%3])
	}
	full, _, err := array.FromJSON(memory.NewGoAllocator(), dt, strings.NewReader("["+strings.Join(rows, ",")+"]"))
	if err != nil {
		t.Fatal(err)
	}
	withNulls, _, err := array.FromJSON(memory.NewGoAllocator(), dt, strings.NewReader(`[[true,null,true],null,[false,true,true]]`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		a      arrow.Array
		lo, hi int
	}{
		{"from_0", full, 0, 20},
		{"from_byte", full, 8, 19},
		{"mid_byte", full, 3, 11},
		{"slice", array.NewSlice(full, 1, 17), 0, 16},
		{"nulls", withNulls, 0, 3},
	} {
		idx := make([]int, 0, c.hi-c.lo)
		for i := c.lo; i < c.hi; i++ {
			idx = append(idx, i)
		}
		v, err := gatherValues(c.a, idx, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		fl := c.a.(*array.FixedSizeList)
		items := fl.ListValues().(*array.Boolean)
		for j, r := range idx {
			for d := 0; d < 3; d++ {
				k := (r+fl.Data().Offset())*3 + d
				want := fl.IsValid(r) && items.IsValid(k) && items.Value(k)
				if got := bitutil.BitIsSet(v.Data, j*3+d); got != want {
					t.Fatalf("%s: row %d item %d = %v, want %v", c.name, r, d, got, want)
				}
				if l := v.FSL[0].Validity; l != nil && bitutil.BitIsSet(l, j*3+d) != (fl.IsValid(r) && items.IsValid(k)) {
					t.Fatalf("%s: row %d item %d validity differs", c.name, r, d)
				}
			}
		}
		if v.Bits != 1 || len(v.FSL) != 1 || (c.name == "nulls") != (v.FSL[0].Validity != nil) {
			t.Fatalf("%s: bits %d, layers %+v", c.name, v.Bits, v.FSL)
		}
	}
}
