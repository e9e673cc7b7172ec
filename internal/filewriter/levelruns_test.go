package filewriter

import (
	"math/rand/v2"
	"testing"

	"github.com/lancego/lancego/codecs"
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

// TestRLEChunkStats checks the run statistics chooseChildRLE sizes
// children from against the bytes codecs.EncodeRLE makes of the chunk.
func TestRLEChunkStats(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, bitsPer := range []int{8, 16, 32, 64} {
		for _, maxRun := range []int{1, 3, 300} {
			w := bitsPer / 8
			n := 5000
			data := make([]byte, 0, n*w)
			for len(data) < n*w {
				x := rng.Uint64() % 1000
				for range 1 + rng.IntN(maxRun) {
					for b := range w {
						data = append(data, byte(x>>(8*b)))
					}
				}
			}
			v := &codecs.Values{Kind: valFixed, N: n, Bits: bitsPer, Data: data[:n*w]}
			for _, span := range [][2]int{{0, n}, {17, 4000}, {4999, 5000}} {
				vals, lens, err := codecs.EncodeRLE(nil, nil, v.Data[span[0]*w:span[1]*w], bitsPer, 8, uint64(span[1]-span[0]))
				if err != nil {
					t.Fatal(err)
				}
				var orVal, orLen uint64
				for j := 0; j < len(vals); j += w {
					for b := range w {
						orVal |= uint64(vals[j+b]) << (8 * b)
					}
				}
				for _, l := range lens {
					orLen |= uint64(l)
				}
				runs, gv, gl := rleChunkStats(v, span[0], span[1])
				if runs != len(lens) || gv != orVal || gl != orLen {
					t.Fatalf("%d bits, runs ≤ %d, %v: stats (%d, %x, %x), bytes say (%d, %x, %x)", bitsPer, maxRun, span, runs, gv, gl, len(lens), orVal, orLen)
				}
			}
		}
	}
}

// TestLevelRunEntriesLongRunAlignment puts one run of 249-258 levels at
// every alignment against the four-level words among short runs, where
// the word-parallel count must give way to the exact one.
func TestLevelRunEntriesLongRunAlignment(t *testing.T) {
	for long := 249; long <= 258; long++ {
		for lead := 0; lead < 8; lead++ {
			var lv []uint16
			for i := range lead {
				lv = append(lv, uint16(i%2+1))
			}
			for range long {
				lv = append(lv, 0)
			}
			for i := range 9 {
				lv = append(lv, uint16(i%2+1))
			}
			if got, want := levelRunEntries(lv), levelRunEntriesPlain(lv); got != want {
				t.Fatalf("run of %d after %d: %v, want %v", long, lead, got, want)
			}
		}
	}
}
