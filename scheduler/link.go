package scheduler

import (
	"sync/atomic"
	"time"
)

// Measuring the link. The coalescing cost model weighs the bytes of a gap
// against another request, so it needs the bandwidth the scheduler's reads
// share. Config.Bandwidth is a guess (1 GiB/s on object stores); once
// reads have filled the link, the scheduler plans with what they measured.
//
// A busy spell is a stretch of time during which reads are in flight
// without a break. Its first bytes arrive a first-byte latency after it
// starts (the shortest read seen so far is taken as that latency), so the
// rate the link delivered then is the spell's bytes over its length less
// that latency, when the link, not the requests, bounded it: when its
// requests' waits (n × the latency / overlap, as readTime counts them)
// could explain at most half of it. Spells bound by requests (a take of
// many small rows, where the store's work per request sets the pace) say
// nothing about the link and are no sample. The measured bandwidth is the
// highest of the last linkSamples samples: a spell that did not keep the
// link full (the reader was busy decoding) only lowers a sample, which
// the highest one ignores. Taking too short a latency lowers a sample
// too; too long a one (no small read seen yet) can raise it, which at
// worst plans as if the link were as fast as Config.Bandwidth says.

const (
	// linkSamples is how many recent spells the measured bandwidth is
	// the highest rate of.
	linkSamples = 16
	// linkMinBytes and linkMinSpell are the least bytes and time of a
	// spell that is a sample.
	linkMinBytes = 4 << 20
	linkMinSpell = 5 * time.Millisecond
)

// linkMeter measures the bandwidth of a scheduler's reads. Its methods but
// bandwidth are called with the scheduler's mutex held.
type linkMeter struct {
	latency  time.Duration // the shortest read seen (0: none yet)
	start    time.Time     // of the current spell
	bytes    int64         // delivered in the current spell
	requests int64         // ended in the current spell
	samples  [linkSamples]float64
	n        int          // samples taken (the next goes to samples[n%linkSamples])
	best     atomic.Int64 // highest of the samples, bytes per second
}

// started records that a read started at now, with inflight reads
// running counting it.
func (m *linkMeter) started(inflight int, now time.Time) {
	if inflight == 1 {
		m.start, m.bytes, m.requests = now, 0, 0
	}
}

// ended records that a read of n bytes (0 if it failed) ended at now,
// took took, and left inflight reads running; the spell ends with the
// last, and is a sample when the link bounded it (overlap: how many
// requests' waits the cost model lets overlap).
func (m *linkMeter) ended(n int64, took time.Duration, inflight, overlap int, now time.Time) {
	if m.latency == 0 || took < m.latency {
		m.latency = max(took, 1)
	}
	m.bytes += n
	m.requests++
	if inflight > 0 {
		return
	}
	moving := now.Sub(m.start) - m.latency
	wait := float64(m.requests) * m.latency.Seconds() / float64(max(overlap, 1))
	if m.bytes < linkMinBytes || moving < linkMinSpell || wait > moving.Seconds()/2 {
		return
	}
	m.samples[m.n%linkSamples] = float64(m.bytes) / moving.Seconds()
	m.n++
	best := 0.0
	for _, s := range m.samples[:min(m.n, linkSamples)] {
		best = max(best, s)
	}
	m.best.Store(int64(min(best, 1<<62)))
}

// bandwidth returns the measured bandwidth in bytes per second, 0 before
// any sample. Safe without the scheduler's mutex.
func (m *linkMeter) bandwidth() int64 { return m.best.Load() }
