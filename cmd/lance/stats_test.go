package main

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	lance "github.com/lancego/lancego"
)

// TestCatStatsRoundTrips checks that --stats reports the round trips and
// operations of an open plus a scan or a take.
func TestCatStatsRoundTrips(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		minRT   int64
		wantOps int64
	}{
		{[]string{"cat", "samples/struct_with_list.2.1.lance", "--stats"}, 1, 2},
		{[]string{"cat", "samples/struct_with_list.2.1.lance", "--take", "0,1", "--stats"}, 1, 2},
	} {
		var out, errb bytes.Buffer
		if err := run(context.Background(), tc.args, &out, &errb); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		var st lance.Stats
		if err := json.Unmarshal(errb.Bytes(), &st); err != nil {
			t.Fatalf("%v: stats %q: %v", tc.args, errb.String(), err)
		}
		if st.RoundTrips < tc.minRT || st.RoundTrips > st.Requests || st.Operations != tc.wantOps {
			t.Errorf("%v: round_trips %d (requests %d), operations %d; want round trips in [%d, requests], %d operations",
				tc.args, st.RoundTrips, st.Requests, st.Operations, tc.minRT, tc.wantOps)
		}
		if !bytes.Contains(errb.Bytes(), []byte(`"round_trips":`)) {
			t.Errorf("%v: no round_trips in %s", tc.args, errb.String())
		}
	}
}
