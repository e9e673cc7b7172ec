// Command service answers queries over HTTP from a Lance table, typically
// one on an object store. It opens the table once, with one metadata
// cache (searchcache.New, lance.WithCache) and a process-wide cap on
// requests in flight to storage (lance.WithLimiter) shared by every
// query, and serves:
//
//	GET /rows?id=N            the row whose id column is N (a filter id = N)
//	GET /rows?rowid=N         the row with row id N (Dataset.TakeRowIDs)
//	GET /scan?filter=SQL&limit=N
//	                          the rows a SQL filter selects, at most limit
//	GET /nearest?column=v&vector=1,2,3&k=5[&filter=SQL&prefilter=true&metric=cosine]
//	                          the k rows nearest to the vector (Dataset.Nearest)
//	GET /stats                the table's I/O counters (requests, bytes, cache)
//
// Every query may add columns=a,b to choose the columns returned. Answers
// are JSON: {"rows": [{...}, ...]}, or {"error": "..."} with a status that
// errors.Is chooses: 400 for a bad parameter, a filter that does not parse
// or bind, a query the column cannot answer; 404 for a row the table does
// not have; 504 when the query ran out of its -timeout; 501 for a
// feature lancego does not read; 500 otherwise.
//
//	go run ./examples/service -addr 127.0.0.1:8080 -timeout 2s \
//	  -table 's3://bucket/t.lance?endpoint=http://127.0.0.1:9000&use_path_style=true&region=us-east-1&anonymous=true'
//	curl '127.0.0.1:8080/nearest?column=v&vector=0.1,0.2,0.3,0.4&k=3'
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"time"

	lance "github.com/lancego/lancego"
	lanceio "github.com/lancego/lancego/io"
	"github.com/lancego/lancego/scheduler"
	"github.com/lancego/lancego/searchcache"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "service:", err)
		os.Exit(1)
	}
}

// config is the service's command line.
type config struct {
	table       string
	addr        string
	timeout     time.Duration
	cacheBytes  int64
	maxRequests int
	maxLimit    int
	idColumn    string
}

// parseFlags reads the command line into a config.
func parseFlags(args []string, out io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("service", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&c.table, "table", "", "URL or path of the dataset (required): s3://, gs://, azblob://, file:// or a path")
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8080", "address to listen on")
	fs.DurationVar(&c.timeout, "timeout", 5*time.Second, "deadline of each query")
	fs.Int64Var(&c.cacheBytes, "cache-bytes", searchcache.DefaultMaxBytes, "bytes of decoded metadata the shared cache keeps")
	fs.IntVar(&c.maxRequests, "max-requests", 64, "storage requests in flight at once, over all queries")
	fs.IntVar(&c.maxLimit, "max-limit", 10000, "most rows one /scan answers")
	fs.StringVar(&c.idColumn, "id-column", "id", "integer column /rows?id= looks up")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	switch {
	case c.table == "" || fs.NArg() > 0:
		return c, errors.New("usage: service -table URL [-addr host:port] [-timeout d] [-cache-bytes n] [-max-requests n]")
	case c.timeout <= 0 || c.maxRequests < 1 || c.maxLimit < 1 || c.cacheBytes < 1:
		return c, errors.New("-timeout, -cache-bytes, -max-requests and -max-limit must be positive")
	}
	return c, nil
}

// run opens the table, serves queries on -addr until ctx is cancelled,
// then shuts down gracefully.
func run(ctx context.Context, args []string, out io.Writer) (err error) {
	c, err := parseFlags(args, out)
	if err != nil {
		return err
	}
	ds, err := openTable(ctx, c)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, ds.Close()) }()
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           newHandler(ds, c),
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	fmt.Fprintf(out, "listening on http://%s (table %s, version %d)\n", ln.Addr(), ds.URL(), ds.Version())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	err = srv.Shutdown(shutdown)
	if serr := <-served; !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	return err
}

// openTable opens the dataset once for the whole service: every query
// shares its metadata cache, its I/O scheduler and the request cap.
func openTable(ctx context.Context, c config) (*lance.Dataset, error) {
	ctx, cancel := context.WithTimeout(ctx, max(c.timeout, 30*time.Second))
	defer cancel()
	return lance.OpenDataset(ctx, c.table,
		lance.WithCache(searchcache.New(searchcache.Config{MaxBytes: c.cacheBytes})),
		lance.WithLimiter(scheduler.NewLimiter(c.maxRequests)),
		// retries of one storage request stay within a query's deadline
		lance.WithIOConfig(lanceio.Config{MaxAttempts: 3, RetryDeadline: c.timeout}),
	)
}
