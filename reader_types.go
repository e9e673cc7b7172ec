package lance

import (
	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/internal/fileread"
	lanceio "github.com/lancego/lancego/io"
	"github.com/lancego/lancego/layouts/v01"
)

// ScanOptions selects what a file scan (File.Scan, File.Batches) returns.
// The zero value reads every column and row in batches of
// DefaultBatchSize rows. Filters are those of package expr (the SQL
// dialect Lance accepts): Filter takes an expr.Expr (expr.Parse, or built
// with expr.Col, expr.Lit, ...), FilterSQL the text of one.
type ScanOptions struct {
	// Columns are top-level column names; empty means all.
	Columns []string
	// From and To bound the rows [From, To); To == 0 means NumRows.
	From, To uint64
	// BatchSize is the number of rows per batch (DefaultBatchSize if 0).
	BatchSize int
	// Filter, when set, returns only the rows it selects, in file order.
	// Zones that the file's zone seeds prove empty are not read; the
	// columns it references are read for evaluation even when not in
	// Columns. Batches may then hold fewer than BatchSize rows.
	Filter expr.Expr
	// FilterSQL is Filter as text (expr.Parse), parsed when the scan
	// starts; setting both is an error.
	FilterSQL string
	// Filters are more conjuncts of the filter: a row is returned when
	// Filter (or FilterSQL) and each of Filters select it.
	Filters []expr.Expr
	// PartialFilter leaves a top-level conjunct that does not bind (an
	// unknown function, a construct the engine does not evaluate) to the
	// caller instead of failing the scan: the scan applies the others.
	// File.PlanFilter tells which conjuncts a scan applies.
	PartialFilter bool
	// StrictZoneSeeds makes an invalid zone seed of a column the Filter
	// references an error; by default such a seed is ignored (never used
	// to prune) and File.ZoneSeeds reports why.
	StrictZoneSeeds bool
	// Dictionary returns each projected string or binary column whose
	// every page is a dictionary page (Lance writes low-cardinality
	// strings so from 2.1 on) as Arrow dictionary<int32, T> arrays instead
	// of expanding the strings; the scan's schema reports those columns'
	// dictionary types, other columns are read as usual. Not combined with
	// Filter (ErrInvalidArgument); 2.0 and legacy files are read as usual.
	Dictionary bool
}

func (o ScanOptions) internal() fileread.ScanOptions {
	return fileread.ScanOptions{
		Columns: o.Columns, From: o.From, To: o.To, BatchSize: o.BatchSize,
		Filter: o.Filter, FilterSQL: o.FilterSQL, Filters: o.Filters,
		PartialFilter: o.PartialFilter, StrictZoneSeeds: o.StrictZoneSeeds,
		Dictionary: o.Dictionary,
	}
}

// Conjunct is one top-level AND term of a scan's filter and whether the
// scan applies it (File.PlanFilter, Dataset.PlanFilter; see
// ScanOptions.PartialFilter).
type Conjunct struct {
	// Expr is the conjunct.
	Expr expr.Expr
	// Err is nil when the scan applies the conjunct exactly; else why it
	// does not (the binding error), and the caller must apply it.
	Err error
}

// Applied reports whether the scan applies the conjunct (Err is nil).
func (c Conjunct) Applied() bool { return c.Err == nil }

func conjuncts(cs []fileread.Conjunct) []Conjunct {
	if cs == nil {
		return nil
	}
	out := make([]Conjunct, len(cs))
	for i, c := range cs {
		out[i] = Conjunct{Expr: c.Expr, Err: c.Err}
	}
	return out
}

