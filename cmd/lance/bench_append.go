package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	lance "github.com/lancego/lancego"
	"github.com/lancego/lancego/bench"
)

// appendBatchRows is the batch size both sides append in.
const appendBatchRows = 65536

// benchAppend times Append against pylance write_dataset(mode="append")
// on the same in-memory rows (built alike on both sides), each run
// appending to a fresh copy of one pylance-created base dataset. One
// untimed warm-up each, then reps alternating runs (ours, theirs).
func benchAppend(ctx context.Context, py, driver, dir string, rows, reps int, stdout, stderr io.Writer) error {
	base := filepath.Join(dir, "append-base.lance")
	if err := os.RemoveAll(base); err != nil {
		return err
	}
	srv, err := startAppendServer(ctx, py, driver, rows)
	if err != nil {
		return err
	}
	defer srv.stop()
	b, err := srv.call(map[string]any{"op": "base", "url": base})
	if err != nil {
		return err
	}
	recs := appendBatches(rows)
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	var ours, theirs, ourCPU, theirCPU []float64
	for i := -1; i < reps; i++ {
		o, oc, err := timeOurAppend(ctx, base, filepath.Join(dir, "append-ours.lance"), recs, rows)
		if err != nil {
			return err
		}
		t, err := timeTheirAppend(srv, base, filepath.Join(dir, "append-theirs.lance"), b.Rows+int64(rows))
		if err != nil {
			return err
		}
		if i >= 0 { // i == -1 is the warm-up
			ours, theirs = append(ours, o), append(theirs, t.Seconds)
			ourCPU, theirCPU = append(ourCPU, oc), append(theirCPU, t.CPUSeconds)
		}
	}
	printAppend(stdout, rows, ours, theirs)
	fmt.Fprintf(stdout, "CPU per append (process, all threads; medians) lancego %.0fms, pylance %.0fms; runs: ours %s, pylance %s\n",
		median(ourCPU)*1e3, median(theirCPU)*1e3, msList(ourCPU), msList(theirCPU))
	return nil
}

func printAppend(w io.Writer, rows int, ours, theirs []float64) {
	mo, mt := median(ours), median(theirs)
	fmt.Fprintf(w, "append %d rows (int64, float64, string of 5,000 values; batches of %d): %d alternating runs after a warm-up\n",
		rows, appendBatchRows, len(ours))
	fmt.Fprintf(w, "%-10s %10s %10s %10s %12s\n", "", "median", "min", "max", "rows/s")
	for _, s := range []struct {
		name string
		v    []float64
		m    float64
	}{{"lancego", ours, mo}, {"pylance", theirs, mt}} {
		fmt.Fprintf(w, "%-10s %8.0fms %8.0fms %8.0fms %12.0f\n", s.name, s.m*1e3, slices.Min(s.v)*1e3, slices.Max(s.v)*1e3, float64(rows)/s.m)
	}
	fmt.Fprintf(w, "ratio (pylance/lancego, medians) %.2fx; runs: ours %s, pylance %s\n", mt/mo, msList(ours), msList(theirs))
}

func msList(v []float64) string {
	out := ""
	for i, x := range v {
		if i > 0 {
			out += " "
		}
		out += fmt.Sprintf("%.0f", x*1e3)
	}
	return out
}

func median(v []float64) float64 {
	s := slices.Sorted(slices.Values(v))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// timeOurAppend copies base to dst, then times OpenDataset + Append: wall
// and process CPU seconds.
func timeOurAppend(ctx context.Context, base, dst string, recs []arrow.RecordBatch, rows int) (float64, float64, error) {
	if err := copyTree(base, dst); err != nil {
		return 0, 0, err
	}
	t0, c0 := time.Now(), bench.ProcessCPU()
	ds, err := lance.OpenDataset(ctx, dst)
	if err != nil {
		return 0, 0, err
	}
	defer ds.Close()
	rdr, err := array.NewRecordReader(recs[0].Schema(), recs)
	if err != nil {
		return 0, 0, err
	}
	defer rdr.Release()
	ds2, err := ds.Append(ctx, rdr)
	if err != nil {
		return 0, 0, err
	}
	secs, cpu := time.Since(t0).Seconds(), (bench.ProcessCPU() - c0).Seconds()
	defer ds2.Close()
	n, err := ds2.CountRows(ctx)
	if err != nil {
		return 0, 0, err
	}
	if m, _ := ds.CountRows(ctx); n != m+uint64(rows) {
		return 0, 0, fmt.Errorf("append: %d rows after, %d before", n, m)
	}
	return secs, cpu, nil
}

func timeTheirAppend(srv *driverServer, base, dst string, want int64) (pyResult, error) {
	if err := copyTree(base, dst); err != nil {
		return pyResult{}, err
	}
	res, err := srv.call(map[string]any{"op": "append", "url": dst})
	if err != nil {
		return pyResult{}, err
	}
	if res.Rows != want {
		return pyResult{}, fmt.Errorf("pylance append: %d rows after, want %d", res.Rows, want)
	}
	return res, nil
}

// copyTree replaces dst with a copy of the directory tree src.
func copyTree(src, dst string) error {
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	return filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
}

// appendBatches builds the rows the driver builds: id i, name
// "name-{i % 5000}", score i * 0.5.
func appendBatches(rows int) []arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "score", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)
	var out []arrow.RecordBatch
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for off := 0; off < rows; off += appendBatchRows {
		for i := off; i < min(rows, off+appendBatchRows); i++ {
			b.Field(0).(*array.Int64Builder).Append(int64(i))
			b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("name-%d", i%5000))
			b.Field(2).(*array.Float64Builder).Append(float64(i) * 0.5)
		}
		out = append(out, b.NewRecordBatch())
	}
	return out
}

// driverServer is a driver process serving one JSON request a line on
// stdin with one JSON answer a line on stdout ("append-serve",
// "index-serve").
type driverServer struct {
	what string // what it serves, for errors
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Scanner
}

// startDriverServer starts driver with args (the serve command first).
func startDriverServer(ctx context.Context, what, py, driver string, args ...string) (*driverServer, error) {
	cmd := exec.CommandContext(ctx, py, append([]string{driver}, args...)...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &driverServer{what: what, cmd: cmd, in: in, out: bufio.NewScanner(out)}, nil
}

func startAppendServer(ctx context.Context, py, driver string, rows int) (*driverServer, error) {
	return startDriverServer(ctx, "append", py, driver, "append-serve", fmt.Sprint(rows), fmt.Sprint(appendBatchRows))
}

func (s *driverServer) call(req map[string]any) (pyResult, error) {
	b, _ := json.Marshal(req)
	if _, err := s.in.Write(append(b, '\n')); err != nil {
		return pyResult{}, fmt.Errorf("pylance %s driver: %w", s.what, err)
	}
	if !s.out.Scan() {
		return pyResult{}, fmt.Errorf("pylance %s driver exited: %v", s.what, s.out.Err())
	}
	var res pyResult
	if err := json.Unmarshal(s.out.Bytes(), &res); err != nil {
		return pyResult{}, fmt.Errorf("pylance %s driver: %w", s.what, err)
	}
	return res, nil
}

func (s *driverServer) stop() {
	_ = s.in.Close()
	_ = s.cmd.Wait()
}
