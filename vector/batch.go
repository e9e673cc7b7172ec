package vector

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
)

// Query is a query vector prepared for one metric and element type: its
// values as float32, float64 and bytes, and its norm for cosine.
type Query struct {
	Metric Metric
	Dim    int
	f32    []float32
	f64    []float64
	u8     []byte
	n32    float32
	n64    float64
	// h32 is the query rounded to float16 (Lance casts the query to the
	// column's element type) and h32n its norm, for float16 columns.
	h32  []float32
	h32n float32
}

// NewQuery checks and prepares a query vector (a []float32, []float64,
// []float16.Num, []byte, []int, []int64 or an Arrow numeric array). NaN or
// infinite components are an error, as is an unknown metric or an empty
// vector. Hamming queries must be integral values in [0, 255].
func NewQuery(m Metric, v any) (*Query, error) {
	if !m.Valid() {
		return nil, fmt.Errorf("%w: unknown metric %v", ErrInvalidArgument, m)
	}
	vals, err := toFloat64s(v)
	if err != nil {
		return nil, err
	}
	if len(vals) == 0 {
		return nil, fmt.Errorf("%w: empty query vector", ErrInvalidArgument)
	}
	q := &Query{Metric: m, Dim: len(vals), f64: vals, f32: make([]float32, len(vals)), u8: make([]byte, len(vals))}
	for i, x := range vals {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%w: query vector component %d is %v", ErrInvalidArgument, i, x)
		}
		q.f32[i] = float32(x)
		if m == Hamming {
			if x < 0 || x > 255 || x != math.Trunc(x) {
				return nil, fmt.Errorf("%w: hamming query component %d is %v, not a byte", ErrInvalidArgument, i, x)
			}
			q.u8[i] = byte(x)
		}
	}
	q.n32 = float32(math.Sqrt(float64(DotF32(q.f32, q.f32))))
	q.h32 = make([]float32, len(vals))
	for i, x := range q.f32 {
		q.h32[i] = HalfToFloat32(Float32ToHalf(x))
	}
	q.h32n = float32(math.Sqrt(float64(DotF32(q.h32, q.h32))))
	q.n64 = math.Sqrt(DotF64(q.f64, q.f64))
	return q, nil
}

func toFloat64s(v any) ([]float64, error) {
	switch x := v.(type) {
	case []float64:
		return append([]float64(nil), x...), nil
	case []float32:
		return conv(x), nil
	case []float16.Num:
		out := make([]float64, len(x))
		for i, h := range x {
			out[i] = float64(HalfToFloat32(h.Uint16()))
		}
		return out, nil
	case []byte:
		return conv(x), nil
	case []int:
		return conv(x), nil
	case []int32:
		return conv(x), nil
	case []int64:
		return conv(x), nil
	case arrow.Array:
		return arrowFloats(x)
	}
	return nil, fmt.Errorf("%w: query vector of type %T (want a numeric slice or Arrow array)", ErrInvalidArgument, v)
}

func conv[T float32 | byte | int | int32 | int64](x []T) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}

func arrowFloats(a arrow.Array) ([]float64, error) {
	if fsl, ok := a.(*array.FixedSizeList); ok && fsl.Len() == 1 {
		return arrowFloats(array.NewSlice(fsl.ListValues(), 0, int64(fsl.DataType().(*arrow.FixedSizeListType).Len())))
	}
	if a.NullN() > 0 {
		return nil, fmt.Errorf("%w: query vector has nulls", ErrInvalidArgument)
	}
	switch x := a.(type) {
	case *array.Float32:
		return conv(x.Float32Values()), nil
	case *array.Float64:
		return append([]float64(nil), x.Float64Values()...), nil
	case *array.Float16:
		return toFloat64s(x.Values())
	case *array.Uint8:
		return conv(x.Uint8Values()), nil
	case *array.Int32:
		return conv(x.Int32Values()), nil
	case *array.Int64:
		return conv(x.Int64Values()), nil
	}
	return nil, fmt.Errorf("%w: query vector of Arrow type %s", ErrInvalidArgument, a.DataType())
}

