package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"time"

	lance "github.com/lancego/lancego"
)

// indexBuildCase is one index build the index step times.
type indexBuildCase struct {
	Column string
	Type   lance.IndexType
}

// indexBuildCases are the builds of the index step, on the bench
// dataset's columns (id int64 sequential, name 1,000 strings, cat 8
// strings, score and x float64).
var indexBuildCases = []indexBuildCase{
	{"id", lance.IndexBTree}, {"name", lance.IndexBTree}, {"x", lance.IndexBTree},
	{"cat", lance.IndexBitmap}, {"name", lance.IndexBitmap},
	{"id", lance.IndexZoneMap}, {"x", lance.IndexZoneMap},
	{"name", lance.IndexNGram}, {"id", lance.IndexBloomFilter}, {"name", lance.IndexBloomFilter},
}

// benchIndexBuild times CreateIndex against pylance's
// create_scalar_index on copies of the bench dataset at root (issue #37
// item 7): each run builds on a fresh copy (made untimed), one untimed
// warm-up each, then reps alternating runs. It then times zone maps from
// zone seeds: on a copy we rewrite with seeds (the same rows and
// fragment sizes), against our own build that reads the column.
func benchIndexBuild(ctx context.Context, py, driver, dir, root string, perFrag, reps int, stdout, stderr io.Writer) error {
	srv, err := startDriverServer(ctx, "index build", py, driver, "index-serve")
	if err != nil {
		return err
	}
	defer srv.stop()
	fmt.Fprintf(stdout, "\nindex builds on %s (a fresh copy per run; medians of %d, ms): lancego CreateIndex, pylance create_scalar_index\n", root, reps)
	fmt.Fprintf(stdout, "%-16s %10s %10s %8s   runs (ours | pylance)\n", "index", "lancego", "pylance", "ratio")
	ours, theirs := filepath.Join(dir, "index-ours.lance"), filepath.Join(dir, "index-theirs.lance")
	for _, c := range indexBuildCases {
		var o, t []float64
		for i := -1; i < reps; i++ {
			oi, rows, err := timeOurIndexBuild(ctx, root, ours, c)
			if err != nil {
				return err
			}
			if err := copyTree(root, theirs); err != nil {
				return err
			}
			ti, err := srv.call(map[string]any{"url": theirs, "column": c.Column, "type": string(c.Type), "name": "bench_idx"})
			if err != nil {
				return err
			}
			if ti.Rows != int64(rows) {
				return fmt.Errorf("index %s on %s: pylance indexed %d rows, we %d", c.Type, c.Column, ti.Rows, rows)
			}
			if i >= 0 {
				o, t = append(o, oi), append(t, ti.Seconds)
			}
		}
		fmt.Fprintf(stdout, "%-16s %10.1f %10.1f %7.2fx   %s | %s\n", string(c.Type)+" "+c.Column, median(o)*1e3, median(t)*1e3,
			median(t)/median(o), msList(o), msList(t))
	}
	return benchSeedZoneMaps(ctx, dir, root, perFrag, reps, stdout)
}

// benchSeedZoneMaps times ZONEMAP builds from zone seeds against builds
// that read the column, on a seeded copy of root written by us.
func benchSeedZoneMaps(ctx context.Context, dir, root string, perFrag, reps int, stdout io.Writer) error {
	seeded := filepath.Join(dir, "index-seeded-src.lance")
	if err := writeSeededCopy(ctx, root, seeded, perFrag); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "zone maps from zone seeds (a copy written by lancego with seeds) vs reading the column (the pylance dataset):\n")
	for _, col := range []string{"id", "x"} {
		c := indexBuildCase{col, lance.IndexZoneMap}
		var fromSeeds, fromColumn []float64
		var seedBytes, colBytes int64
		for i := -1; i < reps; i++ {
			s, _, err := timeOurIndexBuildStats(ctx, seeded, filepath.Join(dir, "index-seeded.lance"), c, &seedBytes)
			if err != nil {
				return err
			}
			r, _, err := timeOurIndexBuildStats(ctx, root, filepath.Join(dir, "index-ours.lance"), c, &colBytes)
			if err != nil {
				return err
			}
			if i >= 0 {
				fromSeeds, fromColumn = append(fromSeeds, s), append(fromColumn, r)
			}
		}
		fmt.Fprintf(stdout, "  %-10s seeds %7.1f ms (%d bytes read), column %7.1f ms (%d bytes read): %.1fx faster\n", col,
			median(fromSeeds)*1e3, seedBytes, median(fromColumn)*1e3, colBytes, median(fromColumn)/median(fromSeeds))
	}
	return nil
}

// writeSeededCopy writes root's rows to dst (when dst does not exist yet)
// with zone seeds of every column, perFrag rows per fragment.
func writeSeededCopy(ctx context.Context, root, dst string, perFrag int) error {
	if ds, err := lance.OpenDataset(ctx, dst); err == nil {
		return ds.Close()
	}
	src, err := lance.OpenDataset(ctx, root)
	if err != nil {
		return err
	}
	defer src.Close()
	rdr, err := src.Scan(ctx, lance.DatasetScanOptions{})
	if err != nil {
		return err
	}
	defer rdr.Release()
	out, err := lance.CreateDataset(ctx, dst, rdr, lance.WithMaxRowsPerFile(int64(perFrag)),
		lance.WithFileOptions(lance.WithZoneSeeds(0)))
	if err != nil {
		return err
	}
	return out.Close()
}

// timeOurIndexBuild copies src to dst, opens it (untimed, as pylance's
// side) and times CreateIndex; it returns the seconds and the rows
// indexed.
func timeOurIndexBuild(ctx context.Context, src, dst string, c indexBuildCase) (float64, uint64, error) {
	return timeOurIndexBuildStats(ctx, src, dst, c, nil)
}

func timeOurIndexBuildStats(ctx context.Context, src, dst string, c indexBuildCase, read *int64) (float64, uint64, error) {
	if err := copyTree(src, dst); err != nil {
		return 0, 0, err
	}
	ds, err := lance.OpenDataset(ctx, dst)
	if err != nil {
		return 0, 0, err
	}
	defer ds.Close()
	before := ds.Stats().BytesRead
	t0 := time.Now()
	out, err := ds.CreateIndex(ctx, c.Column, c.Type, lance.IndexParams{Name: "bench_idx"})
	if err != nil {
		return 0, 0, err
	}
	secs := time.Since(t0).Seconds()
	defer out.Close()
	if read != nil {
		*read = ds.Stats().BytesRead - before
	}
	idx, err := out.Indices(ctx)
	if err != nil || len(idx) != 1 {
		return 0, 0, fmt.Errorf("index %s on %s: %d indices after the build, %v", c.Type, c.Column, len(idx), err)
	}
	return secs, idx[0].RowsIndexed(), nil
}
