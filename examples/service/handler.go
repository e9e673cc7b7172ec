package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	lance "github.com/lancego/lancego"
	"github.com/lancego/lancego/expr"
)

// Errors of the handlers, mapped to HTTP statuses by status.
var (
	// errBadRequest reports a missing or malformed query parameter.
	errBadRequest = errors.New("bad request")
	// errNoRow reports a lookup the table has no row for.
	errNoRow = errors.New("no such row")
)

// handler answers the queries over one opened table.
type handler struct {
	ds       *lance.Dataset
	timeout  time.Duration
	maxLimit int
	idColumn string
}

// newHandler routes the service's endpoints to a handler over ds.
func newHandler(ds *lance.Dataset, c config) http.Handler {
	h := &handler{ds: ds, timeout: c.timeout, maxLimit: c.maxLimit, idColumn: c.idColumn}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /rows", h.serve(h.rows))
	mux.HandleFunc("GET /scan", h.serve(h.scan))
	mux.HandleFunc("GET /nearest", h.serve(h.nearest))
	mux.HandleFunc("GET /stats", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, h.ds.Stats())
	})
	return mux
}

// query answers one request, returning the batches of rows to send.
type query func(ctx context.Context, r *http.Request) ([]arrow.RecordBatch, error)

// serve runs q under the request's own deadline and writes its rows, or
// its error with the status the error's class chooses.
func (h *handler) serve(q query) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), h.timeout)
		defer cancel()
		recs, err := q(ctx, r)
		defer release(recs)
		if err == nil {
			var body []byte
			if body, err = rowsJSON(recs); err == nil {
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write(body)
				return
			}
		}
		writeJSON(w, status(err), map[string]string{"error": err.Error()})
	}
}

// status maps an error to its HTTP status with errors.Is.
func status(err error) int {
	switch {
	case errors.Is(err, errBadRequest), errors.Is(err, expr.ErrSyntax), errors.Is(err, expr.ErrBind),
		errors.Is(err, expr.ErrEval), errors.Is(err, lance.ErrInvalidArgument):
		return http.StatusBadRequest
	case errors.Is(err, errNoRow):
		return http.StatusNotFound
	case errors.Is(err, context.DeadlineExceeded):
		return http.StatusGatewayTimeout
	case errors.Is(err, context.Canceled):
		return http.StatusServiceUnavailable // the client went away
	case errors.Is(err, expr.ErrUnsupported), errors.Is(err, lance.ErrUnsupported):
		return http.StatusNotImplemented
	default: // lance.ErrCorrupt, lance.ErrNotFound of a data file, storage failures
		return http.StatusInternalServerError
	}
}

// rows looks up one row: by the id column (?id=N, a filtered scan that
// zone seeds can prune) or by row id (?rowid=N, Dataset.TakeRowIDs).
func (h *handler) rows(ctx context.Context, r *http.Request) ([]arrow.RecordBatch, error) {
	q := r.URL.Query()
	cols := columns(q.Get("columns"))
	if s := q.Get("rowid"); s != "" {
		rowid, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%w: rowid %q: %v", errBadRequest, s, err)
		}
		rec, err := h.ds.TakeRowIDs(ctx, []uint64{rowid}, lance.ReadOptions{Columns: cols, WithRowID: true})
		if errors.Is(err, lance.ErrInvalidArgument) { // no such row id
			return nil, fmt.Errorf("%w: row id %d: %v", errNoRow, rowid, err)
		}
		if err == nil && rec.NumRows() == 0 { // a deleted row
			rec.Release()
			return nil, fmt.Errorf("%w: row id %d", errNoRow, rowid)
		}
		return one(rec, err)
	}
	id, err := strconv.ParseInt(q.Get("id"), 10, 64)
	if err != nil {
		return nil, fmt.Errorf("%w: want ?id=N or ?rowid=N: %v", errBadRequest, err)
	}
	o := lance.DatasetScanOptions{
		ReadOptions: lance.ReadOptions{Columns: cols, WithRowID: true},
		Filter:      expr.Eq(expr.Col(h.idColumn), expr.Lit(id)),
		Limit:       1,
	}
	recs, err := h.collect(ctx, o)
	if err == nil && len(recs) == 0 {
		return nil, fmt.Errorf("%w: no row with %s = %d", errNoRow, h.idColumn, id)
	}
	return recs, err
}

