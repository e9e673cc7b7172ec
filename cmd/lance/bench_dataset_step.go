package main

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"

	lance "github.com/lancego/lancego"
	"github.com/lancego/lancego/bench"
)

// Sizes of `lance bench`'s dataset step: the full run reads "B" of
// docs/benchmarks.md (25 fragments of 80,000 rows, data files of ~940 KB),
// --quick 20 fragments of 40,000 (~470 KB): both above the 256 KiB an
// open reads whole, so takes read pages, and with a deletion file in
// every fragment.
const (
	benchDatasetRows, benchDatasetPerFrag           = 2_000_000, 80_000
	benchDatasetQuickRows, benchDatasetQuickPerFrag = 800_000, 40_000
)

// benchDatasetsStep is `lance bench`'s "datasets" step (bench.Config.
// Datasets): bench-datasets' operations on one pylance-written dataset,
// pylance then us, locally and, unless cfg.NoS3 or no S3 server is
// configured, behind the proxy (requests counted there for both). With
// --quick (CI) the take of 10,000 rows is left out, and behind the proxy
// two of the three filtered scans too.
func benchDatasetsStep(ctx context.Context, cfg bench.Config, py string) (bench.DatasetFigures, error) {
	out := bench.DatasetFigures{Figures: map[string]map[string]bench.Measure{}}
	root, err := datasetFiguresInto(ctx, cfg, py, out.Figures)
	if err != nil || root == "" {
		return out, err
	}
	b, c, err := datasetScanBound(ctx, root)
	if err != nil {
		return out, fmt.Errorf("bound of the dataset scan: %w", err)
	}
	wl := bench.S3DatasetPrefix + "scan"
	out.Bounds, out.Curves = map[string]bench.Bound{wl: b}, map[string][]bench.RequestCurve{wl: {c}}
	return out, nil
}

// datasetScanBound is the bound of a warm scan of the dataset at the
// local root: every page of every data file of its latest version.
func datasetScanBound(ctx context.Context, root string) (bench.Bound, bench.RequestCurve, error) {
	ds, err := lance.OpenDataset(ctx, root)
	if err != nil {
		return bench.Bound{}, bench.RequestCurve{}, err
	}
	defer ds.Close()
	frags, err := ds.Fragments(ctx)
	if err != nil {
		return bench.Bound{}, bench.RequestCurve{}, err
	}
	var paths []string
	for _, f := range frags {
		for _, df := range f.DataFiles {
			paths = append(paths, filepath.Join(root, "data", df.Path))
		}
	}
	return bench.DatasetScanBound(ctx, paths)
}

// datasetFiguresInto runs the dataset step's workloads into out and
// returns the local dataset root when it also ran them behind the proxy.
func datasetFiguresInto(ctx context.Context, cfg bench.Config, py string, out map[string]map[string]bench.Measure) (string, error) {
	rows, perFrag, reps := benchDatasetRows, benchDatasetPerFrag, 3
	if cfg.Quick {
		rows, perFrag, reps = benchDatasetQuickRows, benchDatasetQuickPerFrag, 2
	}
	driver := filepath.Join(cfg.RepoDir, "bench", "dataset_driver.py")
	root := filepath.Join(cfg.DataDir, "datasets", benchDatasetName(rows, perFrag))
	if err := ensureBenchDataset(ctx, py, driver, root, rows, perFrag, cfg.Progress); err != nil {
		return "", err
	}
	n, err := datasetRows(ctx, root)
	if err != nil {
		return "", err
	}
	ops := benchDatasetOps(n)
	if cfg.Quick { // pylance's 10,000-row take alone costs ~5 s locally, ~16 s behind the proxy
		ops = slices.DeleteFunc(ops, func(o benchOp) bool { return len(o.Offsets) > 100 })
	}
	if err := datasetFigures(ctx, py, driver, root, nil, reps, ops, nil, bench.DatasetPrefix, out); err != nil {
		return "", err
	}
	if _, ok := bench.S3FromEnv(); cfg.NoS3 || !ok {
		return "", nil
	}
	pc, err := startDatasetProxy(ctx, root, cfg.Latency, cfg.BytesPerSec)
	if err != nil {
		return "", err
	}
	defer pc.Close()
	if cfg.Quick {
		ops = slices.DeleteFunc(ops, func(o benchOp) bool { return o.Op == "filter" && o.Key != "filter_2pct" })
	}
	if err := datasetFigures(ctx, py, driver, pc.url, pc.storageOptions, reps, ops, pc, bench.S3DatasetPrefix, out); err != nil {
		return "", err
	}
	if pc.err != nil {
		return "", fmt.Errorf("a proxy mark failed, request counts are missing: %w", pc.err)
	}
	return root, nil
}

// datasetFigures runs one round of ops (pylance, then us) on the dataset
// at target and adds their figures to out as prefix + op key: best time
// of reps, and the requests of the last run (at the proxy with pc, else
// ours by Stats and pylance's unknown, -1).
func datasetFigures(ctx context.Context, py, driver, target string, so map[string]string, reps int, ops []benchOp,
	pc *proxyCounter, prefix string, out map[string]map[string]bench.Measure) error {
	res := make([]opRounds, len(ops))
	if err := benchRound(ctx, py, driver, target, so, reps, false, ops, res, pc); err != nil {
		return err
	}
	for i, op := range ops {
		r := res[i]
		ours, theirs := float64(r.reqs), float64(r.proxyTheirs)
		if pc != nil {
			ours = float64(r.proxyOurs)
		}
		out[prefix+op.key()] = map[string]bench.Measure{
			bench.EngineLanceGo: {Seconds: r.ours, Requests: ours},
			bench.EnginePylance: {Seconds: r.theirs, Requests: theirs},
		}
	}
	return nil
}
