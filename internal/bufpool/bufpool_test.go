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

// TestFullPoolDropsOldest: a full pool keeps a newly freed buffer by
// dropping the buffers it kept longest ago, so a new workload's sizes are
// reused instead of an earlier one's crowding them out.
func TestFullPoolDropsOldest(t *testing.T) {
	p := New(1 << 20)
	old := [][]byte{p.Allocate(300 << 10), p.Allocate(300 << 10), p.Allocate(200 << 10)}
	for _, b := range old {
		p.Free(b)
	}
	held := cap(old[0]) + cap(old[1]) + cap(old[2])
	if p.Held() != held {
		t.Fatalf("held %d, want %d", p.Held(), held)
	}
	nb := p.Allocate(400 << 10)
	p.Free(nb) // 320+320+224+448 KiB > 1 MiB: old[0], the oldest, goes
	if want := held - cap(old[0]) + cap(nb); p.Held() != want {
		t.Fatalf("held %d after a full pool's free, want %d", p.Held(), want)
	}
	if b := p.Allocate(400 << 10); &b[0] != &nb[0] {
		t.Fatal("the newest buffer was not kept")
	}
	if b := p.Allocate(200 << 10); &b[0] != &old[2][0] {
		t.Fatal("a buffer that fit was dropped")
	}
	if b := p.Allocate(300 << 10); &b[0] != &old[1][0] {
		t.Fatal("the second oldest buffer was dropped, or the oldest kept")
	}
	if p.Held() != 0 {
		t.Fatalf("held %d with everything taken", p.Held())
	}
}
