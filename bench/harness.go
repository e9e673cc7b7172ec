package bench

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/lancego/lancego/format"
)

// The harness bound. Bound.Seconds prices a workload on the link alone:
// one first-byte latency plus the bytes over the bandwidth, with every
// request in parallel. On this test bed the requests also cost CPU: the
// proxy and the S3 server share the machine's cores with the reader, and
// each request costs them a measured amount (s3CPUTable) whoever reads.
// The proxy adds its latency before it forwards a request, so the
// server's work on any request starts a latency after the workload's
// start at the earliest. A workload of many small requests (a take of
// scattered rows) is then bound by that CPU, and fewer requests mean more
// bytes (gaps read between the ranges). The harness bound is the least
// time any reader could take here, over every choice of which gaps to
// read (k of them, the smallest, from R requests):
//
//	max(latency + (bytes + k smallest gaps) / bandwidth,
//	    latency + (R - k) × server CPU per request / cores,
//	    (R - k) × (server + proxy CPU per request) / cores)
//
// with the least CPU per request the run measured for the server and for
// the proxy (their work per byte left out) and the reader's own CPU left
// out, and at most the bytes issue #18 allows (MaxBytes: reading more to
// save requests is not allowed): a lower bound, so pylance ÷ the harness
// bound is the most any reader can gain over pylance on this machine
// within that limit (the ceiling).

// HarnessCost is the CPU per request of the proxy and the server, and the
// cores they share.
type HarnessCost struct {
	Server, Proxy time.Duration
	Cores         int
}

// RequestCurve is the ranges of one run of a workload, as the bytes they
// need and the gaps between them: reading the k smallest gaps saves k
// requests.
type RequestCurve struct {
	Bytes int64
	Gaps  []int64 // ascending
}

// curveOf builds the request curve of ranges rs (in any order).
func curveOf(rs []format.Range) RequestCurve {
	rs = slices.DeleteFunc(slices.Clone(rs), func(r format.Range) bool { return r.Length == 0 })
	sort.Slice(rs, func(i, j int) bool { return rs[i].Offset < rs[j].Offset })
	var c RequestCurve
	var end uint64
	for i, r := range rs {
		if i > 0 && r.Offset > end {
			c.Gaps = append(c.Gaps, int64(r.Offset-end))
		}
		e := r.Offset + r.Length
		if i == 0 || r.Offset > end {
			c.Bytes += int64(r.Length)
		} else if e > end {
			c.Bytes += int64(e - end)
		}
		end = max(end, e)
	}
	slices.Sort(c.Gaps)
	return c
}

// Requests is the curve's request count with no gap read.
func (c RequestCurve) Requests() int {
	if c.Bytes == 0 {
		return 0
	}
	return len(c.Gaps) + 1
}

// Seconds is the harness bound of the curve reading at most maxBytes
// (see above; no limit when 0).
func (c RequestCurve) Seconds(latency time.Duration, bps float64, cost HarnessCost, maxBytes float64) float64 {
	n := c.Requests()
	if n == 0 {
		return latency.Seconds()
	}
	cores := float64(max(cost.Cores, 1))
	server, both := cost.Server.Seconds()/cores, (cost.Server+cost.Proxy).Seconds()/cores
	best := math.Inf(1)
	bytes := float64(c.Bytes)
	for k := 0; k < n; k++ { // k gaps read: n-k requests
		if k > 0 {
			bytes += float64(c.Gaps[k-1])
		}
		if k > 0 && maxBytes > 0 && bytes > maxBytes {
			break
		}
		link := latency.Seconds()
		if bps > 0 {
			link += bytes / bps
		}
		r := float64(n - k)
		best = min(best, max(link, latency.Seconds()+r*server, r*both))
		if link >= best {
			break // reading more gaps only adds bytes
		}
	}
	return best
}

