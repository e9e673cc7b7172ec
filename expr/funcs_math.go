package expr

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
)

// mathFuncs are the numeric and NULL-handling functions (abs, round,
// coalesce, …), typed as DataFusion 54 (pylance 14.0.2) types them:
// float functions keep Float32 and turn integers and decimals into
// Float64; power gives Float64 (a decimal base keeps its type); gcd, lcm
// and factorial take Int64; coalesce and its kin unify their arguments.
// FLOOR and CEIL are refused by Lance's parser; mod() is unknown.
var mathFuncs = map[string]funcSpec{
	"abs":          {bind: bindAbs},
	"round":        {bind: bindRound},
	"trunc":        {bind: bindTrunc},
	"sqrt":         unaryFloat(math.Sqrt),
	"cbrt":         unaryFloat(math.Cbrt),
	"exp":          unaryFloat(math.Exp),
	"ln":           unaryFloat(math.Log),
	"log10":        unaryFloat(math.Log10),
	"log2":         unaryFloat(math.Log2),
	"log":          {bind: bindLog},
	"sin":          unaryFloat(math.Sin),
	"cos":          unaryFloat(math.Cos),
	"tan":          unaryFloat(math.Tan),
	"asin":         unaryFloat(math.Asin),
	"acos":         unaryFloat(math.Acos),
	"atan":         unaryFloat(math.Atan),
	"sinh":         unaryFloat(math.Sinh),
	"cosh":         unaryFloat(math.Cosh),
	"tanh":         unaryFloat(math.Tanh),
	"asinh":        unaryFloat(math.Asinh),
	"acosh":        unaryFloat(math.Acosh),
	"atanh":        unaryFloat(math.Atanh),
	"cot":          unaryFloat(func(x float64) float64 { return 1 / math.Tan(x) }),
	"degrees":      unaryFloat32(func(x float64) float64 { return x * (180 / math.Pi) }, func(x float32) float32 { return x * 57.2957795130823208767981548141051703 }),
	"radians":      unaryFloat32(func(x float64) float64 { return x * (math.Pi / 180) }, func(x float32) float32 { return x * (float32(math.Pi) / 180) }),
	"signum":       unaryFloat(signum),
	"atan2":        {bind: bindAtan2},
	"power":        {bind: bindPower},
	"pow":          {bind: bindPower},
	"pi":           {bind: bindPi},
	"isnan":        {bind: bindIsNaN},
	"iszero":       {bind: bindIsZero},
	"nanvl":        {bind: bindNanvl},
	"gcd":          {bind: bindGcdLcm},
	"lcm":          {bind: bindGcdLcm},
	"factorial":    {bind: bindFactorial},
	"coalesce":     {bind: bindCoalesce},
	"nvl":          {bind: bindCoalesce2},
	"ifnull":       {bind: bindCoalesce2},
	"nvl2":         {bind: bindNvl2},
	"nullif":       {bind: bindNullif},
	"greatest":     {bind: bindGreatestLeast},
	"least":        {bind: bindGreatestLeast},
	"arrow_typeof": {bind: bindArrowTypeof},
	"random":       {bind: bindRandom, volatile: true},
	"uuid":         {bind: bindUUID, volatile: true},
	"version":      {bind: bindVersion},
}

// dataFusionVersion is what version() returns (pylance 14.0.2's).
const dataFusionVersion = "Apache DataFusion 54.1.0, x86_64 on linux"

