package filewriter

import (
	"runtime"

	"golang.org/x/sync/errgroup"
)

// fsstPieceBytes is the smallest amount of variable-width data (string
// bytes) given to one goroutine when a page's values are encoded in
// pieces (FSST compression, full-zip rows).
const fsstPieceBytes = 1 << 20

// parallelFor runs fn(0..n-1) on up to GOMAXPROCS goroutines and returns
// when all calls have returned (no goroutine outlives it).
func parallelFor(n int, fn func(i int)) {
	workers := min(n, runtime.GOMAXPROCS(0))
	if workers <= 1 {
		for i := 0; i < n; i++ {
			fn(i)
		}
		return
	}
	var g errgroup.Group
	g.SetLimit(workers)
	for i := range n {
		g.Go(func() error {
			fn(i)
			return nil
		})
	}
	_ = g.Wait() // fn reports nothing
}

// splitByBytes cuts the values of offsets (n+1 entries) into pieces of
// about target bytes each, at most 4×GOMAXPROCS of them; it returns the
// piece boundaries (value indexes, first 0, last n).
func splitByBytes(offsets []uint64, target int) []int {
	n := len(offsets) - 1
	total := offsets[n] - offsets[0]
	pieces := min(int(total/uint64(max(target, 1))), 4*runtime.GOMAXPROCS(0))
	if runtime.GOMAXPROCS(0) == 1 || pieces <= 1 || n < 2 {
		return []int{0, n}
	}
	cuts := []int{0}
	for k := 1; k < pieces; k++ {
		want := offsets[0] + total*uint64(k)/uint64(pieces)
		i := cuts[len(cuts)-1]
		// first value ending after want
		lo, hi := i, n
		for lo < hi {
			m := (lo + hi) / 2
			if offsets[m+1] <= want {
				lo = m + 1
			} else {
				hi = m
			}
		}
		if lo+1 < n && lo+1 > cuts[len(cuts)-1] {
			cuts = append(cuts, lo+1)
		}
	}
	return append(cuts, n)
}
