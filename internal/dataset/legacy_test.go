package dataset

import (
	"slices"
	"testing"

	"github.com/lancego/lancego/format/pb/filepb"
)

func TestLegacyIDRange(t *testing.T) {
	for _, tc := range []struct {
		ids    []int32
		lo, hi int32
		ok     bool
	}{
		{[]int32{0, 1, 2, 3}, 0, 3, true},
		{[]int32{2, 3}, 2, 3, true},    // add_columns file
		{[]int32{1, 5, 3}, 1, 5, true}, // first listed to largest (Lance's rule)
		{[]int32{4, 2}, 4, 4, true},    // unsorted: the range starts at the first
		{nil, 0, 0, false},             // no fields
		{[]int32{-2, 1}, 0, 0, false},  // tombstoned first field
		{[]int32{7}, 7, 7, true},
	} {
		d := DataFile{Fields: tc.ids}
		lo, hi, ok := d.LegacyIDRange()
		if ok != tc.ok || (ok && (lo != tc.lo || hi != tc.hi)) {
			t.Errorf("%v: got %d..%d %v, want %d..%d %v", tc.ids, lo, hi, ok, tc.lo, tc.hi, tc.ok)
		}
	}
}

func TestFieldsOf(t *testing.T) {
	f := func(name string, id, parent int32) *filepb.Field {
		return &filepb.Field{Name: name, Id: id, ParentId: parent}
	}
	schema := []*filepb.Field{f("x", 0, -1), f("st", 1, -1), f("a", 2, 1), f("b", 3, 1), f("y", 5, -1)}
	for _, tc := range []struct {
		ids  []int32
		want []string
	}{
		{[]int32{0, 1, 2, 3, 4}, []string{"x", "st", "a", "b"}}, // 4: dropped since
		{[]int32{5}, []string{"y"}},
		{[]int32{3, 1, 2}, []string{"st", "a", "b"}}, // schema order, not the list's
		{nil, nil},
	} {
		var got []string
		for _, g := range FieldsOf(schema, tc.ids) {
			got = append(got, g.GetName())
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%v: got %v, want %v", tc.ids, got, tc.want)
		}
	}
}
