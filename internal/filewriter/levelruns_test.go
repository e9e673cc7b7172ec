package filewriter

import (
	"math/rand/v2"
	"testing"
)

// levelRunEntriesPlain is the run count levelRunEntries computes without
// branches, one run at a time.
func levelRunEntriesPlain(levels []uint16) [3]int {
	var e [3]int
	for i := 0; i < len(levels); {
		j := i + 1
		for j < len(levels) && levels[j] == levels[i] {
			j++
		}
		n := j - i
		e[0] += (n + 254) / 255
		e[1] += (n + 65534) / 65535
		e[2]++
		i = j
	}
	return e
}

// TestLevelRunEntries checks the branch-free count against the plain one
// on runs of every length class, 255 and 65535 boundaries included.
func TestLevelRunEntries(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, maxRun := range []int{1, 3, 254, 255, 256, 511, 65535, 65536, 200000} {
		for trial := 0; trial < 5; trial++ {
			var lv []uint16
			for len(lv) < 300000 {
				n := 1 + rng.IntN(maxRun)
				if trial == 0 {
					n = maxRun
				}
				v := uint16(rng.IntN(3))
				for range n {
					lv = append(lv, v)
				}
			}
			if got, want := levelRunEntries(lv), levelRunEntriesPlain(lv); got != want {
				t.Fatalf("maxRun %d trial %d: %v, want %v", maxRun, trial, got, want)
			}
		}
	}
	if got := levelRunEntries(nil); got != [3]int{} {
		t.Fatalf("empty: %v", got)
	}
}

func BenchmarkLevelRunEntries(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	lv := make([]uint16, 1<<20)
	for i := range lv {
		lv[i] = uint16(rng.IntN(3) / 2)
	}
	for _, f := range []struct {
		name string
		fn   func([]uint16) [3]int
	}{{"branchless", levelRunEntries}, {"plain", levelRunEntriesPlain}} {
		b.Run(f.name, func(b *testing.B) {
			for b.Loop() {
				f.fn(lv)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(lv)), "ns/level")
		})
	}
}
