package scheduler

import (
	"fmt"
	"slices"
)

// Range is a byte range [Off, Off+Len) of an object.
type Range struct {
	Off int64
	Len int64
}

// End returns Off+Len.
func (r Range) End() int64 { return r.Off + r.Len }

// group is one merged range and the parts it is read in.
type group struct {
	Range
	parts []Range
}

// plan coalesces ranges and splits merged ranges longer than
// c.MaxRequestSize into ceil(len/max) near-equal parts. Ranges are sorted
// by offset; duplicates, overlaps and touching ranges always merge; across
// gaps, merge decides (coalesce). Empty ranges are ignored.
func plan(ranges []Range, c Config) ([]group, error) {
	sorted := make([]Range, 0, len(ranges))
	for _, r := range ranges {
		if r.Off < 0 || r.Len < 0 {
			return nil, fmt.Errorf("%w: %+v", ErrInvalidRange, r)
		}
		if r.Len > 0 {
			sorted = append(sorted, r)
		}
	}
	slices.SortFunc(sorted, func(a, b Range) int { return int(min(max(a.Off-b.Off, -1), 1)) })
	var runs []group // disjoint, sorted, with gaps between them
	for _, r := range sorted {
		if n := len(runs); n > 0 && r.Off <= runs[n-1].End() {
			g := &runs[n-1]
			g.Len = max(g.End(), r.End()) - g.Off
			continue
		}
		runs = append(runs, group{Range: r})
	}
	groups := coalesce(runs, c)
	for i := range groups {
		groups[i].parts = split(groups[i].Range, c.MaxRequestSize)
	}
	return groups, nil
}

// coalesce merges runs (disjoint, sorted) across the gaps worth reading.
// Every gap of at most CoalesceGap bytes is merged. With a cost model
// (Config.FirstByteLatency and Bandwidth set), a larger gap is worth
// reading when that costs less than another request: a gap of g bytes
// costs g / Bandwidth, and a request FirstByteLatency shared by the
// MaxInFlightRequests that overlap, so gaps up to breakEvenGap are merged,
// the smallest first, while the bytes read stay within
// MaxReadAmplification times the bytes needed.
func coalesce(runs []group, c Config) []group {
	if len(runs) < 2 {
		return runs
	}
	join := make([]bool, len(runs)-1) // join[i]: merge runs i and i+1
	gap := func(i int) int64 { return runs[i+1].Off - runs[i].End() }
	var needed, read int64
	for i, r := range runs {
		needed += r.Len
		if i < len(join) && gap(i) <= c.CoalesceGap {
			join[i] = true
			read += gap(i)
		}
	}
	if limit := breakEvenGap(c); limit > c.CoalesceGap {
		amp := c.MaxReadAmplification
		if amp < 1 {
			amp = DefaultMaxReadAmplification
		}
		joinCheapest(join, gap, limit, int64((amp-1)*float64(needed))-read)
	}
	out := runs[:1]
	for i, j := range join {
		if j {
			g := &out[len(out)-1]
			g.Len = runs[i+1].End() - g.Off
		} else {
			out = append(out, runs[i+1])
		}
	}
	return out
}

// joinCheapest marks, smallest first, the gaps not yet joined of at most
// limit bytes, while their sum stays within budget.
func joinCheapest(join []bool, gap func(int) int64, limit, budget int64) {
	var cands []int
	for i, j := range join {
		if !j && gap(i) <= limit {
			cands = append(cands, i)
		}
	}
	slices.SortStableFunc(cands, func(a, b int) int { return int(min(max(gap(a)-gap(b), -1), 1)) })
	for _, i := range cands {
		if gap(i) > budget {
			return
		}
		budget -= gap(i)
		join[i] = true
	}
}

// breakEvenGap is the gap whose reading costs as much as one more request
// (0 without a cost model): FirstByteLatency × Bandwidth bytes, divided
// by MaxInFlightRequests, since that many requests overlap their waits.
func breakEvenGap(c Config) int64 {
	if c.FirstByteLatency <= 0 || c.Bandwidth <= 0 {
		return 0
	}
	overlap := min(max(1, c.MaxInFlightRequests), costModelMaxOverlap)
	b := c.FirstByteLatency.Seconds() * float64(c.Bandwidth) / float64(overlap)
	return int64(min(b, 1<<62))
}

// costModelMaxOverlap caps how many requests the cost model lets share a
// first-byte wait: past 64 at once, what a request costs is the server's
// and the network's work per request (about 1 ms of the test server's
// CPU each, docs/benchmarks.md), not waiting, so a larger in-flight limit
// does not make gaps less worth reading.
const costModelMaxOverlap = 64

// split cuts r into ceil(r.Len/maxReq) near-equal parts.
func split(r Range, maxReq int64) []Range {
	n := (r.Len + maxReq - 1) / maxReq
	parts := make([]Range, 0, n)
	base, extra := r.Len/n, r.Len%n
	off := r.Off
	for i := range n {
		l := base
		if i < extra {
			l++
		}
		parts = append(parts, Range{Off: off, Len: l})
		off += l
	}
	return parts
}
