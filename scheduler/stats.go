package scheduler

import (
	"container/heap"
	"sync/atomic"
)

// Stats is a snapshot of scheduler counters.
type Stats struct {
	Submits          int64 // Submit calls
	Ranges           int64 // non-empty ranges submitted
	Coalesced        int64 // ranges merged into another (Ranges - merged groups)
	Requests         int64 // reads issued (after coalescing and splitting)
	BytesRequested   int64 // bytes read, gaps included
	BytesDelivered   int64 // bytes of successful reads
	BytesUsed        int64 // bytes handed to callers (sum of range lengths)
	MaxInFlight      int64 // most concurrent reads observed
	MaxInFlightBytes int64 // most bytes held observed
	Backpressure     int64 // times the byte budget held back a request
	Views            int64 // requests served from a memory map (no read, no copy)
	// RoundTrips sums the round trips of the tracked operations this
	// scheduler served (see Track): each one's longest chain of requests
	// that waited for another's answer. Operations counts them.
	RoundTrips int64
	Operations int64
	// LinkBandwidth is the bandwidth, in bytes per second, the
	// scheduler's reads measured (link.go): what the cost model
	// plans with in place of Config.Bandwidth. 0 until measured, and
	// without a cost model (local files), which measures nothing.
	LinkBandwidth int64
}

type counters struct {
	submits, ranges, coalesced, requests, bytesRequested atomic.Int64
	bytesDelivered, bytesUsed, maxInFlight, maxBytes     atomic.Int64
	backpressure, views, roundTrips, operations          atomic.Int64
}

// Stats returns current counters.
func (s *Scheduler) Stats() Stats {
	c := &s.stats
	return Stats{Submits: c.submits.Load(), Ranges: c.ranges.Load(), Coalesced: c.coalesced.Load(),
		Requests: c.requests.Load(), BytesRequested: c.bytesRequested.Load(),
		BytesDelivered: c.bytesDelivered.Load(), BytesUsed: c.bytesUsed.Load(),
		MaxInFlight: c.maxInFlight.Load(), MaxInFlightBytes: c.maxBytes.Load(),
		Backpressure: c.backpressure.Load(), Views: c.views.Load(),
		RoundTrips: c.roundTrips.Load(), Operations: c.operations.Load(),
		LinkBandwidth: s.link.bandwidth()}
}

func (c *counters) record(ranges []Range, groups []group) {
	n := int64(0)
	for _, r := range ranges {
		if r.Len > 0 {
			n++
		}
	}
	c.submits.Add(1)
	c.ranges.Add(n)
	c.coalesced.Add(n - int64(len(groups)))
}

func (c *counters) started(inflight int, bytes int64, n int64) {
	c.requests.Add(1)
	c.bytesRequested.Add(n)
	storeMax(&c.maxInFlight, int64(inflight))
	storeMax(&c.maxBytes, bytes)
}

// viewed counts a request served by a view of n bytes.
func (c *counters) viewed(n int64) {
	c.requests.Add(1)
	c.views.Add(1)
	c.bytesRequested.Add(n)
	c.bytesDelivered.Add(n)
}

func (c *counters) delivered(n int64) { c.bytesDelivered.Add(n) }

func (c *counters) used(ranges []Range) {
	for _, r := range ranges {
		c.bytesUsed.Add(r.Len)
	}
}

func storeMax(a *atomic.Int64, v int64) {
	for {
		old := a.Load()
		if v <= old || a.CompareAndSwap(old, v) {
			return
		}
	}
}

func rebuild(h *taskHeap) { heap.Init(h) }
