package dataset

import (
	"context"
	"os"
	"testing"
)

// BenchmarkFilteredScan times filtered scans of the dataset
// $LANCE_BENCH_DATASET (skipped without it), best built by `lance
// bench-datasets` (bench/dataset_driver.py make: id, name, score, cat, x):
// the filters of its filtered-scan cases, the whole projection returned.
func BenchmarkFilteredScan(b *testing.B) {
	url := os.Getenv("LANCE_BENCH_DATASET")
	if url == "" {
		b.Skip("set LANCE_BENCH_DATASET to a dataset of `lance bench-datasets`")
	}
	ctx := context.Background()
	ds, err := OpenDataset(ctx, url)
	if err != nil {
		b.Fatal(err)
	}
	defer ds.Close()
	for _, c := range []struct{ name, filter string }{
		{"none", ""},
		{"0.1pct", "x < 0.001"},
		{"cat", "cat = 'red'"},
		{"x_half", "x > 0.5"},
		{"and", "cat = 'red' AND x > 0.5"},
		{"like", "name LIKE 'name-1%'"},
		{"lower", "lower(cat) = 'red'"},
	} {
		b.Run(c.name, func(b *testing.B) {
			var rows int64
			for b.Loop() {
				rows = 0
				for rec, err := range ds.Batches(ctx, DatasetScanOptions{FilterSQL: c.filter}) {
					if err != nil {
						b.Fatal(err)
					}
					rows += rec.NumRows()
					rec.Release()
				}
			}
			b.ReportMetric(float64(rows), "rows")
		})
	}
}
