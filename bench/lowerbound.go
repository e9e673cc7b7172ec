package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"time"

	lance "github.com/lancego/lancego"
	"github.com/lancego/lancego/format"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/layouts"
	"github.com/lancego/lancego/scheduler"
)

// Bound is the least I/O a workload needs: the bytes it must read and the
// number of requests needed to read exactly those bytes (one per maximal
// contiguous run; S3 serves one range per GET).
type Bound struct {
	Requests int   `json:"requests"`
	Bytes    int64 `json:"bytes"`
	// CoalescedRequests and CoalescedBytes are the same ranges read with
	// the object-store coalescing gap (CoalesceGap: runs at most this far
	// apart read as one request, the gap's bytes included): what a
	// reader merging like Lance needs. CoalescedBytes - Bytes is what the
	// gap costs against the exact bound.
	CoalescedRequests int   `json:"coalesced_requests,omitempty"`
	CoalescedBytes    int64 `json:"coalesced_bytes,omitempty"`
}

// CoalesceGap is the gap of Bound.CoalescedBytes: the object-store
// default (scheduler.DefaultCoalesceGapObjectStore, Lance's 64 KiB).
const CoalesceGap = scheduler.DefaultCoalesceGapObjectStore

// add sums o into b (per-set bounds of a take workload).
func (b *Bound) add(o Bound) {
	b.Requests += o.Requests
	b.Bytes += o.Bytes
	b.CoalescedRequests += o.CoalescedRequests
	b.CoalescedBytes += o.CoalescedBytes
}

// div divides every figure by n (the mean of n summed bounds).
func (b Bound) div(n int) Bound {
	if n <= 1 {
		return b
	}
	return Bound{Requests: b.Requests / n, Bytes: b.Bytes / int64(n),
		CoalescedRequests: b.CoalescedRequests / n, CoalescedBytes: b.CoalescedBytes / int64(n)}
}

// Seconds is the time a link with first-byte latency and bandwidth bps
// needs at least: one latency (all requests in parallel) plus the bytes.
func (b Bound) Seconds(latency time.Duration, bps float64) float64 {
	s := latency.Seconds()
	if bps > 0 {
		s += float64(b.Bytes) / bps
	}
	return s
}

// LowerBounds computes Bounds from a local Lance file's metadata and page
// tables (mini-block chunk tables, full-zip repetition indices), assuming
// metadata caches are warm for takes (as after a warm-up take).
type LowerBounds struct {
	meta  *format.FileMetadata
	cols  map[string][]int // leaf columns of each top-level field
	order []string
	pages [][]boundPage
}

type boundPage struct {
	first, rows uint64
	bufs        []format.Range
	data        uint64 // file offset of the data buffer
	mini        *layouts.MiniBlockPage
	full        *layouts.FullZipPage
}

// NewLowerBounds reads path's metadata and page tables.
func NewLowerBounds(ctx context.Context, path string) (*LowerBounds, error) {
	f, err := lance.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	raw, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer raw.Close()
	lb := &LowerBounds{meta: f.Metadata(), cols: map[string][]int{}}
	for _, top := range lb.meta.Schema.Fields {
		lb.order = append(lb.order, top.Name)
		lb.cols[top.Name] = fieldColumns(top, nil)
	}
	for col := range lb.meta.Columns {
		ps, err := lb.columnPages(raw, col)
		if err != nil {
			return nil, fmt.Errorf("column %d: %w", col, err)
		}
		lb.pages = append(lb.pages, ps)
	}
	return lb, nil
}

func (lb *LowerBounds) columnPages(raw *os.File, col int) ([]boundPage, error) {
	var out []boundPage
	var first uint64
	for i, pg := range lb.meta.Columns[col].GetPages() {
		layout, err := format.DecodePageLayout(pg)
		if err != nil {
			return nil, err
		}
		bufs, err := lb.meta.PageRanges(col, i)
		if err != nil {
			return nil, err
		}
		bp := boundPage{first: first, rows: pg.GetLength(), bufs: bufs}
		first += pg.GetLength()
		if err := initBoundPage(raw, &bp, layout); err != nil {
			return nil, err
		}
		out = append(out, bp)
	}
	return out, nil
}

func readRange(raw *os.File, r format.Range) ([]byte, error) {
	b := make([]byte, r.Length)
	_, err := raw.ReadAt(b, int64(r.Offset))
	return b, err
}

func initBoundPage(raw *os.File, bp *boundPage, layout *pb.PageLayout) error {
	read := func(i int) ([]byte, error) {
		if i < 0 || i >= len(bp.bufs) {
			return nil, nil
		}
		return readRange(raw, bp.bufs[i])
	}
	var err error
	switch l := layout.GetLayout().(type) {
	case *pb.PageLayout_MiniBlockLayout:
		dict, rep := layouts.MiniBlockMetaBuffers(l.MiniBlockLayout, len(bp.bufs))
		var meta layouts.MiniBlockMeta
		if meta.ChunkWords, err = read(0); err != nil {
			return err
		}
		if meta.Dictionary, err = read(dict); err != nil {
			return err
		}
		if meta.RepIndex, err = read(rep); err != nil {
			return err
		}
		bp.data = bp.bufs[1].Offset
		bp.mini, err = layouts.NewMiniBlockPage(l.MiniBlockLayout, bp.rows, bp.bufs[1].Length, meta)
	case *pb.PageLayout_FullZipLayout:
		var rep []byte
		if rep, err = read(1); err != nil {
			return err
		}
		bp.data = bp.bufs[0].Offset
		bp.full, err = layouts.NewFullZipPage(l.FullZipLayout, bp.rows, bp.bufs[0].Length, rep)
	}
	return err
}

