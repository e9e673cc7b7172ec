package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	lance "github.com/lancego/lancego"
	"github.com/lancego/lancego/scheduler"
)

// demoBucket is the bucket of the demo's embedded S3 server.
const demoBucket = "lance-demo"

// s3DemoRows and s3DemoFragmentRows size the object-store demo's dataset:
// large enough that a take or a pruned filter reads a small part of it.
const s3DemoRows, s3DemoFragmentRows = 500_000, 100_000

// demoS3 is an S3-compatible server inside this process (gofakes3 over an
// in-memory backend) on a loopback port, which counts what it serves: the
// requests and body bytes a reader pays for on a real object store.
type demoS3 struct {
	srv      *http.Server
	endpoint string
	requests atomic.Int64
	bytes    atomic.Int64
}

// startDemoS3 starts the server on 127.0.0.1 with one empty bucket.
func startDemoS3() (*demoS3, error) {
	backend := s3mem.New()
	if err := backend.CreateBucket(demoBucket); err != nil {
		return nil, fmt.Errorf("embedded S3 server: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("embedded S3 server: %w", err)
	}
	s := &demoS3{endpoint: "http://" + ln.Addr().String()}
	fake := gofakes3.New(backend, gofakes3.WithLogger(gofakes3.DiscardLog())).Server()
	s.srv = &http.Server{Handler: s.count(fake), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// count wraps h, counting requests and the bytes of response bodies.
func (s *demoS3) count(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		h.ServeHTTP(&countingResponse{ResponseWriter: w, n: &s.bytes}, r)
	})
}

type countingResponse struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (c *countingResponse) Write(p []byte) (int, error) {
	n, err := c.ResponseWriter.Write(p)
	c.n.Add(int64(n))
	return n, err
}

// url is the lancego URL of key in the demo bucket: path-style requests to
// the loopback endpoint, anonymous (the server checks no credentials).
func (s *demoS3) url(key string) string {
	q := url.Values{"endpoint": {s.endpoint}, "use_path_style": {"true"}, "region": {"us-east-1"}, "anonymous": {"true"}}
	return fmt.Sprintf("s3://%s/%s?%s", demoBucket, key, q.Encode())
}

// mark returns the server's counts so far.
func (s *demoS3) mark() (requests, bytes int64) { return s.requests.Load(), s.bytes.Load() }

// close stops the server; the demo's reads are over by then, so it closes
// every connection at once. (Shutdown would wait up to five seconds for a
// connection the client dialled but never used, which a loaded machine's
// HTTP transport leaves behind, and then fail with the deadline.)
func (s *demoS3) close() error {
	if err := s.srv.Close(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// demoObjectStore writes the demo rows as a dataset of five fragments,
// uploads it to the embedded S3 server and reads it back through its
// s3:// URL: an open, a scan of two columns, a take of three rows and a
// filtered read, each with the requests, bytes and round trips the reader
// counted and the requests the server answered.
func demoObjectStore(ctx context.Context, dir string, out io.Writer) (err error) {
	local := filepath.Join(dir, "s3demo.lance")
	if err := writeDemoDataset(ctx, local); err != nil {
		return err
	}
	srv, err := startDemoS3()
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, srv.close()) }()
	dsURL := srv.url("tables/demo.lance")
	fmt.Fprintf(out, "\nreading a dataset from an object store: an S3-compatible server in this process at %s\n", srv.endpoint)
	fmt.Fprintf(out, "(%d rows in %d fragments, written with lancego and uploaded to bucket %q; no credentials)\n", s3DemoRows, s3DemoRows/s3DemoFragmentRows, demoBucket)
	if err := uploadTree(ctx, srv.url("tables/demo.lance"), local); err != nil {
		return fmt.Errorf("upload the demo dataset: %w", err)
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "operation\trows\trequests\tMB read\tround trips\tserver requests\t")
	var ds *lance.Dataset
	steps := []demoStep{
		{"open", func(ctx context.Context) (int64, error) {
			var err error
			ds, err = lance.OpenDataset(ctx, dsURL)
			return 0, err
		}},
		{"take rows 449999, 7, 7", func(ctx context.Context) (int64, error) {
			rec, err := ds.Take(ctx, []uint64{449999, 7, 7}, lance.ReadOptions{Columns: []string{"id", "label"}})
			if err != nil {
				return 0, err
			}
			defer rec.Release()
			return rec.NumRows(), nil
		}},
		{"filter id >= 20000 AND id < 20003", func(ctx context.Context) (int64, error) {
			return demoScan(ctx, ds, "id >= 20000 AND id < 20003")
		}},
		{"scan id, score", func(ctx context.Context) (int64, error) { return demoScan(ctx, ds, "") }},
	}
	defer func() {
		if ds != nil {
			err = errors.Join(err, ds.Close())
		}
	}()
	for _, st := range steps {
		if err := st.report(ctx, tw, srv, func() lance.Stats {
			if ds == nil {
				return lance.Stats{}
			}
			return ds.Stats()
		}); err != nil {
			return fmt.Errorf("demo on %s: %s: %w", srv.endpoint, st.name, err)
		}
	}
	return tw.Flush()
}

// demoStep is one read of the object-store demo; run returns its rows.
type demoStep struct {
	name string
	run  func(context.Context) (int64, error)
}

// report runs the step and prints one line of its costs.
func (st demoStep) report(ctx context.Context, tw io.Writer, srv *demoS3, stats func() lance.Stats) error {
	before := stats()
	r0, _ := srv.mark()
	// the step's requests in one tracked operation: the scheduler counts
	// its round trips (the longest chain of requests each waiting for
	// another's answer)
	ctx, end := scheduler.Track(ctx)
	rows, err := st.run(ctx)
	end()
	if err != nil {
		return err
	}
	after := stats()
	r1, _ := srv.mark()
	trips := fmt.Sprint(after.RoundTrips - before.RoundTrips)
	if st.name == "open" {
		trips = "-" // the listing and manifest reads bypass the scheduler
	}
	fmt.Fprintf(tw, "%s\t%d\t%d\t%.3f\t%s\t%d\t\n", st.name, rows,
		after.Requests-before.Requests, float64(after.BytesRead-before.BytesRead)/1e6, trips, r1-r0)
	return nil
}

// demoScan reads id and score of every row the filter keeps and counts them.
func demoScan(ctx context.Context, ds *lance.Dataset, filter string) (int64, error) {
	o := lance.DatasetScanOptions{ReadOptions: lance.ReadOptions{Columns: []string{"id", "score"}}, FilterSQL: filter}
	var n int64
	for rec, err := range ds.Batches(ctx, o) {
		if err != nil {
			return n, err
		}
		n += rec.NumRows()
		rec.Release()
	}
	return n, nil
}

// writeDemoDataset writes the object-store demo's rows as a dataset of
// s3DemoFragmentRows-row fragments, each file with zone seeds.
func writeDemoDataset(ctx context.Context, root string) error {
	mem := memory.NewGoAllocator()
	var recs []arrow.RecordBatch
	for from := 0; from < s3DemoRows; from += 50_000 {
		recs = append(recs, demoBatch(mem, from, min(from+50_000, s3DemoRows)))
	}
	rdr, err := array.NewRecordReader(demoSchema(), recs)
	for _, r := range recs {
		r.Release()
	}
	if err != nil {
		return err
	}
	defer rdr.Release()
	ds, err := lance.CreateDataset(ctx, root, rdr, lance.WithMaxRowsPerFile(s3DemoFragmentRows),
		lance.WithFileOptions(lance.WithZoneSeeds(0)))
	if err != nil {
		return fmt.Errorf("write the demo dataset %s: %w", root, err)
	}
	return ds.Close()
}
