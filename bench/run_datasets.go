package bench

import (
	"context"
	"sort"
	"strings"
)

// Workload name prefixes of the dataset step (Config.Datasets).
const (
	DatasetPrefix   = "dataset/"
	S3DatasetPrefix = "s3/dataset/"
)

// isDatasetWorkload reports whether wl is one of the dataset step's.
func isDatasetWorkload(wl string) bool {
	return strings.HasPrefix(wl, DatasetPrefix) || strings.HasPrefix(wl, S3DatasetPrefix)
}

// datasetWorkloads runs step "datasets": Config.Datasets, with pylance.
func (r *runner) datasetWorkloads(ctx context.Context) error {
	if r.cfg.Datasets == nil {
		r.res.NotAvailable["datasets"] = "no dataset runner (run through `lance bench`)"
		return nil
	}
	if r.py == nil {
		return ErrNoPython
	}
	got, err := r.cfg.Datasets(ctx, r.cfg, r.py.Exe)
	for wl, b := range got.Bounds {
		r.res.Bounds[wl] = BoundFig{Bound: b, Seconds: b.Seconds(r.cfg.Latency, r.cfg.BytesPerSec)}
	}
	for wl, cs := range got.Curves {
		r.curves[wl] = cs
	}
	wls := make([]string, 0, len(got.Figures))
	for wl := range got.Figures {
		wls = append(wls, wl)
	}
	sort.Strings(wls)
	for _, wl := range wls {
		for engine, m := range got.Figures[wl] {
			r.res.put(wl, engine, m)
		}
		r.logf("%s: %s", wl, r.res.line(wl))
	}
	return err
}
