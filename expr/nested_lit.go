package expr

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Array literals as Lance's planner builds them where a filter compares
// one with a column: every element a literal (numbers optionally
// negated), all of the first element's type after Lance's lossless
// coercion (an integer becomes a float, a non-negative one an unsigned
// integer), then cast to the column's type as arrow-rs casts with
// safe=true.

// arrLitType is the type Lance's planner gives a literal in an array.
type arrLitType uint8

const (
	alNull arrLitType = iota
	alInt64
	alUint64
	alFloat64
	alUtf8
	alBinary
	alBool
)

var arrLitTypeNames = [...]string{"Null", "Int64", "UInt64", "Float64", "Utf8", "Binary", "Boolean"}

// arrLitVal is one element of an array literal, coerced to the array's type.
type arrLitVal struct {
	t arrLitType
	i int64
	u uint64
	f float64
	s string
	b bool
}

// arrLit types a literal as Lance's planner does.
func arrLit(l *Literal) (arrLitVal, error) {
	switch l.Kind {
	case LitNull:
		return arrLitVal{t: alNull}, nil
	case LitBool:
		return arrLitVal{t: alBool, b: l.Bool}, nil
	case LitInt:
		return arrLitVal{t: alInt64, i: l.Int}, nil
	case LitFloat:
		if u, err := strconv.ParseUint(strings.TrimPrefix(l.Text, "+"), 10, 64); err == nil && l.Text != "" {
			return arrLitVal{t: alUint64, u: u}, nil
		}
		return arrLitVal{t: alFloat64, f: l.Float}, nil
	case LitString:
		return arrLitVal{t: alUtf8, s: l.Str}, nil
	case LitBinary:
		return arrLitVal{t: alBinary, s: l.Str}, nil
	}
	return arrLitVal{}, fmt.Errorf("%w: Expected a literal value in array, instead got %s (at %d)", ErrBind, l, l.At)
}

// arrLitCoerce converts v to type t losslessly (Lance's safe_coerce_scalar).
func arrLitCoerce(v arrLitVal, t arrLitType) (arrLitVal, bool) {
	switch {
	case v.t == t:
		return v, true
	case v.t == alInt64 && t == alUint64 && v.i >= 0:
		return arrLitVal{t: t, u: uint64(v.i)}, true
	case v.t == alInt64 && t == alFloat64:
		return arrLitVal{t: t, f: float64(v.i)}, true
	case v.t == alUint64 && t == alInt64 && v.u <= math.MaxInt64:
		return arrLitVal{t: t, i: int64(v.u)}, true
	case v.t == alUint64 && t == alFloat64:
		return arrLitVal{t: t, f: float64(v.u)}, true
	}
	return v, false
}

// arrLitList builds the one-row list of type want from an array literal.
func arrLitList(mem memory.Allocator, x *Array, want arrow.DataType) (arrow.Array, error) {
	et := nestElem(want)
	if et == nil || want.ID() == arrow.MAP {
		return nil, fmt.Errorf("%w: an array literal cannot convert to %s", ErrBind, want)
	}
	if len(x.Elems) == 0 {
		return nil, fmt.Errorf("%w: array literal %s (at %d): concat requires input of at least one array", ErrBind, x, x.At)
	}
	vals := make([]arrLitVal, len(x.Elems))
	for i, e := range x.Elems {
		var l *Literal
		switch y := e.(type) {
		case *Literal:
			l = y
		case *Neg:
			if z, ok := y.X.(*Literal); ok && (z.Kind == LitInt || z.Kind == LitFloat) {
				l = &Literal{Kind: z.Kind, Int: -z.Int, Float: -z.Float, At: y.At}
				if z.Text != "" && !strings.HasPrefix(z.Text, "-") {
					l.Text = "-" + z.Text
				}
			}
		}
		if l == nil {
			return nil, fmt.Errorf("%w: Expected a literal value in array, instead got %s at position %d", ErrBind, e, i)
		}
		v, err := arrLit(l)
		if err != nil {
			return nil, err
		}
		if i > 0 && v.t != vals[0].t {
			if v.t == alNull || vals[0].t == alNull {
				return nil, fmt.Errorf("%w: array literal %s (at %d): It is not possible to concatenate arrays of different data types (%s, %s)", ErrBind, x, x.At, arrLitTypeNames[vals[0].t], arrLitTypeNames[v.t])
			}
			c, ok := arrLitCoerce(v, vals[0].t)
			if !ok {
				return nil, fmt.Errorf("%w: Array expressions must have a consistent datatype. Expected: %s, got: %s (%s at %d)", ErrBind, arrLitTypeNames[vals[0].t], arrLitTypeNames[v.t], x, x.At)
			}
			v = c
		}
		vals[i] = v
	}
	if f, ok := want.(*arrow.FixedSizeListType); ok && int(f.Len()) != len(vals) {
		return nullOf(mem, want), nil
	}
	eb := array.NewBuilder(mem, et)
	defer eb.Release()
	for _, v := range vals {
		if err := arrLitAppend(eb, v, et); err != nil {
			return nil, err
		}
	}
	child := eb.NewArray()
	defer child.Release()
	out := newNestOut(1)
	for i := range vals {
		out.add(i)
	}
	out.end(true)
	lit, err := out.finish(mem, child, want)
	if err == nil {
		warmNullCounts(lit)
	}
	return lit, err
}

