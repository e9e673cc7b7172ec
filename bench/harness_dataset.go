package bench

import (
	"context"

	"github.com/lancego/lancego/format"
)

// DatasetFigures is what the dataset step (Config.Datasets) returns: its
// figures (workload -> engine -> Measure) and, for the workloads it can
// bound, their request curves (harness.go) and lower bounds.
type DatasetFigures struct {
	Figures map[string]map[string]Measure
	Curves  map[string][]RequestCurve
	Bounds  map[string]Bound
}

// fileApart separates the ranges of different files in one curve: no
// reader reads across objects, so their gaps are never worth reading.
const fileApart = 1 << 50

// DatasetScanBound is the bound and request curve of a warm scan of every
// column of the data files at paths (local copies of a dataset's files,
// their footers already read): every buffer of every page, one request
// per contiguous run within a file.
func DatasetScanBound(ctx context.Context, paths []string) (Bound, RequestCurve, error) {
	var rs []format.Range
	for i, p := range paths {
		lb, err := NewLowerBounds(ctx, p)
		if err != nil {
			return Bound{}, RequestCurve{}, err
		}
		for _, r := range lb.scanRanges(nil) {
			r.Offset += uint64(i) * fileApart
			rs = append(rs, r)
		}
	}
	c := curveOf(rs)
	return boundOf(c), c, nil
}