// CheckColumn reports whether a column of type t can be searched with q:
// a fixed-size list of float16/float32/float64 (any metric but hamming)
// or uint8 (hamming, or l2/cosine/dot computed in float32) of q's dimension.
func (q *Query) CheckColumn(name string, t arrow.DataType) error {
	fsl, ok := t.(*arrow.FixedSizeListType)
	if !ok {
		return fmt.Errorf("%w: column %q is %s, not a vector (fixed-size list) column", ErrInvalidArgument, name, t)
	}
	if int(fsl.Len()) != q.Dim {
		return fmt.Errorf("%w: column %q has dimension %d, the query %d", ErrInvalidArgument, name, fsl.Len(), q.Dim)
	}
	switch fsl.Elem().ID() {
	case arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64:
		if q.Metric == Hamming {
			return fmt.Errorf("%w: hamming distance needs a uint8 vector column, %q is %s", ErrInvalidArgument, name, t)
		}
	case arrow.UINT8:
	default:
		return fmt.Errorf("%w: column %q has %s elements (want float16, float32, float64 or uint8)", ErrInvalidArgument, name, fsl.Elem())
	}
	return nil
}

// Distances writes the distance from q to each row of the fixed-size list
// into out[:fsl.Len()] (out must be at least that long). A null row gets
// NaN (callers drop it). scratch is a float32 buffer of at least q.Dim
// values reused for float16 and uint8 rows; no memory is allocated per row.
func (q *Query) Distances(fsl *array.FixedSizeList, out []float32, scratch []float32) error {
	n := fsl.Len()
	d := q.Dim
	if int(fsl.DataType().(*arrow.FixedSizeListType).Len()) != d {
		return fmt.Errorf("%w: vectors of dimension %d, query %d", ErrInvalidArgument, fsl.DataType().(*arrow.FixedSizeListType).Len(), d)
	}
	off := fsl.Offset() * d
	vals := fsl.ListValues()
	switch v := vals.(type) {
	case *array.Float32:
		all := v.Float32Values()
		for i := 0; i < n; i++ {
			b := (off + i*d)
			out[i] = q.f32Dist(all[b : b+d])
		}
	case *array.Float64:
		all := v.Float64Values()
		for i := 0; i < n; i++ {
			b := off + i*d
			out[i] = q.f64Dist(all[b : b+d])
		}
	case *array.Float16:
		all := v.Values()
		s := scratch[:d]
		for i := 0; i < n; i++ {
			b := off + i*d
			for j, h := range all[b : b+d] {
				s[j] = HalfToFloat32(h.Uint16())
			}
			out[i] = q.h32Dist(s)
		}
	case *array.Uint8:
		all := v.Uint8Values()
		s := scratch[:d]
		for i := 0; i < n; i++ {
			b := off + i*d
			row := all[b : b+d]
			if q.Metric == Hamming {
				out[i] = HammingU8(q.u8, row)
				continue
			}
			for j, x := range row {
				s[j] = float32(x)
			}
			out[i] = q.f32Dist(s)
		}
	default:
		return fmt.Errorf("%w: vectors of %s", ErrInvalidArgument, vals.DataType())
	}
	if fsl.NullN() > 0 {
		nan := float32(math.NaN())
		for i := 0; i < n; i++ {
			if fsl.IsNull(i) {
				out[i] = nan
			}
		}
	}
	return nil
}

func (q *Query) f32Dist(x []float32) float32 {
	switch q.Metric {
	case L2:
		return L2F32(q.f32, x)
	case Cosine:
		return cosineF32(q.f32, q.n32, x)
	case Dot:
		return 1 - DotF32(q.f32, x)
	}
	return float32(math.NaN())
}

func (q *Query) h32Dist(x []float32) float32 {
	switch q.Metric {
	case L2:
		return L2F32(q.h32, x)
	case Cosine:
		return cosineF32(q.h32, q.h32n, x)
	case Dot:
		return 1 - DotF32(q.h32, x)
	}
	return float32(math.NaN())
}

func (q *Query) f64Dist(x []float64) float32 {
	switch q.Metric {
	case L2:
		return float32(L2F64(q.f64, x))
	case Cosine:
		return float32(cosineF64(q.f64, q.n64, x))
	case Dot:
		return float32(1 - DotF64(q.f64, x))
	}
	return float32(math.NaN())
}

// Float32s returns the query's components as float32 (the query's own
// slice: do not modify it), as an index search takes them.
func (q *Query) Float32s() []float32 { return q.f32 }