// warmNullCounts computes the NULL counts arrow-go caches lazily in a
// constant array and its children, so that evaluations sharing the
// constant only read them (a lazy first computation is a write: a data
// race between goroutines).
func warmNullCounts(a arrow.Array) {
	a.NullN()
	for _, c := range a.Data().Children() {
		ca := array.MakeFromData(c)
		warmNullCounts(ca)
		ca.Release()
	}
}

// arrLitAppend appends v cast to t (arrow-rs's cast, safe: a value that does
// not convert is NULL); a cast arrow-rs refuses is an error.
func arrLitAppend(eb array.Builder, v arrLitVal, t arrow.DataType) error {
	if v.t == alNull {
		eb.AppendNull()
		return nil
	}
	unsupported := fmt.Errorf("%w: could not convert a %s array element to %s", ErrBind, arrLitTypeNames[v.t], t)
	switch bb := eb.(type) {
	case *array.Int8Builder, *array.Int16Builder, *array.Int32Builder, *array.Int64Builder:
		i, ok, err := arrLitInt(v, t)
		if err != nil {
			return unsupported
		}
		if !ok {
			eb.AppendNull()
			return nil
		}
		switch b := bb.(type) {
		case *array.Int8Builder:
			b.Append(int8(i))
		case *array.Int16Builder:
			b.Append(int16(i))
		case *array.Int32Builder:
			b.Append(int32(i))
		case *array.Int64Builder:
			b.Append(i)
		}
	case *array.Uint8Builder, *array.Uint16Builder, *array.Uint32Builder, *array.Uint64Builder:
		u, ok, err := arrLitUint(v, t)
		if err != nil {
			return unsupported
		}
		if !ok {
			eb.AppendNull()
			return nil
		}
		switch b := bb.(type) {
		case *array.Uint8Builder:
			b.Append(uint8(u))
		case *array.Uint16Builder:
			b.Append(uint16(u))
		case *array.Uint32Builder:
			b.Append(uint32(u))
		case *array.Uint64Builder:
			b.Append(u)
		}
	case *array.Float16Builder, *array.Float32Builder, *array.Float64Builder:
		f, ok := 0.0, true
		switch v.t {
		case alInt64:
			f = float64(v.i)
		case alUint64:
			f = float64(v.u)
		case alFloat64:
			f = v.f
		case alBool:
			f = float64(b2i(v.b))
		case alUtf8:
			var err error
			f, err = strconv.ParseFloat(v.s, 64)
			ok = err == nil || arrLitRangeErr(err)
		default:
			return unsupported
		}
		switch {
		case !ok:
			eb.AppendNull()
		case t.ID() == arrow.FLOAT16:
			bb.(*array.Float16Builder).Append(float16.New(float32(f)))
		case t.ID() == arrow.FLOAT32:
			bb.(*array.Float32Builder).Append(float32(f))
		default:
			bb.(*array.Float64Builder).Append(f)
		}
	case *array.BooleanBuilder:
		switch v.t {
		case alBool:
			bb.Append(v.b)
		case alInt64:
			bb.Append(v.i != 0)
		case alUint64:
			bb.Append(v.u != 0)
		case alFloat64:
			bb.Append(v.f != 0)
		case alUtf8:
			switch strings.ToLower(v.s) {
			case "true", "t", "yes", "y", "on", "1":
				bb.Append(true)
			case "false", "f", "no", "n", "off", "0":
				bb.Append(false)
			default:
				bb.AppendNull()
			}
		default:
			return unsupported
		}
	case *array.StringBuilder, *array.LargeStringBuilder:
		var s string
		switch v.t {
		case alUtf8:
			s = v.s
		case alInt64:
			s = strconv.FormatInt(v.i, 10)
		case alUint64:
			s = strconv.FormatUint(v.u, 10)
		case alFloat64:
			s = nestRustFloat(v.f)
		case alBool:
			s = strconv.FormatBool(v.b)
		case alBinary:
			if !utf8.ValidString(v.s) {
				eb.AppendNull()
				return nil
			}
			s = v.s
		}
		if b, ok := bb.(*array.StringBuilder); ok {
			b.Append(s)
		} else {
			bb.(*array.LargeStringBuilder).Append(s)
		}
	case *array.BinaryBuilder:
		if v.t != alUtf8 && v.t != alBinary {
			return unsupported
		}
		bb.AppendString(v.s)
	case *array.Decimal128Builder:
		d, ok, err := arrLitDecimal(v, t.(*arrow.Decimal128Type))
		if err != nil {
			return unsupported
		}
		if !ok {
			eb.AppendNull()
			return nil
		}
		bb.Append(d)
	default:
		return unsupported
	}
	return nil
}

func arrLitRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// arrLitInt converts v to the signed integer type t (false: NULL).
func arrLitInt(v arrLitVal, t arrow.DataType) (int64, bool, error) {
	lo, hi := intRange(t)
	switch v.t {
	case alInt64:
		return v.i, v.i >= lo && v.i <= hi, nil
	case alUint64:
		return int64(v.u), v.u <= uint64(hi), nil
	case alFloat64:
		f := math.Trunc(v.f)
		if math.IsNaN(f) || f < float64(lo) || f >= -float64(lo) || int64(f) > hi {
			return 0, false, nil
		}
		return int64(f), true, nil
	case alBool:
		return int64(b2i(v.b)), true, nil
	case alUtf8:
		i, err := strconv.ParseInt(v.s, 10, 64)
		return i, err == nil && i >= lo && i <= hi, nil
	}
	return 0, false, ErrBind
}

// arrLitUint converts v to the unsigned integer type t (false: NULL).
func arrLitUint(v arrLitVal, t arrow.DataType) (uint64, bool, error) {
	hi := uintMax(t)
	switch v.t {
	case alInt64:
		return uint64(v.i), v.i >= 0 && uint64(v.i) <= hi, nil
	case alUint64:
		return v.u, v.u <= hi, nil
	case alFloat64:
		f := math.Trunc(v.f)
		if math.IsNaN(f) || f < 0 || f >= 18446744073709551616.0 || uint64(f) > hi {
			return 0, false, nil
		}
		return uint64(f), true, nil
	case alBool:
		return uint64(b2i(v.b)), true, nil
	case alUtf8:
		u, err := strconv.ParseUint(strings.TrimPrefix(v.s, "+"), 10, 64)
		return u, err == nil && u <= hi, nil
	}
	return 0, false, ErrBind
}

// arrLitDecimal converts v to decimal type t, rounding half away from zero
// (false: NULL, the value does not fit the precision).
func arrLitDecimal(v arrLitVal, t *arrow.Decimal128Type) (decimal128.Num, bool, error) {
	var r *big.Rat
	switch v.t {
	case alInt64:
		r = new(big.Rat).SetInt64(v.i)
	case alUint64:
		r = new(big.Rat).SetUint64(v.u)
	case alFloat64:
		if math.IsNaN(v.f) || math.IsInf(v.f, 0) {
			return decimal128.Num{}, false, nil
		}
		r = new(big.Rat).SetFloat64(v.f)
	case alUtf8:
		var ok bool
		if r, ok = new(big.Rat).SetString(v.s); !ok {
			return decimal128.Num{}, false, nil
		}
	default:
		return decimal128.Num{}, false, ErrBind
	}
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(t.Scale)), nil)
	r.Mul(r, new(big.Rat).SetInt(scale))
	q, m := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	if new(big.Int).Mul(new(big.Int).Abs(m), big.NewInt(2)).Cmp(r.Denom()) >= 0 {
		q.Add(q, big.NewInt(int64(r.Sign())))
	}
	limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(t.Precision)), nil)
	if q.CmpAbs(limit) >= 0 {
		return decimal128.Num{}, false, nil
	}
	return decimal128.FromBigInt(q), true, nil
}

// nestRustFloat formats f as arrow-rs casts a float to a string: the
// shortest digits, "1.0" for integral values, exponents as "1e20".
func nestRustFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if i := strings.IndexByte(s, 'e'); i >= 0 {
		mant, exp := s[:i], strings.TrimPrefix(s[i+1:], "+")
		neg := strings.HasPrefix(exp, "-")
		exp = strings.TrimLeft(strings.TrimPrefix(exp, "-"), "0")
		if neg {
			exp = "-" + exp
		}
		return mant + "e" + exp
	}
	if !strings.ContainsAny(s, ".") {
		s += ".0"
	}
	return s
}
