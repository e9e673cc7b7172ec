// Command engine reads a Lance table the way a distributed query engine
// does. A coordinator opens the dataset, asks which conjuncts of the
// filter the scan applies exactly (Dataset.PlanFilter), plans splits of
// about -target rows (Dataset.Splits) and marshals each to JSON, the form
// it would ship to a worker. Workers (goroutines here, at most -workers at
// a time) unmarshal their split, open it with lance.OpenSplit (one
// manifest read, no listing), scan it with the filter and the projection
// pushed down (Dataset.ScanSplit with DatasetScanOptions.FilterSQL and
// Columns) and return partial aggregates; the coordinator adds them up.
//
//	go run ./examples/engine -table /tmp/t.lance -target 100000 -filter "qty > 10 AND category = 'b'" -sum qty,price
//
// With -json the result is one JSON object: the conjuncts and whether each
// was applied, the number of splits, the matching rows and the sums. A
// conjunct the scan cannot apply (PartialFilter leaves it to the caller)
// would have to be evaluated by the engine itself; this example has no
// evaluator of its own, so it refuses such a filter.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"golang.org/x/sync/errgroup"

	lance "github.com/lancego/lancego"
	"github.com/lancego/lancego/searchcache"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "engine:", err)
		os.Exit(1)
	}
}

// errResidual reports a filter with conjuncts the scan cannot apply.
var errResidual = errors.New("the scan cannot apply every conjunct of the filter")

// config is the engine's command line.
type config struct {
	table   string
	target  uint64
	workers int
	filter  string
	sums    []string
	json    bool
}

// parseFlags reads the command line into a config.
func parseFlags(args []string, out io.Writer) (config, error) {
	var c config
	var sums string
	fs := flag.NewFlagSet("engine", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&c.table, "table", "", "URL or path of the dataset (required)")
	fs.Uint64Var(&c.target, "target", 0, "rows per split (0: one split per fragment)")
	fs.IntVar(&c.workers, "workers", 4, "splits read at the same time")
	fs.StringVar(&c.filter, "filter", "", "SQL filter pushed down to every split's scan")
	fs.StringVar(&sums, "sum", "", "comma-separated numeric columns to sum over the matching rows")
	fs.BoolVar(&c.json, "json", false, "print the result as one JSON object")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if c.table == "" || fs.NArg() > 0 {
		return c, errors.New("usage: engine -table URL [-target rows] [-workers n] [-filter SQL] [-sum col,...] [-json]")
	}
	if c.workers < 1 {
		return c, errors.New("-workers must be at least 1")
	}
	if sums != "" {
		c.sums = strings.Split(sums, ",")
	}
	return c, nil
}

// Result is what the coordinator reports.
type Result struct {
	// Conjuncts are the filter's top-level AND terms and whether the scan
	// applies each exactly.
	Conjuncts []ConjunctPlan `json:"conjuncts"`
	// Splits is the number of splits read; Rows the rows the filter kept.
	Splits int    `json:"splits"`
	Rows   uint64 `json:"rows"`
	// Sums maps each summed column to its sum: an int64 (exact) for
	// integer columns, a float64 for floating-point ones.
	Sums map[string]any `json:"sums"`
}

// ConjunctPlan is one conjunct of the filter in a Result.
type ConjunctPlan struct {
	Expr    string `json:"expr"`
	Applied bool   `json:"applied"`
	Reason  string `json:"reason,omitempty"`
}

