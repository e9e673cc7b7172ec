package vector

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// naive distances in float64, the definitions of doc.go.
func naive(m Metric, q, x []float64) float64 {
	var dot, qq, xx, l2 float64
	for i := range q {
		dot += q[i] * x[i]
		qq += q[i] * q[i]
		xx += x[i] * x[i]
		l2 += (q[i] - x[i]) * (q[i] - x[i])
	}
	switch m {
	case L2:
		return l2
	case Cosine:
		return 1 - dot/math.Sqrt(qq*xx)
	case Dot:
		return 1 - dot
	}
	n := 0
	for i := range q {
		n += popcount(byte(q[i]) ^ byte(x[i]))
	}
	return float64(n)
}

func popcount(b byte) int {
	n := 0
	for ; b != 0; b &= b - 1 {
		n++
	}
	return n
}

func TestDistancesMatchDefinitions(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, dim := range []int{1, 3, 4, 7, 16, 33} {
		for _, m := range []Metric{L2, Cosine, Dot, Hamming} {
			const n = 20
			vals := make([]float32, n*dim)
			for i := range vals {
				if m == Hamming {
					vals[i] = float32(r.IntN(256))
				} else {
					vals[i] = float32(r.NormFloat64())
				}
			}
			qv := make([]float32, dim)
			for i := range qv {
				qv[i] = vals[i] + 1
				if m == Hamming {
					qv[i] = float32(r.IntN(256))
				}
			}
			q, err := NewQuery(m, qv)
			if err != nil {
				t.Fatal(err)
			}
			fsl := buildFSL(t, m == Hamming, dim, vals)
			defer fsl.Release()
			out := make([]float32, n)
			if err := q.Distances(fsl, out, make([]float32, dim)); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < n; i++ {
				want := naive(m, conv(qv), conv(vals[i*dim:(i+1)*dim]))
				if d := math.Abs(float64(out[i]) - want); d > 1e-4*math.Max(1, math.Abs(want)) {
					t.Errorf("%v dim %d row %d: %v, want %v", m, dim, i, out[i], want)
				}
			}
		}
	}
}

func buildFSL(t *testing.T, bytes bool, dim int, vals []float32) *array.FixedSizeList {
	t.Helper()
	var elem arrow.DataType = arrow.PrimitiveTypes.Float32
	if bytes {
		elem = arrow.PrimitiveTypes.Uint8
	}
	b := array.NewFixedSizeListBuilder(memory.DefaultAllocator, int32(dim), elem)
	defer b.Release()
	for i := 0; i < len(vals)/dim; i++ {
		b.Append(true)
		for _, v := range vals[i*dim : (i+1)*dim] {
			if bytes {
				b.ValueBuilder().(*array.Uint8Builder).Append(uint8(v))
			} else {
				b.ValueBuilder().(*array.Float32Builder).Append(v)
			}
		}
	}
	return b.NewArray().(*array.FixedSizeList)
}

func TestQueryErrors(t *testing.T) {
	for _, c := range []struct {
		m Metric
		v any
	}{
		{L2, []float32{}},
		{L2, []float32{1, float32(math.NaN())}},
		{L2, []float64{math.Inf(1)}},
		{Metric(9), []float32{1}},
		{Hamming, []float32{1.5}},
		{Hamming, []int{256}},
		{L2, "x"},
	} {
		if _, err := NewQuery(c.m, c.v); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("NewQuery(%v, %v): %v, want ErrInvalidArgument", c.m, c.v, err)
		}
	}
	if _, err := ParseMetric("manhattan"); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("ParseMetric: %v", err)
	}
	q, _ := NewQuery(L2, []float32{1, 2})
	for _, typ := range []arrow.DataType{
		arrow.PrimitiveTypes.Float32,
		arrow.FixedSizeListOf(3, arrow.PrimitiveTypes.Float32),
		arrow.FixedSizeListOf(2, arrow.BinaryTypes.String),
	} {
		if err := q.CheckColumn("v", typ); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("CheckColumn(%s): %v", typ, err)
		}
	}
}

func TestTopKOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, k := range []int{1, 5, 50, 500} {
		var all []Hit
		tk := NewTopK(k)
		for i := 0; i < 300; i++ {
			h := Hit{float32(r.IntN(20)), uint64(r.IntN(1000))}
			all = append(all, h)
			tk.Push(h.Distance, h.RowID)
		}
		tk.Push(float32(math.NaN()), 0)
		slices.SortStableFunc(all, func(a, b Hit) int {
			if less(a, b) {
				return -1
			}
			if less(b, a) {
				return 1
			}
			return 0
		})
		want := all[:min(k, len(all))]
		if got := tk.Sorted(); !slices.Equal(got, want) {
			t.Errorf("k=%d: got %v, want %v", k, got[:min(5, len(got))], want[:min(5, len(want))])
		}
	}
}

func FuzzDistances(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8}, uint8(2), uint8(0))
	f.Add([]byte{0, 0, 0, 0}, uint8(1), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, dim, metric uint8) {
		d := int(dim%16) + 1
		m := Metric(metric % 4)
		if len(data) < d {
			return
		}
		vals := make([]float32, len(data)/d*d)
		for i := range vals {
			vals[i] = float32(data[i])
		}
		q, err := NewQuery(m, vals[:d])
		if err != nil {
			t.Fatal(err)
		}
		fsl := buildFSL(t, m == Hamming, d, vals)
		defer fsl.Release()
		out := make([]float32, fsl.Len())
		if err := q.Distances(fsl, out, make([]float32, d)); err != nil {
			t.Fatal(err)
		}
		if m == L2 || m == Hamming {
			if out[0] != 0 {
				t.Fatalf("%v distance to itself %v", m, out[0])
			}
		}
	})
}
