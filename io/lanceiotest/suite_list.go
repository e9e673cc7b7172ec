package lanceiotest

import (
	"context"
	"testing"
)

// testList checks that List returns exactly the objects directly under a
// prefix, sorted, with their sizes, and nothing for a missing prefix.
func (s *suite) testList(t *testing.T) {
	ctx := context.Background()
	dir := s.prefix + "/list/_versions"
	want := map[string]int{"2.manifest": 7, "10.manifest": 3, "latest_version_hint.json": 0}
	for name, n := range want {
		s.put(t, "list/_versions/"+name, Data(uint64(n), n))
	}
	s.put(t, "list/_versions/sub/deeper.manifest", Data(1, 1)) // not directly under dir
	s.put(t, "list/_versions_other", Data(2, 2))               // shares the prefix, not the directory
	got, err := s.h.Store.List(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("List(%s) = %v, want the %d objects %v", dir, got, len(want), want)
	}
	for i, e := range got {
		if i > 0 && got[i-1].Key >= e.Key {
			t.Fatalf("List not sorted: %v", got)
		}
		n, ok := want[e.Key[len(dir)+1:]]
		if !ok || int64(n) != e.Size {
			t.Fatalf("List entry %+v: want one of %v with its size", e, want)
		}
	}
	none, err := s.h.Store.List(ctx, s.prefix+"/list/missing")
	if err != nil || len(none) != 0 {
		t.Fatalf("List of a missing prefix = %v, %v; want empty, nil", none, err)
	}
}
