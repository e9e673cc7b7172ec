package bufpool

import "testing"

// TestClasses checks that every size maps to the smallest class that holds
// it, and that class sizes grow.
func TestClasses(t *testing.T) {
	prev := 0
	for c := 0; c < numClasses; c++ {
		s := classSize(c)
		if s <= prev {
			t.Fatalf("class %d size %d not above %d", c, s, prev)
		}
		for _, size := range []int{prev + 1, s} {
			if size < MinSize {
				continue
			}
			got, ok := classOf(size)
			if size <= MaxSize && (!ok || got != c) {
				t.Fatalf("classOf(%d) = %d, %v; want %d", size, got, ok, c)
			}
		}
		prev = s
	}
	if _, ok := classOf(MinSize - 1); ok {
		t.Fatal("a size below MinSize has a class")
	}
	if _, ok := classOf(MaxSize + 1); ok {
		t.Fatal("a size above MaxSize has a class")
	}
}

// TestReuse checks that a freed buffer is reused for a size of its class,
// zeroed by Allocate, and that the byte limit holds.
func TestReuse(t *testing.T) {
	p := New(1 << 20)
	a := p.Allocate(100 << 10)
	for i := range a {
		a[i] = 7
	}
	p.Free(a)
	if p.Held() != cap(a) {
		t.Fatalf("held %d after freeing %d", p.Held(), cap(a))
	}
	b := p.Allocate(110 << 10) // same class as 100 KiB (112 KiB)
	if &b[0] != &a[0] {
		t.Fatal("freed buffer not reused")
	}
	for i, x := range b {
		if x != 0 {
			t.Fatalf("byte %d of a reused buffer is %d", i, x)
		}
	}
	if p.Held() != 0 {
		t.Fatalf("held %d with nothing free", p.Held())
	}
	big := p.Allocate(2 << 20)
	p.Free(big) // above the limit: dropped
	if p.Held() != 0 {
		t.Fatalf("held %d past the limit", p.Held())
	}
	p.Free(make([]byte, 100<<10)) // not a class capacity: dropped
	if p.Held() != 0 {
		t.Fatal("kept a foreign buffer")
	}
	small := p.Allocate(100)
	if len(small) != 100 {
		t.Fatalf("small allocation of %d bytes", len(small))
	}
	r := p.Reallocate(200<<10, b)
	if len(r) != 200<<10 || r[0] != 0 {
		t.Fatalf("reallocate: %d bytes", len(r))
	}
}
