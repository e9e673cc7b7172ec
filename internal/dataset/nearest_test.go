package dataset

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/vector"
)

// vectorDataset writes n random dim-dimensional float32 vectors (column
// "vec", with "id") in fragments of per rows.
func vectorDataset(tb testing.TB, n, dim, per int) *Dataset {
	tb.Helper()
	mem := memory.DefaultAllocator
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "vec", Type: arrow.FixedSizeListOf(int32(dim), arrow.PrimitiveTypes.Float32)},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	r := rand.New(rand.NewPCG(5, 6))
	vb := b.Field(1).(*array.FixedSizeListBuilder)
	fb := vb.ValueBuilder().(*array.Float32Builder)
	for i := 0; i < n; i++ {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		vb.Append(true)
		for j := 0; j < dim; j++ {
			fb.Append(float32(r.NormFloat64()))
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	rdr, err := array.NewRecordReader(schema, []arrow.RecordBatch{rec})
	if err != nil {
		tb.Fatal(err)
	}
	defer rdr.Release()
	ds, err := CreateDataset(context.Background(), filepath.Join(tb.TempDir(), "ds"), rdr, WithMaxRowsPerFile(int64(per)))
	if err != nil {
		tb.Fatal(err)
	}
	return ds
}

func TestNearestRejectsBadQueries(t *testing.T) {
	ds := vectorDataset(t, 50, 4, 20)
	defer ds.Close()
	ok := VectorQuery{Column: "vec", Vector: []float32{1, 2, 3, 4}, K: 3}
	for name, mod := range map[string]func(*VectorQuery){
		"dimension":  func(q *VectorQuery) { q.Vector = []float32{1, 2, 3} },
		"non-vector": func(q *VectorQuery) { q.Column = "id" },
		"no column":  func(q *VectorQuery) { q.Column = "nope" },
		"metric":     func(q *VectorQuery) { q.Metric = vector.Metric(42) },
		"hamming f32": func(q *VectorQuery) {
			q.Metric = vector.Hamming
		},
		"k=0":        func(q *VectorQuery) { q.K = 0 },
		"k huge":     func(q *VectorQuery) { q.K = MaxNearestK + 1 },
		"nan":        func(q *VectorQuery) { q.Vector = []float64{1, math.NaN(), 3, 4} },
		"vector":     func(q *VectorQuery) { q.Vector = "1,2,3,4" },
		"nprobes":    func(q *VectorQuery) { q.MinNprobes, q.MaxNprobes = 5, 2 },
		"two filter": func(q *VectorQuery) { q.Filter = "id > 1"; q.FilterExpr = expr.Gt(expr.Col("id"), expr.Lit(2)) },
	} {
		q := ok
		mod(&q)
		if _, err := ds.Nearest(context.Background(), q); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%s: %v, want ErrInvalidArgument", name, err)
		}
	}
	var st NearestStats
	rec, err := ds.Nearest(context.Background(), ok, WithNearestStats(&st))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	if rec.NumRows() != 3 || st.RowsScanned != 50 || st.IndexUsed || st.Note == "" {
		t.Errorf("rows %d stats %+v", rec.NumRows(), st)
	}
}

// TestNearestIndexSeam: an IndexSearcher that answers is used (unless
// NoIndex), one that declines falls back to exact search with a note.
func TestNearestIndexSeam(t *testing.T) {
	ds := vectorDataset(t, 30, 4, 10)
	defer ds.Close()
	q := VectorQuery{Column: "vec", Vector: []float32{0, 0, 0, 0}, K: 2, Columns: []string{"id"}}
	calls := 0
	decline := func(ctx context.Context, ds *Dataset, q VectorQuery, pq *vector.Query) (arrow.RecordBatch, bool, error) {
		calls++
		return nil, false, nil
	}
	var st NearestStats
	rec, err := ds.Nearest(context.Background(), q, WithIndexSearcher(decline), WithNearestStats(&st))
	if err != nil {
		t.Fatal(err)
	}
	rec.Release()
	if calls != 1 || st.IndexUsed || st.Note == "" {
		t.Errorf("calls %d stats %+v", calls, st)
	}
	q.NoIndex = true
	rec, err = ds.Nearest(context.Background(), q, WithIndexSearcher(decline), WithNearestStats(&st))
	if err != nil {
		t.Fatal(err)
	}
	rec.Release()
	if calls != 1 || st.Note != "" {
		t.Errorf("NoIndex: calls %d stats %+v", calls, st)
	}
}

// BenchmarkNearestExact measures exact search throughput over 100,000
// 128-dimensional float32 vectors (vectors/s scanned).
func BenchmarkNearestExact(b *testing.B) {
	const n, dim = 100_000, 128
	ds := vectorDataset(b, n, dim, 25_000)
	defer ds.Close()
	q := make([]float32, dim)
	for i := range q {
		q[i] = float32(i%7) / 7
	}
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		rec, err := ds.Nearest(ctx, VectorQuery{Column: "vec", Vector: q, K: 10, Columns: []string{"id"}})
		if err != nil {
			b.Fatal(err)
		}
		rec.Release()
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "vectors/s")
}
