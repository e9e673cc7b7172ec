package lanceiotest

import (
	"context"
	"strings"
	"testing"
	"time"
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

// testListAll checks that ListAll returns every object under a prefix,
// subdirectories included, sorted, with sizes and recent modification
// times, and nothing for a missing prefix.
func (s *suite) testListAll(t *testing.T) {
	ctx := context.Background()
	dir := s.prefix + "/listall"
	want := map[string]int{"a/1.lance": 5, "a/b/2.lance": 3, "c.json": 0, "z": 9}
	for name, n := range want {
		s.put(t, "listall/"+name, Data(uint64(n), n))
	}
	s.put(t, "listall_other/x", Data(2, 2)) // shares the prefix, not the directory
	got, err := s.h.Store.ListAll(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("ListAll(%s) = %v, want the %d objects %v", dir, got, len(want), want)
	}
	for i, e := range got {
		if i > 0 && got[i-1].Key >= e.Key {
			t.Fatalf("ListAll not sorted: %v", got)
		}
		n, ok := want[strings.TrimPrefix(e.Key, dir+"/")]
		if !ok || int64(n) != e.Size {
			t.Fatalf("ListAll entry %+v: want one of %v with its size", e, want)
		}
		if age := time.Since(e.ModTime); age > time.Hour || age < -time.Hour {
			t.Fatalf("ListAll entry %+v: modification time %v from now", e, age)
		}
	}
	none, err := s.h.Store.ListAll(ctx, s.prefix+"/listall/missing")
	if err != nil || len(none) != 0 {
		t.Fatalf("ListAll of a missing prefix = %v, %v; want empty, nil", none, err)
	}
}
