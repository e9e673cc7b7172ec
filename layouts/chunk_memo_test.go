package layouts

import "testing"

// TestLevelBufferReuse checks that a level buffer is lent again only after
// ReclaimLevels, and never while it is still lent.
func TestLevelBufferReuse(t *testing.T) {
	a := &ChunkArena{}
	first := append(a.levelBuffer(100), 1, 2, 3)
	second := append(a.levelBuffer(100), 4)
	if &first[0] == &second[0] {
		t.Fatal("a lent buffer was lent twice")
	}
	a.ReclaimLevels()
	again := append(a.levelBuffer(50), 5)
	if &again[0] != &first[0] && &again[0] != &second[0] {
		t.Fatal("a reclaimed buffer was not reused")
	}
	if big := a.levelBuffer(1000); cap(big) < 1000 {
		t.Fatalf("levelBuffer(1000) has room for %d", cap(big))
	}
	var none *ChunkArena
	if b := none.levelBuffer(10); cap(b) < 10 || len(b) != 0 {
		t.Fatalf("nil arena: len %d cap %d", len(b), cap(b))
	}
	none.ReclaimLevels()
}
