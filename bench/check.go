package bench

import (
	"fmt"
	"sort"
	"strings"
)

// The gates of Check (`lance bench --check`, the CI step). Only figures
// that do not depend on the machine's speed are checked: round trips
// (counted by our reader) and bytes (counted at the proxy), never time
// ratios, which swing 1.5x and more between runs on a small shared machine.
const (
	// MaxWarmTakeRoundTrips is the most round trips of a take whose page
	// metadata is cached (every data request in one wave).
	MaxWarmTakeRoundTrips = 1
	// MaxColdTakeRoundTrips is the most round trips of a take right after
	// open: the missing chunk metadata of every column in one wave, then
	// the data.
	MaxColdTakeRoundTrips = 2
	// BytesSlack is the share of the exact lower bound's bytes a workload
	// may read beyond the coalesced bound (Bound.CoalescedBytes: the
	// needed ranges merged across gaps of up to CoalesceGap, as Lance
	// merges them): the cost model merges larger gaps while the bytes
	// read stay within DefaultMaxReadAmplification = 1.25 of those needed.
	BytesSlack = 0.25
	// ScanReadaheadBytes is the read-ahead of a scan per column (the
	// reader's scanReadaheadBytes, scancache.go): a scan requests its
	// pages up to this far ahead of the one it decodes, so it needs one
	// wave per window of this many bytes.
	ScanReadaheadBytes = 32 << 20
	// MaxDatasetOpenRequests is the most requests, at the proxy, of
	// opening a dataset's latest version (issue #20: list + manifest).
	MaxDatasetOpenRequests = 2
	// MaxDatasetColdTakeRequests is the most requests, at the proxy, of a
	// one-row take right after the open (issue #20): the data file's tail
	// and the data, plus its fragment's deletion file (the benchmark's
	// dataset has one in every fragment).
	MaxDatasetColdTakeRequests = 3
)

// MaxScanRoundTrips is the most round trips Check lets a scan with bound
// b take: one wave per read-ahead window of its bytes, plus one (a window
// is refilled one page at a time as the scan moves on).
func MaxScanRoundTrips(b Bound) float64 {
	return 1 + float64((b.Bytes+ScanReadaheadBytes-1)/ScanReadaheadBytes)
}

// MaxBytes is the most bytes Check lets a workload with bound b read:
// the coalesced bound plus BytesSlack of the exact one.
func MaxBytes(b Bound) float64 {
	return float64(b.CoalescedBytes) + BytesSlack*float64(b.Bytes)
}

// Check returns one line per deterministic object-store figure of ours
// that misses its gate: a warm take above MaxWarmTakeRoundTrips round
// trips, a cold take above MaxColdTakeRoundTrips, a scan above
// MaxScanRoundTrips, a scan or take reading
// more than MaxBytes of its lower bound, a dataset open or cold take
// above MaxDatasetOpenRequests or MaxDatasetColdTakeRequests requests
// (checkDataset), or such a figure missing. The
// open is not checked for bytes: it reads a 64 KiB suffix in one request,
// since the metadata's size is unknown before (pylance reads the same).
// No object-store figure at all is a failure too.
func (r *Results) Check() []string {
	var bad []string
	n := 0
	for _, wl := range r.workloads() {
		ours, ok := r.Figures[wl][EngineLanceGo]
		if !ok || !strings.HasPrefix(wl, "s3/") || strings.HasPrefix(wl, "s3/open/") {
			continue
		}
		n++
		if strings.HasPrefix(wl, S3DatasetPrefix) {
			bad = append(bad, checkDataset(wl, ours)...)
			continue
		}
		if strings.HasPrefix(wl, "s3/take/") {
			bad = append(bad, checkTake(wl, ours)...)
		}
		b, ok := r.Bounds[wl]
		if max := MaxScanRoundTrips(b.Bound); ok && strings.HasPrefix(wl, "s3/scan/") && (ours.RoundTrips <= 0 || ours.RoundTrips > max) {
			bad = append(bad, fmt.Sprintf("%s: scan %.2f round trips, want 1 to %.0f (one per %d MiB read ahead, plus one)",
				wl, ours.RoundTrips, max, ScanReadaheadBytes>>20))
		}
		switch {
		case !ok:
			bad = append(bad, wl+": no lower bound")
		case ours.BytesRead <= 0 || ours.BytesRead > MaxBytes(b.Bound):
			bad = append(bad, fmt.Sprintf("%s: %.0f bytes read, want at most %.0f (coalesced bound %d + %.2f × bound %d)",
				wl, ours.BytesRead, MaxBytes(b.Bound), b.CoalescedBytes, BytesSlack, b.Bytes))
		}
	}
	if n == 0 {
		bad = append(bad, "no object-store figures (is the S3 server up? "+strings.Join(notAvailable(r), "; ")+")")
	}
	return bad
}

// checkTake checks a take's warm and cold round trips (0: not counted,
// which is a failure too: the gate must not pass on missing figures).
func checkTake(wl string, m Measure) []string {
	var bad []string
	if m.RoundTrips <= 0 || m.RoundTrips > MaxWarmTakeRoundTrips {
		bad = append(bad, fmt.Sprintf("%s: warm take %.2f round trips, want 1 to %d", wl, m.RoundTrips, MaxWarmTakeRoundTrips))
	}
	if m.ColdRoundTrips <= 0 || m.ColdRoundTrips > MaxColdTakeRoundTrips {
		bad = append(bad, fmt.Sprintf("%s: cold take %.0f round trips after open, want 1 to %d", wl, m.ColdRoundTrips, MaxColdTakeRoundTrips))
	}
	return bad
}

// checkDataset checks the requests of a dataset workload behind the
// proxy: the open and the cold one-row take within their bounds (0 or
// less: not counted, a failure too).
func checkDataset(wl string, m Measure) []string {
	limit := 0
	switch strings.TrimPrefix(wl, S3DatasetPrefix) {
	case "open":
		limit = MaxDatasetOpenRequests
	case "cold_take":
		limit = MaxDatasetColdTakeRequests
	default:
		return nil
	}
	if m.Requests <= 0 || m.Requests > float64(limit) {
		return []string{fmt.Sprintf("%s: %.0f requests at the proxy, want 1 to %d", wl, m.Requests, limit)}
	}
	return nil
}

func notAvailable(r *Results) []string {
	var out []string
	for k, v := range r.NotAvailable {
		out = append(out, k+": "+v)
	}
	sort.Strings(out)
	return out
}