// harnessCost returns the least CPU per request the server and the
// proxy each spent in any S3 take of the run, by either reader (0 when
// not measured: the proxy ran in the reader's process).
func (r *Results) harnessCost(cores int) HarnessCost {
	var server, proxy float64
	least := func(cur, v float64) float64 {
		if v > 0 && (cur == 0 || v < cur) {
			return v
		}
		return cur
	}
	for wl, byEngine := range r.Figures {
		if !strings.HasPrefix(wl, "s3/take/") {
			continue
		}
		for _, m := range byEngine {
			if m.ProxyCPUms > 0 && m.ServerCPUms > 0 {
				server, proxy = least(server, m.ServerCPUms), least(proxy, m.ProxyCPUms)
			}
		}
	}
	ms := float64(time.Millisecond)
	return HarnessCost{Server: time.Duration(server * ms), Proxy: time.Duration(proxy * ms), Cores: cores}
}

// setHarnessBounds sets the harness bound of every workload with request
// curves (one per run of it: their mean).
func (r *Results) setHarnessBounds(curves map[string][]RequestCurve, latency time.Duration, bps float64, cores int) {
	cost := r.harnessCost(cores)
	if r.S3 != nil {
		ms := float64(time.Millisecond)
		r.S3.HarnessServerCPUms, r.S3.HarnessProxyCPUms = float64(cost.Server)/ms, float64(cost.Proxy)/ms
		r.S3.Cores = cores
	}
	for wl, cs := range curves {
		b, ok := r.Bounds[wl]
		if !ok || len(cs) == 0 {
			continue
		}
		var sum float64
		for _, c := range cs {
			sum += c.Seconds(latency, bps, cost, MaxBytes(boundOf(c)))
		}
		b.HarnessSeconds = sum / float64(len(cs))
		r.Bounds[wl] = b
	}
}

// Ceiling is pylance's time over the harness bound of workload wl: the
// largest ratio over pylance any reader could reach on this machine (0
// when unknown).
func (r *Results) Ceiling(wl string) float64 {
	b, ok := r.Bounds[wl]
	theirs, ok2 := r.Figures[wl][EnginePylance]
	if !ok || !ok2 || b.HarnessSeconds <= 0 {
		return 0
	}
	return theirs.Seconds / b.HarnessSeconds
}

// ceilingNote names the workload of prefix with the lowest ceiling (when
// on is set and ceilings are known).
func (r *Results) ceilingNote(prefix string, on bool) string {
	low, at := 0.0, ""
	for _, wl := range r.workloads() {
		if c := r.Ceiling(wl); on && c > 0 && strings.HasPrefix(wl, prefix) && (at == "" || c < low) {
			low, at = c, wl
		}
	}
	if at == "" {
		return ""
	}
	return fmt.Sprintf("lowest ceiling %.2fx (%s)", low, at)
}

// reachableTarget adds the target of the workloads of prefix whose
// ceiling allows want: each at want or more over pylance. The workloads
// where no reader can reach want on this machine are named in the note.
func (r *Results) reachableTarget(prefix, key string, want float64, add func(string, string, float64, bool, string)) {
	least, n := 0.0, 0
	var out []string
	for _, wl := range r.workloads() {
		c := r.Ceiling(wl)
		v, ok := r.RatiosVsLance[wl]
		if !strings.HasPrefix(wl, prefix) || c <= 0 || !ok {
			continue
		}
		if c < want {
			out = append(out, fmt.Sprintf("%s %.2fx", strings.TrimPrefix(wl, prefix), c))
			continue
		}
		if n == 0 || v < least {
			least = v
		}
		n++
	}
	if n+len(out) == 0 {
		return
	}
	note := fmt.Sprintf("%d workloads; ceiling below %.1fx (left out): %s", n, want, strings.Join(out, ", "))
	if len(out) == 0 {
		note = fmt.Sprintf("%d workloads; every ceiling at %.1fx or more", n, want)
	}
	if n == 0 {
		note = "no workload's ceiling allows it; " + note
	}
	add(fmt.Sprintf("%s vs pylance where reachable", key), fmt.Sprintf(">= %.1fx where the ceiling allows it", want),
		least, n == 0 || least >= want, note)
}