// run plans, reads and aggregates the table the arguments name and prints
// the result to out.
func run(ctx context.Context, args []string, out io.Writer) error {
	c, err := parseFlags(args, out)
	if err != nil {
		return err
	}
	// One metadata cache for the coordinator and every worker of this
	// process (on other machines each worker process would have its own).
	opts := []lance.Option{lance.WithCache(searchcache.New(searchcache.Config{}))}
	res, err := coordinate(ctx, c, opts)
	if err != nil {
		return err
	}
	if c.json {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	return printResult(out, res)
}

// coordinate opens the dataset, checks the filter's plan, cuts the splits
// and has workers read them.
func coordinate(ctx context.Context, c config, opts []lance.Option) (Result, error) {
	ds, err := lance.OpenDataset(ctx, c.table, opts...)
	if err != nil {
		return Result{}, err
	}
	defer ds.Close()
	scan := lance.DatasetScanOptions{
		ReadOptions:   lance.ReadOptions{Columns: c.sums},
		FilterSQL:     c.filter,
		PartialFilter: true,
	}
	res := Result{Sums: map[string]any{}}
	plan, err := ds.PlanFilter(scan)
	if err != nil {
		return res, fmt.Errorf("filter %q: %w", c.filter, err)
	}
	var residual []string
	for _, cj := range plan {
		p := ConjunctPlan{Expr: cj.Expr.String(), Applied: cj.Applied()}
		if !p.Applied {
			p.Reason = cj.Err.Error()
			residual = append(residual, p.Expr+" ("+p.Reason+")")
		}
		res.Conjuncts = append(res.Conjuncts, p)
	}
	if len(residual) > 0 {
		return res, fmt.Errorf("%w: %s", errResidual, strings.Join(residual, "; "))
	}
	kinds, err := sumKinds(ds.Schema(), c.sums)
	if err != nil {
		return res, err
	}
	if len(c.sums) == 0 {
		// Counting only: read the narrowest thing there is, one column.
		scan.Columns = []string{ds.Schema().Field(0).Name}
	}
	splits, err := ds.Splits(ctx, c.target)
	if err != nil {
		return res, err
	}
	// What a coordinator sends over the wire: one JSON document a split.
	msgs := make([][]byte, len(splits))
	for i, s := range splits {
		if msgs[i], err = json.Marshal(s); err != nil {
			return res, err
		}
	}
	parts, err := readSplits(ctx, msgs, scan, len(c.sums), c.workers, opts)
	if err != nil {
		return res, err
	}
	res.Splits = len(splits)
	ints := make([]int64, len(c.sums))
	floats := make([]float64, len(c.sums))
	for _, p := range parts {
		res.Rows += p.rows
		for i, name := range c.sums {
			var ok bool
			if ints[i], ok = addInt(ints[i], p.ints[i]); !ok {
				return res, fmt.Errorf("sum(%s) overflows int64", name)
			}
			floats[i] += p.floats[i]
		}
	}
	for i, name := range c.sums {
		if kinds[i] == intKind {
			res.Sums[name] = ints[i]
		} else {
			res.Sums[name] = floats[i]
		}
	}
	return res, nil
}

// readSplits runs one worker per split message, at most workers at a
// time, and returns their partial aggregates in split order.
func readSplits(ctx context.Context, msgs [][]byte, scan lance.DatasetScanOptions, sums, workers int, opts []lance.Option) ([]partial, error) {
	parts := make([]partial, len(msgs))
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	for i, msg := range msgs {
		g.Go(func() error {
			p, err := worker(ctx, msg, scan, sums, opts)
			parts[i] = p
			return err
		})
	}
	return parts, g.Wait()
}

// partial is one worker's answer: the rows its split kept and the sums of
// the projected columns (ints for integer columns, floats for others).
type partial struct {
	rows   uint64
	ints   []int64
	floats []float64
}

// worker reads the split msg describes with the pushed-down filter and
// projection and sums the first sums columns of what it returns.
func worker(ctx context.Context, msg []byte, scan lance.DatasetScanOptions, sums int, opts []lance.Option) (p partial, err error) {
	var s lance.Split
	if err := json.Unmarshal(msg, &s); err != nil {
		return p, fmt.Errorf("split message: %w", err)
	}
	ds, err := lance.OpenSplit(ctx, s, opts...)
	if err != nil {
		return p, fmt.Errorf("open split %s: %w", s, err)
	}
	defer func() { err = errors.Join(err, ds.Close()) }()
	p.ints = make([]int64, sums)
	p.floats = make([]float64, sums)
	for rec, err := range ds.ScanSplit(ctx, s, scan) {
		if err != nil {
			return p, fmt.Errorf("scan split %s: %w", s, err)
		}
		p.rows += uint64(rec.NumRows())
		for c := range sums {
			if err := accumulate(rec.Column(c), &p.ints[c], &p.floats[c]); err != nil {
				rec.Release()
				return p, fmt.Errorf("split %s: %w", s, err)
			}
		}
		rec.Release()
	}
	return p, nil
}

// printResult prints the plan and the aggregates as text.
func printResult(out io.Writer, res Result) error {
	for _, c := range res.Conjuncts {
		how := "applied exactly by the scan"
		if !c.Applied {
			how = "left to the engine: " + c.Reason
		}
		fmt.Fprintf(out, "conjunct %s: %s\n", c.Expr, how)
	}
	fmt.Fprintf(out, "%d splits, %d matching rows\n", res.Splits, res.Rows)
	for name, s := range res.Sums {
		fmt.Fprintf(out, "sum(%s) = %v\n", name, s)
	}
	return nil
}
