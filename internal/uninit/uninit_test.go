package uninit

import (
	"runtime"
	"testing"
)

func TestBytesLengthAndIndependence(t *testing.T) {
	for _, n := range []int{0, 1, MinBytes - 1, MinBytes, 1 << 20, 3<<20 + 7} {
		a, b := Bytes(n), Bytes(n)
		if len(a) != n || cap(a) != n {
			t.Fatalf("Bytes(%d): len %d cap %d", n, len(a), cap(a))
		}
		for i := range a {
			a[i] = 0xAA
		}
		for i := range b {
			b[i] = 0x55
		}
		runtime.GC() // the buffers must stay alive through a collection
		for i := range a {
			if a[i] != 0xAA {
				t.Fatalf("Bytes(%d): buffers overlap at %d", n, i)
			}
		}
	}
}

func TestGrowKeepsContents(t *testing.T) {
	var b []byte
	for i := range 100_000 {
		b = Grow(b, 1)
		b = append(b, byte(i))
	}
	for i := range b {
		if b[i] != byte(i) {
			t.Fatalf("byte %d = %d", i, b[i])
		}
	}
	if g := Grow(b[:10:20], 5); cap(g) != 20 {
		t.Fatalf("Grow within capacity reallocated: cap %d", cap(g))
	}
}

func BenchmarkBytes8MiB(b *testing.B) {
	for b.Loop() {
		buf := Bytes(8 << 20)
		buf[0] = 1
	}
	b.SetBytes(8 << 20)
}

func BenchmarkMake8MiB(b *testing.B) {
	for b.Loop() {
		buf := make([]byte, 8<<20)
		buf[0] = 1
	}
	b.SetBytes(8 << 20)
}

// TestInt64sLength checks lengths and that two slices do not overlap.
func TestInt64sLength(t *testing.T) {
	for _, n := range []int{0, 1, 100, 1 << 16} {
		a, b := Int64s(n), Int64s(n)
		if len(a) != n || len(b) != n {
			t.Fatalf("Int64s(%d): lengths %d, %d", n, len(a), len(b))
		}
		for i := range a {
			a[i], b[i] = int64(i), -1
		}
		for i, x := range a {
			if x != int64(i) {
				t.Fatalf("Int64s(%d): slot %d overwritten by another slice", n, i)
			}
		}
	}
}
