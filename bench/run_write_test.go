package bench

import (
	"strings"
	"testing"
)

// TestSpreadMeasure checks the write step's median and spread.
func TestSpreadMeasure(t *testing.T) {
	for _, c := range []struct {
		times         []float64
		med, min, max float64
	}{
		{[]float64{3, 1, 2}, 2, 1, 3},
		{[]float64{4, 1, 2, 3}, 2.5, 1, 4},
		{[]float64{5}, 5, 5, 5},
	} {
		m := spreadMeasure(c.times, Measure{Rows: 7})
		if m.Seconds != c.med || m.MinSeconds != c.min || m.MaxSeconds != c.max || m.Runs != len(c.times) || m.Rows != 7 {
			t.Errorf("%v: got %+v", c.times, m)
		}
	}
	if m := spreadMeasure(nil, Measure{Seconds: 9}); m.Seconds != 9 || m.Runs != 0 {
		t.Errorf("no runs: %+v", m)
	}
}

// TestWriteTable checks the steady-state write table's cells, fsync cost
// among them.
func TestWriteTable(t *testing.T) {
	r := &Results{Figures: map[string]map[string]Measure{"write/table": {
		EngineLanceGo: {Seconds: 1, MinSeconds: 0.9, MaxSeconds: 1.2, Runs: 5, TmpfsSeconds: 0.75},
		EnginePylance: {Seconds: 2, MinSeconds: 1.8, MaxSeconds: 2.5, Runs: 5, TmpfsSeconds: 1.5},
	}}}
	var b strings.Builder
	r.writeTable(&b)
	for _, want := range []string{"| `write/table` | 1 s (0.9–1.2, 5) | 2 s (1.8–2.5, 5) | 2.00x | 0.75 / 1.5 s, 2.00x | 0.25 s (25%) |"} {
		if !strings.Contains(b.String(), want) {
			t.Fatalf("missing %q in\n%s", want, b.String())
		}
	}
}
