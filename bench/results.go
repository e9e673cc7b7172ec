package bench

import (
	"fmt"
	"math"
	"runtime"
	"sort"
	"strings"
)

// Results holds every figure of a run. Ratios are ours/peer speed: above 1
// means lancego is faster.
type Results struct {
	Quick    bool `json:"quick"`
	NoMmap   bool `json:"no_mmap"`         // our reader read local files with pread only
	NoSigned bool `json:"no_signed_reads"` // our S3 reads went through the SDK, not presigned URLs
	// PinnedTakes: the files of the local takes were locked in memory
	// (mlock) while every engine took rows; else read through before each.
	PinnedTakes bool                `json:"pinned_takes"`
	Machine     Machine             `json:"machine"`
	Datasets    map[string]*Dataset `json:"datasets"`
	// Figures maps workload → engine → figure.
	Figures map[string]map[string]Measure `json:"figures"`
	// Bounds are the lower bounds of the object-store workloads.
	Bounds map[string]BoundFig `json:"lower_bounds,omitempty"`
	// MemoryBounds are the allowed peak heap of the memory checks.
	MemoryBounds map[string]int64 `json:"memory_bounds,omitempty"`
	S3           *S3Info          `json:"s3,omitempty"`
	// RatiosVsLance has one ratio per workload plus the summaries take,
	// take_s3 (slowest take ratio), scan_min, scan_min_s3 (slowest per-column
	// scan ratio), open and write.
	RatiosVsLance   map[string]float64 `json:"ratios_vs_lance"`
	RatiosVsPqarrow map[string]float64 `json:"ratios_vs_parquet_pqarrow"`
	RatiosVsPyarrow map[string]float64 `json:"ratios_vs_parquet_pyarrow"`
	Targets         []Target           `json:"targets"`
	NotAvailable    map[string]string  `json:"not_available"`
	Errors          []string           `json:"errors,omitempty"`
	ElapsedSeconds  float64            `json:"elapsed_seconds"`
}

// Machine describes where the run happened.
type Machine struct {
	CPUs       int     `json:"cpus"`
	GOMAXPROCS int     `json:"gomaxprocs"`
	GoVersion  string  `json:"go_version"`
	MemcpyGBps float64 `json:"memcpy_gb_per_sec"`
}

// S3Info describes the injected link.
type S3Info struct {
	LatencyMs     float64 `json:"latency_ms"`
	BandwidthMBps float64 `json:"bandwidth_mb_per_sec"`
	// HarnessServerCPUms and HarnessProxyCPUms are the CPU per request
	// of the server and the proxy the harness bounds assume, shared by
	// Cores cores (harness.go).
	HarnessServerCPUms float64 `json:"harness_server_cpu_ms_per_request,omitempty"`
	HarnessProxyCPUms  float64 `json:"harness_proxy_cpu_ms_per_request,omitempty"`
	Cores              int     `json:"cores,omitempty"`
}

// BoundFig is a lower bound with its time on the injected link.
type BoundFig struct {
	Bound
	Seconds float64 `json:"seconds"`
	// HarnessSeconds is the harness bound (harness.go): the link's time
	// and the proxy's and server's CPU per request together.
	HarnessSeconds float64 `json:"harness_seconds,omitempty"`
}

// Target is one goal of issue #6 and whether this run met it.
type Target struct {
	Name  string  `json:"name"`
	Want  string  `json:"want"`
	Value float64 `json:"value"`
	Met   bool    `json:"met"`
	Note  string  `json:"note,omitempty"`
}

func newResults(cfg Config) *Results {
	return &Results{Quick: cfg.Quick, NoMmap: cfg.NoMmap, NoSigned: cfg.NoSignedReads, Datasets: map[string]*Dataset{}, Figures: map[string]map[string]Measure{},
		Bounds: map[string]BoundFig{}, MemoryBounds: map[string]int64{}, NotAvailable: map[string]string{},
		Machine: Machine{CPUs: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0), GoVersion: runtime.Version()}}
}

func (r *Results) put(wl, engine string, m Measure) {
	if r.Figures[wl] == nil {
		r.Figures[wl] = map[string]Measure{}
	}
	r.Figures[wl][engine] = m
}