// scan answers ?filter=SQL&limit=N: the first limit rows the filter
// selects (all rows without a filter).
func (h *handler) scan(ctx context.Context, r *http.Request) ([]arrow.RecordBatch, error) {
	q := r.URL.Query()
	limit := 100
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > h.maxLimit {
			return nil, fmt.Errorf("%w: limit %q: want 1 to %d", errBadRequest, s, h.maxLimit)
		}
		limit = n
	}
	return h.collect(ctx, lance.DatasetScanOptions{
		ReadOptions: lance.ReadOptions{Columns: columns(q.Get("columns"))},
		FilterSQL:   q.Get("filter"),
		Limit:       uint64(limit),
	})
}

// nearest answers ?column=v&vector=1,2,3&k=5: Dataset.Nearest, through
// the column's vector index when it has one.
func (h *handler) nearest(ctx context.Context, r *http.Request) ([]arrow.RecordBatch, error) {
	q := r.URL.Query()
	vq := lance.VectorQuery{
		Column:    q.Get("column"),
		K:         10,
		Filter:    q.Get("filter"),
		Prefilter: q.Get("prefilter") == "true",
		Columns:   columns(q.Get("columns")),
		WithRowID: true,
	}
	if vq.Column == "" {
		return nil, fmt.Errorf("%w: want ?column=", errBadRequest)
	}
	vec, err := parseVector(q.Get("vector"))
	if err != nil {
		return nil, err
	}
	vq.Vector = vec
	if s := q.Get("k"); s != "" {
		if vq.K, err = strconv.Atoi(s); err != nil {
			return nil, fmt.Errorf("%w: k %q: %v", errBadRequest, s, err)
		}
	}
	if s := q.Get("metric"); s != "" {
		if vq.Metric, err = lance.ParseMetric(s); err != nil {
			return nil, fmt.Errorf("%w: metric %q: %v", errBadRequest, s, err)
		}
	}
	return one(h.ds.Nearest(ctx, vq))
}

// one makes a list of one batch.
func one(rec arrow.RecordBatch, err error) ([]arrow.RecordBatch, error) {
	if err != nil {
		return nil, err
	}
	return []arrow.RecordBatch{rec}, nil
}

// release releases every batch of recs.
func release(recs []arrow.RecordBatch) {
	for _, rec := range recs {
		rec.Release()
	}
}

// collect runs a scan and returns its non-empty batches.
func (h *handler) collect(ctx context.Context, o lance.DatasetScanOptions) (recs []arrow.RecordBatch, err error) {
	for rec, err := range h.ds.Batches(ctx, o) {
		if err != nil {
			release(recs)
			return nil, err
		}
		if rec.NumRows() == 0 {
			rec.Release()
			continue
		}
		recs = append(recs, rec)
	}
	return recs, nil
}

// columns splits a comma-separated column list ("" means every column).
func columns(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// parseVector parses "1,2.5,-3" as float32s.
func parseVector(s string) ([]float32, error) {
	if s == "" {
		return nil, fmt.Errorf("%w: want ?vector=x,y,z (comma-separated numbers)", errBadRequest)
	}
	parts := strings.Split(s, ",")
	vec := make([]float32, len(parts))
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 32)
		if err != nil {
			return nil, fmt.Errorf("%w: vector element %d %q: %v", errBadRequest, i, p, err)
		}
		vec[i] = float32(f)
	}
	return vec, nil
}

// rowsJSON renders the rows of recs as {"rows": [{column: value, ...}, ...]}.
func rowsJSON(recs []arrow.RecordBatch) ([]byte, error) {
	var lines bytes.Buffer
	for _, rec := range recs {
		if err := array.RecordToJSON(rec, &lines); err != nil {
			return nil, err
		}
	}
	var body bytes.Buffer
	body.WriteString(`{"rows":[`)
	n := 0
	for line := range bytes.SplitSeq(lines.Bytes(), []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if n > 0 {
			body.WriteByte(',')
		}
		body.Write(line)
		n++
	}
	body.WriteString("]}\n")
	return body.Bytes(), nil
}

// writeJSON writes v as JSON with the status code.
func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}
