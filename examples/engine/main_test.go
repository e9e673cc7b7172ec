package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	lance "github.com/lancego/lancego"
	"github.com/lancego/lancego/expr"
)

// writeTable writes n rows in fragments of 300 rows, then deletes the ids
// ending in 3, so splits cross deletion files. price is null on every
// 11th row.
func writeTable(t *testing.T, n int) string {
	t.Helper()
	ctx := context.Background()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "category", Type: arrow.BinaryTypes.String},
		{Name: "qty", Type: arrow.PrimitiveTypes.Int32},
		{Name: "price", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	defer b.Release()
	for i := 0; i < n; i++ {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).(*array.StringBuilder).Append([]string{"a", "b", "c"}[i*7%3])
		b.Field(2).(*array.Int32Builder).Append(int32(i * 13 % 40))
		if i%11 == 0 {
			b.Field(3).AppendNull()
		} else {
			b.Field(3).(*array.Float64Builder).Append(float64(i) * 0.25)
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	rdr, err := array.NewRecordReader(schema, []arrow.RecordBatch{rec})
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Release()
	url := filepath.Join(t.TempDir(), "engine.lance")
	ds, err := lance.CreateDataset(ctx, url, rdr, lance.WithMaxRowsPerFile(300))
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	del, err := ds.Delete(ctx, "id % 10 = 3")
	if err != nil {
		t.Fatal(err)
	}
	if err := del.Close(); err != nil {
		t.Fatal(err)
	}
	return url
}

// expected aggregates, over a full scan without filter, the rows with
// qty > 10 and category 'b' (the predicate evaluated here in Go).
type expected struct {
	rows        uint64
	qty, id     int64
	price       float64
	countFilter uint64 // Dataset.CountRowsWhere of the SQL filter
}

func computeExpected(t *testing.T, url, filter string) expected {
	t.Helper()
	ctx := context.Background()
	ds, err := lance.OpenDataset(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	var e expected
	for rec, err := range ds.Batches(ctx, lance.DatasetScanOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		ids := rec.Column(0).(*array.Int64)
		cats := rec.Column(1).(*array.String)
		qtys := rec.Column(2).(*array.Int32)
		prices := rec.Column(3).(*array.Float64)
		for i := 0; i < int(rec.NumRows()); i++ {
			if qtys.Value(i) > 10 && cats.Value(i) == "b" {
				e.rows++
				e.qty += int64(qtys.Value(i))
				e.id += ids.Value(i)
				if prices.IsValid(i) {
					e.price += prices.Value(i)
				}
			}
		}
		rec.Release()
	}
	f, err := expr.Parse(filter)
	if err != nil {
		t.Fatal(err)
	}
	if e.countFilter, err = ds.CountRowsWhere(ctx, f); err != nil {
		t.Fatal(err)
	}
	return e
}

// TestEngine runs the engine over splits smaller than a fragment with
// several worker counts and compares its result with a full scan and
// Dataset.CountRowsWhere.
func TestEngine(t *testing.T) {
	url := writeTable(t, 3000)
	const filter = "qty > 10 AND category = 'b'"
	want := computeExpected(t, url, filter)
	if want.rows == 0 || want.rows != want.countFilter {
		t.Fatalf("test data: %d rows by the Go predicate, %d by CountRowsWhere", want.rows, want.countFilter)
	}
	for _, tc := range []struct {
		target, workers string
		minSplits       int
	}{
		{"0", "1", 10},   // one split per fragment: 3000/300
		{"250", "3", 11}, // splits inside fragments
		{"100000", "4", 1},
	} {
		var out bytes.Buffer
		args := []string{"-table", url, "-target", tc.target, "-workers", tc.workers,
			"-filter", filter, "-sum", "qty,price,id", "-json"}
		if err := run(context.Background(), args, &out); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		var res struct {
			Conjuncts []ConjunctPlan `json:"conjuncts"`
			Splits    int            `json:"splits"`
			Rows      uint64         `json:"rows"`
			Sums      struct {
				Qty   int64   `json:"qty"`
				ID    int64   `json:"id"`
				Price float64 `json:"price"`
			} `json:"sums"`
		}
		if err := json.Unmarshal(out.Bytes(), &res); err != nil {
			t.Fatalf("output %s: %v", out.String(), err)
		}
		if res.Rows != want.rows || res.Sums.Qty != want.qty || res.Sums.ID != want.id ||
			math.Abs(res.Sums.Price-want.price) > 1e-9*math.Abs(want.price) {
			t.Errorf("target %s: got %+v, want %+v", tc.target, res, want)
		}
		if res.Splits < tc.minSplits {
			t.Errorf("target %s: %d splits, want at least %d", tc.target, res.Splits, tc.minSplits)
		}
		if len(res.Conjuncts) != 2 || !res.Conjuncts[0].Applied || !res.Conjuncts[1].Applied {
			t.Errorf("conjuncts %+v, want two applied", res.Conjuncts)
		}
	}
}

// TestEngineText checks the text report and a count without sums or
// filter.
func TestEngineText(t *testing.T) {
	url := writeTable(t, 600)
	var out bytes.Buffer
	if err := run(context.Background(), []string{"-table", url}, &out); err != nil {
		t.Fatal(err)
	}
	// 600 rows minus the 60 ids ending in 3, in 2 fragments
	if !strings.Contains(out.String(), "2 splits, 540 matching rows") {
		t.Errorf("output %q", out.String())
	}
}

// TestEngineErrors checks the failures a coordinator reports before any
// worker runs.
func TestEngineErrors(t *testing.T) {
	url := writeTable(t, 300)
	for _, tc := range []struct {
		name string
		args []string
		is   error
		text string
	}{
		{"syntax", []string{"-filter", "qty >>= 3"}, expr.ErrSyntax, ""},
		{"unknown column", []string{"-filter", "nosuch > 3"}, errResidual, "nosuch"},
		{"residual", []string{"-filter", "qty > 3 AND no_such_function(qty) = 1"}, errResidual, "no_such_function"},
		{"sum of text", []string{"-sum", "category"}, nil, "not an integer"},
		{"sum of missing", []string{"-sum", "nosuch"}, nil, "no column"},
		{"no dataset", []string{"-table", filepath.Join(t.TempDir(), "none")}, lance.ErrNotDataset, ""},
		{"workers", []string{"-workers", "0"}, nil, "-workers"},
	} {
		args := append([]string{"-table", url}, tc.args...)
		err := run(context.Background(), args, &bytes.Buffer{})
		if err == nil || (tc.is != nil && !errors.Is(err, tc.is)) || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%s: err = %v, want %v containing %q", tc.name, err, tc.is, tc.text)
		}
	}
}