// Stats reports what a file's or a dataset's reads cost (File.Stats,
// Dataset.Stats). It marshals to JSON with snake_case names.
type Stats struct {
	// Requests, BytesRead and Retries count requests to storage; Failures
	// counts storage operations that returned an error (after retries).
	Requests  int64 `json:"requests"`
	BytesRead int64 `json:"bytes_read"`
	Retries   int64 `json:"retries"`
	Failures  int64 `json:"failures"`
	// BytesRequested is what the scheduler asked for (gaps included) and
	// BytesUsed what decoders asked for; Coalesced counts merged ranges.
	BytesRequested int64 `json:"bytes_requested"`
	BytesUsed      int64 `json:"bytes_used"`
	Coalesced      int64 `json:"coalesced_ranges"`
	// RoundTrips sums, over the operations (Open, Take, a scan) the
	// scheduler served, the longest chain of requests each of which waited
	// for another's answer: what an operation pays in first-byte
	// latencies, however many requests each wave holds. Operations counts
	// those operations. Both are the scheduler's, so shared by the files
	// of a dataset or of one WithScheduler.
	RoundTrips int64 `json:"round_trips"`
	Operations int64 `json:"operations"`
	// LinkBandwidth is the bandwidth (bytes per second) the scheduler's
	// reads measured on the link, which its coalescing cost model plans
	// with; 0 until measured.
	LinkBandwidth int64 `json:"link_bandwidth"`
	// CacheHits and CacheMisses count page-metadata lookups.
	CacheHits   int64 `json:"cache_hits"`
	CacheMisses int64 `json:"cache_misses"`
	// ZonesTotal counts the zones filtered scans checked against zone
	// seeds, ZonesPruned those the seeds proved empty (never read), and
	// BytesSkipped estimates the page bytes not read because of pruning.
	ZonesTotal   int64 `json:"zones_total"`
	ZonesPruned  int64 `json:"zones_pruned"`
	BytesSkipped int64 `json:"bytes_skipped"`
	// LatencyBuckets counts requests by latency (upper bounds in
	// LatencyBoundsMillis; the last bucket is unbounded).
	LatencyBuckets      [lanceio.NumLatencyBuckets]int64       `json:"latency_buckets"`
	LatencyBoundsMillis [lanceio.NumLatencyBuckets - 1]float64 `json:"latency_bounds_ms"`
}

func statsOf(s fileread.Stats) Stats {
	return Stats{
		Requests: s.Requests, BytesRead: s.BytesRead, Retries: s.Retries, Failures: s.Failures,
		BytesRequested: s.BytesRequested, BytesUsed: s.BytesUsed, Coalesced: s.Coalesced,
		RoundTrips: s.RoundTrips, Operations: s.Operations, LinkBandwidth: s.LinkBandwidth,
		CacheHits: s.CacheHits, CacheMisses: s.CacheMisses,
		ZonesTotal: s.ZonesTotal, ZonesPruned: s.ZonesPruned, BytesSkipped: s.BytesSkipped,
		LatencyBuckets: s.LatencyBuckets, LatencyBoundsMillis: s.LatencyBoundsMillis,
	}
}

// LegacyLayout is what a legacy v1 file's footer, metadata and page table
// say (File.Legacy): its batches and, for every field id the page table
// covers, one page per batch.
type LegacyLayout struct {
	// MetadataPosition is where the metadata (batch offsets) starts.
	MetadataPosition uint64
	// PageTablePosition is where the page table starts.
	PageTablePosition uint64
	// ManifestPosition is where the embedded schema starts (0: none).
	ManifestPosition uint64
	// BatchStarts holds each batch's first row and, last, the row count.
	BatchStarts []uint64
	// Columns holds one entry per field id of the page table, in id order.
	Columns []LegacyColumn
}

// LegacyColumn is the page table row of one field id of a legacy file.
type LegacyColumn struct {
	// FieldID is the field id; Field the dotted path of the schema field
	// read from it ("" when the schema has none, e.g. a dropped field).
	FieldID int32
	Field   string
	// Encoding is how its pages store values: "plain", "var-binary"
	// (64-bit positions, then the bytes), "dictionary" (plain indices),
	// "list" (positions into the child's page), "struct" (no data) or ""
	// when unknown.
	Encoding string
	// Details are type facts: the value type, bits per value, where the
	// dictionary values are.
	Details []string
	// Pages holds the page of each batch (Length counts values, or list
	// positions).
	Pages []v01.Page
	// PageBytes holds, per page, the bytes stored at its position (plain
	// values or positions; 0 when unknown).
	PageBytes []uint64
}

func legacyLayout(l *fileread.LegacyLayout) *LegacyLayout {
	if l == nil {
		return nil
	}
	out := &LegacyLayout{
		MetadataPosition: l.MetadataPosition, PageTablePosition: l.PageTablePosition,
		ManifestPosition: l.ManifestPosition, BatchStarts: l.BatchStarts,
		Columns: make([]LegacyColumn, len(l.Columns)),
	}
	for i, c := range l.Columns {
		out.Columns[i] = LegacyColumn{FieldID: c.FieldID, Field: c.Field, Encoding: c.Encoding,
			Details: c.Details, Pages: c.Pages, PageBytes: c.PageBytes}
	}
	return out
}