// signum is DataFusion's: 0 for both zeros, NaN for NaN, else ±1.
func signum(x float64) float64 {
	switch {
	case x == 0:
		return 0
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return x
}

// floatArgType is the type a float function computes in: Float32 stays,
// everything numeric else becomes Float64; NULL is Float64.
func floatArgType(t arrow.DataType) (arrow.DataType, bool) {
	switch {
	case t.ID() == arrow.FLOAT32:
		return t, true
	case isNumeric(t), t.ID() == arrow.NULL:
		return arrow.PrimitiveTypes.Float64, true
	}
	return nil, false
}

// wantArgs checks the argument count.
func wantArgs(c *Call, args []node, lo, hi int, want string) error {
	if len(args) < lo || len(args) > hi {
		return argCountError(c, want)
	}
	return nil
}

// unaryFloat is a float function of one argument, computed in float64
// (and rounded back for Float32 arguments).
func unaryFloat(f func(float64) float64) funcSpec { return unaryFloat32(f, nil) }

// unaryFloat32 is unaryFloat with a Float32 form of its own (computed in
// float32 as Rust's f32 methods are), when f32 is not nil.
func unaryFloat32(f func(float64) float64, f32 func(float32) float32) funcSpec {
	return funcSpec{bind: func(b *binder, c *Call, args []node) (node, error) {
		if err := wantArgs(c, args, 1, 1, "1"); err != nil {
			return nil, err
		}
		t, ok := floatArgType(args[0].dataType())
		if !ok {
			return nil, argTypeError(c, 0, args[0], "numeric")
		}
		x, err := b.castTo(args[0], t, c.At)
		if err != nil {
			return nil, err
		}
		return &callNode{name: c.Name, args: []node{x}, typ: t, k: func(ec *evalCtx, a []arrow.Array) (arrow.Array, error) {
			if f32 != nil && t.ID() == arrow.FLOAT32 {
				return mapFloat32(ec, a[0], f32), nil
			}
			return mapFloat(ec, a[0], f), nil
		}}, nil
	}}
}

// mapFloat32 applies f to every value of a Float32 array.
func mapFloat32(ec *evalCtx, a arrow.Array, f func(float32) float32) arrow.Array {
	valid, nulls := copyValid(ec.mem, a)
	src := primValues[float32](a)
	buf, out := newPrimValues[float32](ec.mem, len(src))
	for i, v := range src {
		out[i] = f(v)
	}
	return makePrimArray(a.DataType(), len(src), buf, valid, nulls)
}

// mapFloat applies f to every value of a Float32 or Float64 array.
func mapFloat(ec *evalCtx, a arrow.Array, f func(float64) float64) arrow.Array {
	valid, nulls := copyValid(ec.mem, a)
	if a.DataType().ID() == arrow.FLOAT32 {
		src := primValues[float32](a)
		buf, out := newPrimValues[float32](ec.mem, len(src))
		for i, v := range src {
			out[i] = float32(f(float64(v)))
		}
		return makePrimArray(a.DataType(), len(src), buf, valid, nulls)
	}
	src := primValues[float64](a)
	buf, out := newPrimValues[float64](ec.mem, len(src))
	for i, v := range src {
		out[i] = f(v)
	}
	return makePrimArray(a.DataType(), len(src), buf, valid, nulls)
}

// bindLog binds log(x) (base 10) and log(base, x); the result follows x
// (Float32 stays Float32).
func bindLog(b *binder, c *Call, args []node) (node, error) {
	if err := wantArgs(c, args, 1, 2, "1 or 2"); err != nil {
		return nil, err
	}
	if len(args) == 1 {
		if isDecimal(args[0].dataType()) {
			// DataFusion computes the decimal case as ln(x) / ln(10).
			return unaryFloat(func(x float64) float64 { return math.Log(x) / math.Ln10 }).bind(b, c, args)
		}
		return unaryFloat(math.Log10).bind(b, c, args)
	}
	t, ok := floatArgType(args[1].dataType())
	if !ok {
		return nil, argTypeError(c, 1, args[1], "numeric")
	}
	if _, ok := floatArgType(args[0].dataType()); !ok {
		return nil, argTypeError(c, 0, args[0], "numeric")
	}
	return b.binaryFloat(c, args, t, func(base, x float64) float64 { return math.Log(x) / math.Log(base) })
}

// bindAtan2 binds atan2(y, x): Float32 unless a Float64 (or decimal) is
// involved, as DataFusion's signature picks.
func bindAtan2(b *binder, c *Call, args []node) (node, error) {
	if err := wantArgs(c, args, 2, 2, "2"); err != nil {
		return nil, err
	}
	t, err := f32UnlessF64(c, args)
	if err != nil {
		return nil, err
	}
	return b.binaryFloat(c, args, t, math.Atan2)
}

// f32UnlessF64 is the type of nanvl and atan2: Float64 when an argument
// is Float64 or a decimal, else Float32.
func f32UnlessF64(c *Call, args []node) (arrow.DataType, error) {
	t := arrow.DataType(arrow.PrimitiveTypes.Float32)
	for i, a := range args {
		at := a.dataType()
		switch {
		case at.ID() == arrow.FLOAT64, isDecimal(at):
			t = arrow.PrimitiveTypes.Float64
		case isNumeric(at), at.ID() == arrow.NULL:
		default:
			return nil, argTypeError(c, i, a, "numeric")
		}
	}
	return t, nil
}

// binaryFloat binds f(x, y) computed in float64 over arguments cast to t.
func (b *binder) binaryFloat(c *Call, args []node, t arrow.DataType, f func(x, y float64) float64) (node, error) {
	xs := make([]node, 2)
	for i := range xs {
		x, err := b.castTo(args[i], t, c.At)
		if err != nil {
			return nil, err
		}
		xs[i] = x
	}
	return &callNode{name: c.Name, args: xs, typ: t, k: func(ec *evalCtx, a []arrow.Array) (arrow.Array, error) {
		return zipFloat(ec, a[0], a[1], f), nil
	}}, nil
}

// zipFloat applies f row by row to two float arrays of one type.
func zipFloat(ec *evalCtx, x, y arrow.Array, f func(float64, float64) float64) arrow.Array {
	valid, nulls := andValid(ec.mem, x.Len(), x, y)
	n := x.Len()
	if x.DataType().ID() == arrow.FLOAT32 {
		p, q := primValues[float32](x), primValues[float32](y)
		buf, out := newPrimValues[float32](ec.mem, n)
		for i := range out {
			out[i] = float32(f(float64(p[i]), float64(q[i])))
		}
		return makePrimArray(x.DataType(), n, buf, valid, nulls)
	}
	p, q := primValues[float64](x), primValues[float64](y)
	buf, out := newPrimValues[float64](ec.mem, n)
	for i := range out {
		out[i] = f(p[i], q[i])
	}
	return makePrimArray(x.DataType(), n, buf, valid, nulls)
}

// bindPi binds pi().
func bindPi(b *binder, c *Call, args []node) (node, error) {
	if err := wantArgs(c, args, 0, 0, "no"); err != nil {
		return nil, err
	}
	return &constNode{val: floatTo(b.mem, math.Pi, arrow.PrimitiveTypes.Float64)}, nil
}

// bindVersion binds version().
func bindVersion(b *binder, c *Call, args []node) (node, error) {
	if err := wantArgs(c, args, 0, 0, "no"); err != nil {
		return nil, err
	}
	return &constNode{val: stringArray(b.mem, arrow.BinaryTypes.String, dataFusionVersion)}, nil
}

// bindArrowTypeof binds arrow_typeof(x): the DataFusion name of x's type
// for every row (x is evaluated, so its errors surface as in DataFusion).
func bindArrowTypeof(b *binder, c *Call, args []node) (node, error) {
	if err := wantArgs(c, args, 1, 1, "1"); err != nil {
		return nil, err
	}
	name := stringArray(b.mem, arrow.BinaryTypes.String, dfTypeName(args[0].dataType()))
	if _, ok := args[0].(*constNode); ok || args[0].dataType().ID() == arrow.NULL {
		return &constNode{val: name}, nil
	}
	return &callNode{name: c.Name, args: args, typ: arrow.BinaryTypes.String, k: func(ec *evalCtx, _ []arrow.Array) (arrow.Array, error) {
		return broadcast(ec.mem, name, ec.n)
	}}, nil
}

// mathEvalErr is a function's evaluation failure.
func mathEvalErr(c string, format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s", ErrEval, c, fmt.Sprintf(format, args...))
}
