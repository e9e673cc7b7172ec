package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/lancego/lancego/bench"
)

// TestBenchCheck checks that `lance bench --check` fails, naming the
// workload, when a figure misses its gate, and passes otherwise.
func TestBenchCheck(t *testing.T) {
	bound := bench.BoundFig{Bound: bench.Bound{Requests: 2, Bytes: 100, CoalescedRequests: 1, CoalescedBytes: 100}}
	cases := []struct {
		name    string
		take    bench.Measure
		wantErr bool
	}{
		{"within", bench.Measure{Requests: 1, BytesRead: 100, RoundTrips: 1, ColdRoundTrips: 2}, false},
		{"cold take in three waves", bench.Measure{Requests: 1, BytesRead: 100, RoundTrips: 1, ColdRoundTrips: 3}, true},
		{"bytes beyond the slack", bench.Measure{Requests: 1, BytesRead: 126, RoundTrips: 1, ColdRoundTrips: 1}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := &bench.Results{
				Figures: map[string]map[string]bench.Measure{"s3/take/table/100": {bench.EngineLanceGo: c.take}},
				Bounds:  map[string]bench.BoundFig{"s3/take/table/100": bound},
			}
			var stderr strings.Builder
			err := checkBench(res, &stderr)
			if got := errors.Is(err, errBenchCheck); got != c.wantErr {
				t.Fatalf("err = %v, want failure %v", err, c.wantErr)
			}
			if c.wantErr && !strings.Contains(stderr.String(), "s3/take/table/100") {
				t.Errorf("the failure does not name the workload: %s", stderr.String())
			}
		})
	}
}