// fieldColumns appends the columns storing f and its descendants.
func fieldColumns(f *format.Field, out []int) []int {
	if f.Column >= 0 {
		out = append(out, f.Column)
	}
	for _, c := range f.Children {
		out = fieldColumns(c, out)
	}
	return out
}

// Open is the bound of opening the file: the metadata region in one
// suffix-range request.
func (lb *LowerBounds) Open() Bound {
	n := int64(lb.meta.MetadataRange().Length)
	return Bound{Requests: 1, Bytes: n, CoalescedRequests: 1, CoalescedBytes: n}
}

// columnsOf lists the leaf columns of the named top-level fields (all if none).
func (lb *LowerBounds) columnsOf(names []string) []int {
	if len(names) == 0 {
		names = lb.order
	}
	var out []int
	for _, n := range names {
		out = append(out, lb.cols[n]...)
	}
	return out
}

// Scan is the bound of a cold full scan of the named columns: every
// buffer of every page of their leaf columns.
func (lb *LowerBounds) Scan(names []string) Bound { return mergeBound(lb.scanRanges(names)) }

// ScanCurve is the request curve of the scan of Scan (harness.go).
func (lb *LowerBounds) ScanCurve(names []string) RequestCurve { return curveOf(lb.scanRanges(names)) }

// scanRanges lists every buffer of every page of the named columns.
func (lb *LowerBounds) scanRanges(names []string) []format.Range {
	var rs []format.Range
	for _, c := range lb.columnsOf(names) {
		for _, p := range lb.pages[c] {
			rs = append(rs, p.bufs...)
		}
	}
	return rs
}

// Take is the bound of taking rows (sorted) of the named columns with
// warm page metadata: the mini-block chunks holding the rows, or the rows'
// bytes of full-zip pages. Constant pages need no I/O.
func (lb *LowerBounds) Take(rows []uint64, names []string) Bound {
	return mergeBound(lb.takeAll(rows, names))
}

// TakeCurve is the request curve of the take of Take (harness.go).
func (lb *LowerBounds) TakeCurve(rows []uint64, names []string) RequestCurve {
	return curveOf(lb.takeAll(rows, names))
}

// takeAll lists the byte ranges of the named columns holding rows.
func (lb *LowerBounds) takeAll(rows []uint64, names []string) []format.Range {
	var rs []format.Range
	for _, c := range lb.columnsOf(names) {
		for _, r := range runs(rows) {
			rs = append(rs, lb.takeRanges(c, r[0], r[1])...)
		}
	}
	return rs
}

// takeRanges lists the byte ranges of column c holding rows [from, to).
func (lb *LowerBounds) takeRanges(c int, from, to uint64) []format.Range {
	var out []format.Range
	for _, p := range lb.pages[c] {
		lo, hi := max(from, p.first), min(to, p.first+p.rows)
		if lo >= hi {
			continue
		}
		lo, hi = lo-p.first, hi-p.first
		switch {
		case p.mini != nil:
			span, err := p.mini.ChunksForRows(lo, hi)
			if err != nil {
				continue
			}
			a, b := p.mini.Chunks[span.First], p.mini.Chunks[span.Last]
			out = append(out, format.Range{Offset: p.data + a.Offset, Length: b.Offset + b.Size - a.Offset})
		case p.full != nil:
			s, e, err := p.full.RowBytes(lo, hi)
			if err == nil {
				out = append(out, format.Range{Offset: p.data + s, Length: e - s})
			}
		}
	}
	return out
}

// runs groups sorted rows into half-open runs of consecutive rows.
func runs(rows []uint64) [][2]uint64 {
	var out [][2]uint64
	for _, r := range rows {
		if n := len(out); n > 0 && out[n-1][1] == r {
			out[n-1][1]++
			continue
		}
		out = append(out, [2]uint64{r, r + 1})
	}
	return out
}

// mergeBound merges overlapping or touching ranges and counts them, and
// again across gaps of at most CoalesceGap bytes.
func mergeBound(rs []format.Range) Bound { return boundOf(curveOf(rs)) }

// boundOf is the bound of the ranges of curve c: their requests and bytes,
// and those with every gap of at most CoalesceGap read.
func boundOf(c RequestCurve) Bound {
	n := c.Requests()
	b := Bound{Requests: n, Bytes: c.Bytes, CoalescedRequests: n, CoalescedBytes: c.Bytes}
	for _, g := range c.Gaps { // ascending
		if g > CoalesceGap {
			break
		}
		b.CoalescedRequests--
		b.CoalescedBytes += g
	}
	return b
}

// IndexSets returns n sets of k distinct random rows of [0, rows), each
// sorted (pylance's take_rows needs strictly increasing indices).
func IndexSets(rows, k, n int, seed uint64) [][]uint64 {
	r := rand.New(rand.NewPCG(seed, uint64(k)))
	out := make([][]uint64, n)
	for i := range out {
		k := min(k, rows)
		seen := make(map[uint64]bool, k)
		set := make([]uint64, 0, k)
		for len(set) < k {
			v := uint64(r.IntN(rows))
			if !seen[v] {
				seen[v] = true
				set = append(set, v)
			}
		}
		slices.Sort(set)
		out[i] = set
	}
	return out
}
