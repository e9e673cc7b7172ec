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

// plan coalesces ranges (sorted by offset; duplicates and overlaps merge;
// gaps <= gap merge) and splits merged ranges longer than maxReq into
// ceil(len/maxReq) near-equal parts. Empty ranges are ignored.
func plan(ranges []Range, gap, maxReq int64) ([]group, error) {
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
	var groups []group
	for _, r := range sorted {
		if n := len(groups); n > 0 && r.Off <= groups[n-1].End()+gap {
			g := &groups[n-1]
			g.Len = max(g.End(), r.End()) - g.Off
			continue
		}
		groups = append(groups, group{Range: r})
	}
	for i := range groups {
		groups[i].parts = split(groups[i].Range, maxReq)
	}
	return groups, nil
}

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
