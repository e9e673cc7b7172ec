package fileread

import (
	"context"
	"sort"

	"github.com/lancego/lancego/layouts"
	"github.com/lancego/lancego/searchcache"
)

// eagerInitBytes bounds what a take spends initializing all of a
// column's pages at once: when the column's uninitialized pages cost at
// most this much to initialize, the first take that touches the column
// initializes every page, in the same concurrent round as the pages it
// needs, so later takes anywhere in the column need only data requests.
// 8 MiB covers, e.g., the repetition indices of a 1M-row long-string
// column (16 full-zip pages of 262 KB); it is read once per file and
// kept in the search cache.
const eagerInitBytes = 8 << 20

// pageJob is one page to initialize.
type pageJob struct {
	leaf  *layouts.Field
	index int
}

// warmForTake initializes, in one concurrent round, the uninitialized
// pages a take of ranges touches in the leaves of cols, plus every other
// page of a column when that is cheap (eagerInitBytes). Without it a take
// would initialize its pages one after another: a round trip each on an
// object store. On an object store, when the touched pages are small by
// the cost model (planWhole), they are read whole in that round and the
// returned context carries their bytes for the take's reads (take_whole.go).
func (f *File) warmForTake(ctx context.Context, cols []int, ranges []RowRange) (context.Context, error) {
	if f.v20 != nil || f.legacy != nil {
		return ctx, nil // 2.0 and legacy reads have no page state to warm
	}
	var touched, rest []pageJob
	mayWhole := f.mayReadWhole(ctx)
	cachedData := false
	for _, c := range cols {
		for _, leaf := range f.leaves[c] {
			starts := f.pageStarts(leaf.Column)
			pages := pagesOf(ranges, starts)
			cachedData = cachedData || (mayWhole && f.touchesCachedData(leaf.Column, pages))
			need := f.uncachedPages(leaf.Column, pages)
			if len(need) == 0 {
				continue
			}
			for _, i := range need {
				touched = append(touched, pageJob{leaf, i})
			}
			if all := f.uncachedPages(leaf.Column, allPages(len(starts)-1)); f.initCost(leaf.Column, all) <= eagerInitBytes {
				rest = appendOthers(rest, leaf, all, need)
			}
		}
	}
	if mayWhole {
		whole, err := f.planWhole(ctx, touched, cachedData)
		if err != nil {
			return nil, err
		}
		if whole != nil {
			return f.wholeRead(ctx, whole, rest)
		}
	}
	return ctx, f.initPages(ctx, append(touched, rest...))
}

// appendOthers appends to jobs the pages of all (of leaf) not in need.
func appendOthers(jobs []pageJob, leaf *layouts.Field, all, need []int) []pageJob {
	skip := make(map[int]bool, len(need))
	for _, i := range need {
		skip[i] = true
	}
	for _, i := range all {
		if !skip[i] {
			jobs = append(jobs, pageJob{leaf, i})
		}
	}
	return jobs
}

// touchesCachedData reports whether any of pages of col is cached without
// its data (a take of it reads data after its warm-up in any case).
func (f *File) touchesCachedData(col int, pages []int) bool {
	for _, i := range pages {
		v, ok := f.cache.Get(searchcache.Key{File: f.src.Key(), Column: col, Page: i, Kind: "page"})
		if st, _ := v.(*pageState); ok && st != nil && st.resident == nil && st.cnst == nil {
			return true
		}
	}
	return false
}

// warmPages initializes concurrently the uninitialized pages of leaf that
// ranges touch (reads outside a scan: takes and filtered scans).
func (f *File) warmPages(ctx context.Context, leaf *layouts.Field, ranges []RowRange, starts []uint64) error {
	var jobs []pageJob
	for _, i := range f.uncachedPages(leaf.Column, pagesOf(ranges, starts)) {
		jobs = append(jobs, pageJob{leaf, i})
	}
	return f.initPages(ctx, jobs)
}

// initPages initializes pages concurrently (fanOut) and returns the
// first error.
func (f *File) initPages(ctx context.Context, jobs []pageJob) error {
	if len(jobs) <= 1 {
		for _, j := range jobs {
			if _, err := f.page(ctx, j.leaf.Column, j.index, leafType(j.leaf)); err != nil {
				return err
			}
		}
		return nil
	}
	return FanOut(ctx, len(jobs), func(ctx context.Context, k int) error {
		_, err := f.page(ctx, jobs[k].leaf.Column, jobs[k].index, leafType(jobs[k].leaf))
		return err
	})
}

// pageStarts returns the first row of each page of col and the row count.
func (f *File) pageStarts(col int) []uint64 {
	pages := f.meta.Columns[col].GetPages()
	starts := make([]uint64, len(pages)+1)
	for i, p := range pages {
		starts[i+1] = starts[i] + p.GetLength()
	}
	return starts
}

// pagesOf returns the distinct pages (by row starts) that ranges touch.
func pagesOf(ranges []RowRange, starts []uint64) []int {
	seen := map[int]bool{}
	var out []int
	last := -1 // the page the last range ended on: a take's next row is mostly on it
	for _, r := range ranges {
		if last >= 0 && r.From >= starts[last] && r.To <= starts[last+1] {
			continue
		}
		first := sort.Search(len(starts)-1, func(i int) bool { return starts[i+1] > r.From })
		for i := first; i < len(starts)-1 && starts[i] < r.To; i++ {
			if !seen[i] {
				seen[i] = true
				out = append(out, i)
			}
			last = i
		}
	}
	return out
}

func allPages(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// uncachedPages returns the pages of col not in the search cache.
func (f *File) uncachedPages(col int, pages []int) []int {
	var out []int
	for _, i := range pages {
		if _, ok := f.cache.Get(searchcache.Key{File: f.src.Key(), Column: col, Page: i, Kind: "page"}); !ok {
			out = append(out, i)
		}
	}
	return out
}

// initCost estimates the bytes initializing pages of col reads: a small
// page whole, else its buffers other than the largest (the data).
func (f *File) initCost(col int, pages []int) uint64 {
	var n uint64
	meta := f.meta.Columns[col].GetPages()
	for _, i := range pages {
		sizes := meta[i].GetBufferSizes()
		var sum, largest uint64
		for _, s := range sizes {
			sum += s
			largest = max(largest, s)
		}
		if sum <= uint64(f.cfg.SmallPage) {
			n += sum
		} else {
			n += sum - largest
		}
	}
	return n
}
