// Command planar times lancego on the 2.3 planar benchmark file written by
// gen.py: best of 5 full scans of one column (8192-row batches), each on a
// fresh File, and best of 5 takes of 1000 random rows (sorted) on one File
// (as time.py reuses one pylance reader: the first take initializes the
// pages), with the bytes the first and the last take asked storage for.
//
//	go run ./bench/planar FILE COL[,COL...]
package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"time"

	lance "github.com/lancego/lancego"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: planar FILE COL[,COL...]")
		os.Exit(2)
	}
	for _, col := range strings.Split(os.Args[2], ",") {
		if err := run(context.Background(), os.Args[1], col); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

func run(ctx context.Context, path, col string) error {
	scan, take := time.Hour, time.Hour
	for range 5 {
		f, err := lance.Open(ctx, path)
		if err != nil {
			return err
		}
		t0 := time.Now()
		for rec, err := range f.Batches(ctx, lance.ScanOptions{BatchSize: 8192, Columns: []string{col}}) {
			if err != nil {
				f.Close()
				return err
			}
			rec.Release()
		}
		scan = min(scan, time.Since(t0))
		f.Close()
	}
	f, err := lance.Open(ctx, path)
	if err != nil {
		return err
	}
	defer f.Close()
	rng := rand.New(rand.NewPCG(1, 1))
	rows := make([]uint64, 1000)
	for i := range rows {
		rows[i] = rng.Uint64N(f.NumRows())
	}
	slices.Sort(rows)
	var bytes [5]int64
	for i := range 5 {
		before := f.Stats().BytesUsed
		t0 := time.Now()
		rec, err := f.Take(ctx, rows, []string{col})
		if err != nil {
			return err
		}
		take = min(take, time.Since(t0))
		bytes[i] = f.Stats().BytesUsed - before
		rec.Release()
	}
	fmt.Printf("lancego %s: scan %.1f ms, take1000 %.2f ms (bytes read: first take %d, later %d)\n",
		col, scan.Seconds()*1000, take.Seconds()*1000, bytes[0], bytes[4])
	return nil
}
