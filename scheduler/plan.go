package scheduler

import (
	"fmt"
	"slices"
	"time"
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
// Without a cost model every gap of at most CoalesceGap bytes is merged.
// With one (Config.FirstByteLatency and Bandwidth set), gaps are read,
// the smallest first, while that shortens the reads' modelled time
// (readTime): gaps the link carries within a request's own overhead
// (requestOverhead × Bandwidth) always, others of up to CoalesceGap while
// requests rather than bytes bound the time, and beyond CoalesceGap gaps
// of up to breakEvenGap while the bytes read also stay within
// MaxReadAmplification times the bytes needed.
func coalesce(runs []group, c Config) []group {
	if len(runs) < 2 {
		return runs
	}
	join := make([]bool, len(runs)-1) // join[i]: merge runs i and i+1
	gap := func(i int) int64 { return runs[i+1].Off - runs[i].End() }
	if breakEvenGap(c) == 0 {
		for i := range join {
			join[i] = gap(i) <= c.CoalesceGap
		}
	} else {
		joinByModel(join, gap, runs, c)
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

// joinByModel marks the gaps the cost model reads (see coalesce).
func joinByModel(join []bool, gap func(int) int64, runs []group, c Config) {
	var needed int64
	for _, r := range runs {
		needed += r.Len
	}
	always := min(c.CoalesceGap, int64(requestOverhead.Seconds()*float64(c.Bandwidth)))
	limit := max(c.CoalesceGap, breakEvenGap(c))
	var cands []int
	reqs, read := int64(len(runs)), needed
	for i := range join {
		switch g := gap(i); {
		case g <= always:
			join[i] = true
			reqs--
			read += g
		case g <= limit:
			cands = append(cands, i)
		}
	}
	slices.SortStableFunc(cands, func(a, b int) int { return int(min(max(gap(a)-gap(b), -1), 1)) })
	amp := c.MaxReadAmplification
	if amp < 1 {
		amp = DefaultMaxReadAmplification
	}
	budget := int64((amp-1)*float64(needed)) - (read - needed)
	for _, i := range cands {
		g := gap(i)
		if g > c.CoalesceGap && g > budget {
			return
		}
		if readTime(reqs-1, read+g, c) > readTime(reqs, read, c) {
			return
		}
		join[i] = true
		reqs--
		read += g
		budget -= g
	}
}

// readTime models the seconds n requests of bytes in all take: the link
// carries the bytes in bytes / Bandwidth, and each request waits
// FirstByteLatency shared by the costOverlap requests whose waits
// overlap; the larger of the two bounds the time and the smaller adds its
// share that does not overlap. One request at a time (no overlap) adds
// them up.
func readTime(n, bytes int64, c Config) float64 {
	overlap := float64(costOverlap(c))
	link := float64(bytes) / float64(c.Bandwidth)
	wait := float64(n) * c.FirstByteLatency.Seconds() / overlap
	return max(link, wait) + min(link, wait)/overlap
}

// costOverlap is how many requests' waits the cost model lets overlap:
// MaxInFlightRequests, up to costModelMaxOverlap.
func costOverlap(c Config) int { return min(max(1, c.MaxInFlightRequests), costModelMaxOverlap) }

// requestOverhead is what a request costs beyond its wait: the reader's
// CPU for an object-store request, about 0.1 ms here (docs/benchmarks.md).
// A gap the link carries in less is always read, so that one request
// never turns into several to save a few bytes (a page's buffers, apart
// by their alignment, are read as one).
const requestOverhead = 100 * time.Microsecond

// breakEvenGap is the gap whose reading costs as much as one more request
// (0 without a cost model): FirstByteLatency × Bandwidth bytes, divided
// by MaxInFlightRequests, since that many requests overlap their waits.
func breakEvenGap(c Config) int64 {
	if c.FirstByteLatency <= 0 || c.Bandwidth <= 0 {
		return 0
	}
	b := c.FirstByteLatency.Seconds() * float64(c.Bandwidth) / float64(costOverlap(c))
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