// workloads returns the workload names in sorted order.
func (r *Results) workloads() []string {
	var out []string
	for k := range r.Figures {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// line summarizes one workload for the progress log.
func (r *Results) line(wl string) string {
	var parts []string
	for _, e := range []string{EngineLanceGo, EngineLanceGoUnpruned, EnginePylance, EnginePqarrow, EnginePyarrow} {
		m, ok := r.Figures[wl][e]
		if !ok {
			continue
		}
		s := fmt.Sprintf("%s %.2fms", e, m.Seconds*1000)
		if m.RowsPerSec > 0 {
			s += fmt.Sprintf(" %.3gM rows/s", m.RowsPerSec/1e6)
		}
		if m.Requests > 0 {
			s += fmt.Sprintf(" %.1f req", m.Requests)
		}
		if m.RoundTrips > 0 {
			s += fmt.Sprintf(" %.1f round trips", m.RoundTrips)
		}
		if m.ColdRoundTrips > 0 {
			s += fmt.Sprintf(" (cold %.0f)", m.ColdRoundTrips)
		}
		if m.BytesRead > 0 && strings.HasPrefix(wl, "s3/") {
			s += fmt.Sprintf(" %.3g MB", m.BytesRead/1e6)
		}
		parts = append(parts, s)
	}
	if b, ok := r.Bounds[wl]; ok {
		parts = append(parts, fmt.Sprintf("bound %d req %.3g MB %.2fms (64 KiB-coalesced %d req %.3g MB)", b.Requests, float64(b.Bytes)/1e6,
			b.Seconds*1000, b.CoalescedRequests, float64(b.CoalescedBytes)/1e6))
	}
	return strings.Join(parts, " | ")
}

// finish computes the ratios and targets.
func (r *Results) finish() {
	r.RatiosVsLance = r.ratios(EnginePylance)
	r.RatiosVsPqarrow = r.ratios(EnginePqarrow)
	r.RatiosVsPyarrow = r.ratios(EnginePyarrow)
	r.targets()
}

// ratios compares us with peer on every workload both ran, plus summaries.
func (r *Results) ratios(peer string) map[string]float64 {
	out := map[string]float64{}
	mins := map[string]float64{}
	for _, wl := range r.workloads() {
		ours, ok1 := r.Figures[wl][EngineLanceGo]
		theirs, ok2 := r.Figures[wl][peer]
		if !ok1 || !ok2 || strings.HasPrefix(wl, "memory/") {
			continue
		}
		v := speedup(ours, theirs)
		if strings.HasPrefix(wl, "write/") {
			v = ratio(theirs.Seconds, ours.Seconds)
		}
		out[wl] = round3(v)
		if key := summaryKey(wl); key != "" && v > 0 {
			if cur, ok := mins[key]; !ok || v < cur {
				mins[key] = v
			}
		}
	}
	for k, v := range mins {
		out[k] = round3(v)
	}
	return out
}

// summaryKey names the minimum a workload's ratio counts towards.
func summaryKey(wl string) string {
	switch {
	case strings.HasPrefix(wl, "take/"):
		return "take"
	case strings.HasPrefix(wl, "s3/take/"):
		return "take_s3"
	case strings.HasPrefix(wl, "scan/"):
		return "scan_min"
	case strings.HasPrefix(wl, "s3/scan/"):
		return "scan_min_s3"
	case strings.HasPrefix(wl, "open/"):
		return "open"
	case strings.HasPrefix(wl, "s3/open/"):
		return "open_s3"
	case strings.HasPrefix(wl, "write/columns@"):
		return "write_column_min"
	case strings.HasPrefix(wl, "write/"):
		return "write"
	case strings.HasPrefix(wl, "v20/scan/"):
		return "scan_min_v20"
	case strings.HasPrefix(wl, "v20/take/"):
		return "take_v20"
	case strings.HasPrefix(wl, DatasetPrefix+"take_"), wl == DatasetPrefix+"cold_take":
		return "dataset_take"
	case strings.HasPrefix(wl, S3DatasetPrefix+"take_"), wl == S3DatasetPrefix+"cold_take":
		return "dataset_take_s3"
	case wl == DatasetPrefix+"scan" || strings.HasPrefix(wl, DatasetPrefix+"filter_"):
		return "dataset_scan"
	case wl == S3DatasetPrefix+"scan" || strings.HasPrefix(wl, S3DatasetPrefix+"filter_"):
		return "dataset_scan_s3"
	}
	return ""
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

// fixedWidth lists the flat fixed-width columns of the memcpy target.
var fixedWidth = []string{"scan/table/i64_sorted", "scan/table/i64_random", "scan/table/f64", "scan/vectors/emb"}

func (r *Results) targets() {
	add := func(name, want string, v float64, met bool, note string) {
		r.Targets = append(r.Targets, Target{Name: name, Want: want, Value: round3(v), Met: met, Note: note})
	}
	lr := r.RatiosVsLance
	for _, k := range []string{"take", "take_s3"} {
		if v, ok := lr[k]; ok {
			add(k+" vs pylance", ">= 2x rows/s (slowest take workload)", v, v >= 2, r.ceilingNote("s3/take/", k == "take_s3"))
		}
	}
	r.reachableTarget("s3/take/", "take_s3", 2, add)
	if v, ok := lr["scan_min"]; ok {
		add("scan_min vs pylance", ">= 1.0x rows/s for every column", v, v >= 1, "")
	}
	for _, k := range []string{"dataset_take", "dataset_take_s3"} { // issue #20
		if v, ok := lr[k]; ok {
			add(k+" vs pylance", ">= 2x (slowest dataset take)", v, v >= 2, "")
		}
	}
	for _, k := range []string{"dataset_scan", "dataset_scan_s3"} {
		if v, ok := lr[k]; ok {
			add(k+" vs pylance", ">= 1x (slowest dataset scan or filtered scan)", v, v >= 1, "")
		}
	}
	r.reachableTarget(S3DatasetPrefix+"scan", "dataset scan (s3)", 1.5, add) // issue #18 item 4
	if v, ok := lr["scan_min_s3"]; ok {                                      // issue #18: object stores at the round-trip bound
		add("scan_min_s3 vs pylance", ">= 1.5x rows/s for every column", v, v >= 1.5, r.ceilingNote("s3/scan/", true))
	}
	r.reachableTarget("s3/scan/", "scan_min_s3", 1.5, add)
	for _, wl := range fixedWidth {
		if m, ok := r.Figures[wl][EngineLanceGo]; ok && r.Machine.MemcpyGBps > 0 {
			f := m.GBPerSec / r.Machine.MemcpyGBps
			add(wl+" vs memcpy", ">= 0.5 of memcpy GB/s", f, f >= 0.5, fmt.Sprintf("%.2f GB/s", m.GBPerSec))
		}
	}
	r.ioTargets(add)
	r.writeTargets(add)
	for wl, bound := range r.MemoryBounds {
		m := r.Figures[wl][EngineLanceGo]
		f := float64(m.PeakHeapBytes) / float64(bound)
		add(wl+" peak heap / bound", "<= 1 (in-flight + 2 batches + cache)", f, f <= 1,
			fmt.Sprintf("peak %.0f MiB, bound %.0f MiB", mib(m.PeakHeapBytes), mib(bound)))
	}
}

func (r *Results) ioTargets(add func(string, string, float64, bool, string)) {
	for _, wl := range r.workloads() {
		m, ok := r.Figures[wl][EngineLanceGo]
		if !ok {
			continue
		}
		if strings.Contains(wl, "open/") {
			add(wl+" requests", "== 1", m.Requests, m.Requests == 1, "")
		}
		if wl == S3DatasetPrefix+"open" {
			add(wl+" requests at the proxy", fmt.Sprintf("<= %d (list + manifest)", MaxDatasetOpenRequests), m.Requests,
				m.Requests > 0 && m.Requests <= MaxDatasetOpenRequests, "")
		}
		if wl == S3DatasetPrefix+"cold_take" {
			add(wl+" requests at the proxy", fmt.Sprintf("<= %d (tail + data + deletion file)", MaxDatasetColdTakeRequests), m.Requests,
				m.Requests > 0 && m.Requests <= MaxDatasetColdTakeRequests, "")
		}
		if strings.HasPrefix(wl, "s3/take/") && m.RoundTrips > 0 {
			add(wl+" round trips", "== 1 (warm take: one wave of data requests)", m.RoundTrips, m.RoundTrips <= 1, "")
		}
		if strings.HasPrefix(wl, "s3/take/") && m.ColdRoundTrips > 0 {
			add(wl+" cold round trips", "<= 2 after open (chunk metadata, then data)", m.ColdRoundTrips, m.ColdRoundTrips <= 2, "")
		}
		if b, ok := r.Bounds[wl]; ok && !strings.Contains(wl, "/open/") && !isDatasetWorkload(wl) && b.Bytes > 0 {
			f := m.BytesRead / float64(b.Bytes)
			add(wl+" bytes / lower bound", "<= 1.25", f, f <= 1.25,
				fmt.Sprintf("64 KiB-coalesced bound %.2f; --check allows %.2f", float64(b.CoalescedBytes)/float64(b.Bytes), MaxBytes(b.Bound)/float64(b.Bytes)))
		}
		if b, ok := r.Bounds[wl]; ok && strings.HasPrefix(wl, "s3/take/") {
			add(wl+" requests / lower bound", "== 1 (minimum for the mini-blocks touched)", m.Requests/float64(b.Requests),
				m.Requests <= float64(b.Requests), fmt.Sprintf("%.1f vs %d", m.Requests, b.Requests))
		}
	}
}

func (r *Results) writeTargets(add func(string, string, float64, bool, string)) {
	for _, ds := range []string{TableDataset, VectorDataset} {
		wl := "write/" + ds
		ours, ok1 := r.Figures[wl][EngineLanceGo]
		theirs, ok2 := r.Figures[wl][EnginePylance]
		if !ok1 || !ok2 {
			continue
		}
		v := ratio(theirs.Seconds, ours.Seconds)
		add(wl+" vs pylance", ">= 1.0x rows/s", v, v >= 1, "")
		s := float64(ours.FileBytes) / float64(theirs.FileBytes)
		add(wl+" size / pylance size", "within 5%", s, math.Abs(s-1) <= 0.05,
			fmt.Sprintf("%d vs %d bytes", ours.FileBytes, theirs.FileBytes))
	}
}
