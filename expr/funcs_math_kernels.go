package expr

import (
	"math"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// Kernels of abs, round, trunc, power, isnan, iszero, nanvl, gcd, lcm
// and factorial.

// bindAbs binds abs(x): same type; a signed integer's MIN fails.
func bindAbs(b *binder, c *Call, args []node) (node, error) {
	if err := wantArgs(c, args, 1, 1, "1"); err != nil {
		return nil, err
	}
	t := args[0].dataType()
	switch {
	case t.ID() == arrow.NULL:
		return &constNode{val: nullOf(b.mem, arrow.PrimitiveTypes.Float64)}, nil
	case isUnsignedInt(t):
		return args[0], nil
	case isNumeric(t) && t.ID() != arrow.DECIMAL256 && t.ID() != arrow.FLOAT16:
	default:
		return nil, argTypeError(c, 0, args[0], "numeric")
	}
	return &callNode{name: c.Name, args: args, typ: t, k: func(ec *evalCtx, a []arrow.Array) (arrow.Array, error) {
		x := a[0]
		valid, nulls := copyValid(ec.mem, x)
		n := x.Len()
		switch x.DataType().ID() {
		case arrow.INT8:
			return absInts[int8](ec, x, valid, nulls)
		case arrow.INT16:
			return absInts[int16](ec, x, valid, nulls)
		case arrow.INT32:
			return absInts[int32](ec, x, valid, nulls)
		case arrow.INT64:
			return absInts[int64](ec, x, valid, nulls)
		case arrow.DECIMAL128:
			src := primValues[decimal128Num](x)
			buf, out := newPrimValues[decimal128Num](ec.mem, n)
			for i, v := range src {
				out[i] = v.Abs()
			}
			return makePrimArray(x.DataType(), n, buf, valid, nulls), nil
		}
		if valid != nil {
			valid.Release()
		}
		return mapFloat(ec, x, math.Abs), nil
	}}, nil
}

func absInts[T int8 | int16 | int32 | int64](ec *evalCtx, x arrow.Array, valid *memoryBuffer, nulls int) (arrow.Array, error) {
	src := primValues[T](x)
	buf, out := newPrimValues[T](ec.mem, len(src))
	bm, off, has := validBits(x)
	for i, v := range src {
		if v < 0 {
			v = -v
			if v < 0 && isValidAt(bm, off, has, i) {
				buf.Release()
				if valid != nil {
					valid.Release()
				}
				return nil, mathEvalErr("abs", "Compute error: %sArray overflow on abs(%d)", dfTypeName(x.DataType()), int64(src[i]))
			}
		}
		out[i] = v
	}
	return makePrimArray(x.DataType(), len(src), buf, valid, nulls), nil
}

// digitsArg checks round's and trunc's second argument: an integer.
func (b *binder) digitsArg(c *Call, args []node) (node, error) {
	if len(args) < 2 {
		return nil, nil
	}
	t := args[1].dataType()
	if !isInteger(t) && t.ID() != arrow.NULL {
		return nil, argTypeError(c, 1, args[1], "an integer")
	}
	return b.castTo(args[1], arrow.PrimitiveTypes.Int64, c.At)
}

// bindRound binds round(x[, digits]): half away from zero; Float32
// stays, integers give Float64, a decimal keeps its precision with the
// scale cut to the digits (constant digits) or stays (digits a column,
// precision + 1).
func bindRound(b *binder, c *Call, args []node) (node, error) {
	if err := wantArgs(c, args, 1, 2, "1 or 2"); err != nil {
		return nil, err
	}
	d, err := b.digitsArg(c, args)
	if err != nil {
		return nil, err
	}
	xt := args[0].dataType()
	if dt, ok := xt.(*arrow.Decimal128Type); ok {
		return b.bindRoundDecimal(c, args[0], d, dt)
	}
	return b.bindRoundFloat(c, args[0], d, false)
}

// bindTrunc binds trunc(x[, digits]) (toward zero; decimals as Float64).
func bindTrunc(b *binder, c *Call, args []node) (node, error) {
	if err := wantArgs(c, args, 1, 2, "1 or 2"); err != nil {
		return nil, err
	}
	d, err := b.digitsArg(c, args)
	if err != nil {
		return nil, err
	}
	return b.bindRoundFloat(c, args[0], d, true)
}

// bindRoundFloat binds round or trunc over floats.
func (b *binder) bindRoundFloat(c *Call, x, d node, trunc bool) (node, error) {
	t, ok := floatArgType(x.dataType())
	if !ok {
		return nil, argTypeError(c, 0, x, "numeric")
	}
	x, err := b.castTo(x, t, c.At)
	if err != nil {
		return nil, err
	}
	op, op1 := math.Round, math.Round
	if trunc {
		// DataFusion's one-argument trunc gives +0.0 for -0.0.
		op, op1 = math.Trunc, func(x float64) float64 { return math.Trunc(x) + 0 }
	}
	args := []node{x}
	if d != nil {
		args = append(args, d)
	}
	return &callNode{name: c.Name, args: args, typ: t, k: func(ec *evalCtx, a []arrow.Array) (arrow.Array, error) {
		if len(a) == 1 {
			return mapFloat(ec, a[0], op1), nil
		}
		digits := primValues[int64](a[1])
		valid, nulls := andValid(ec.mem, ec.n, a[0], a[1])
		n := a[0].Len()
		if t.ID() == arrow.FLOAT32 {
			src := primValues[float32](a[0])
			buf, out := newPrimValues[float32](ec.mem, n)
			for i, v := range src {
				p := float32(math.Pow(10, float64(int32(digits[i]))))
				out[i] = float32(op(float64(v*p))) / p
			}
			return makePrimArray(t, n, buf, valid, nulls), nil
		}
		src := primValues[float64](a[0])
		buf, out := newPrimValues[float64](ec.mem, n)
		for i, v := range src {
			p := math.Pow(10, float64(int32(digits[i])))
			out[i] = op(v*p) / p
		}
		return makePrimArray(t, n, buf, valid, nulls), nil
	}}, nil
}

// bindRoundDecimal binds round over a decimal.
func (b *binder) bindRoundDecimal(c *Call, x, d node, dt *arrow.Decimal128Type) (node, error) {
	res := &arrow.Decimal128Type{Precision: dt.Precision, Scale: 0}
	args := []node{x}
	var constDigits int64
	switch {
	case d == nil:
	case isNullConst(d):
		return &constNode{val: nullOf(b.mem, dt)}, nil
	default:
		if k, ok := asConst(d); ok {
			constDigits = primValues[int64](k.val)[0]
			res.Scale = int32(max(0, min(constDigits, int64(dt.Scale))))
		} else {
			res = &arrow.Decimal128Type{Precision: min(dt.Precision+1, 38), Scale: dt.Scale}
			args = append(args, d)
		}
	}
	return &callNode{name: c.Name, args: args, typ: res, k: func(ec *evalCtx, a []arrow.Array) (arrow.Array, error) {
		src := primValues[decimal128Num](a[0])
		n := a[0].Len()
		var digits []int64
		if len(a) == 2 {
			digits = primValues[int64](a[1])
		}
		valid, nulls := andValid(ec.mem, n, a...)
		buf, out := newPrimValues[decimal128Num](ec.mem, n)
		var sc i128Scratch
		for i, v := range src {
			dg := constDigits
			if digits != nil {
				dg = digits[i]
			}
			cut := int64(dt.Scale) - dg // digits to drop
			switch {
			case cut <= 0:
				out[i] = v
			case cut > 38:
				out[i] = decimal128Num{}
			default:
				q, _ := roundDiv128(&sc, v, pow10i128[cut])
				out[i] = q
			}
			// Express at the result scale.
			shift := int64(res.Scale) - int64(dt.Scale) + max(cut, 0)
			if shift > 0 && shift <= 38 {
				out[i], _ = sc.mul128(out[i], pow10i128[shift])
			} else if shift < 0 && -shift <= 38 {
				out[i], _, _ = sc.quoRem128(out[i], pow10i128[-shift])
			}
		}
		return makePrimArray(res, n, buf, valid, nulls), nil
	}}, nil
}

// bindPower binds power(base, exponent): Float64 (computed in float64,
// zero to a negative power fails); a decimal base keeps its type;
// power(x, 0) is 1 and power(x, 1) is x, as DataFusion simplifies them.
func bindPower(b *binder, c *Call, args []node) (node, error) {
	if err := wantArgs(c, args, 2, 2, "2"); err != nil {
		return nil, err
	}
	for i, a := range args {
		if t := a.dataType(); !isNumeric(t) && t.ID() != arrow.NULL {
			return nil, argTypeError(c, i, a, "numeric")
		}
	}
	if dt, ok := args[0].dataType().(*arrow.Decimal128Type); ok {
		return b.bindPowerDecimal(c, args, dt)
	}
	f64 := arrow.PrimitiveTypes.Float64
	x, err := b.castTo(args[0], f64, c.At)
	if err != nil {
		return nil, err
	}
	y, err := b.castTo(args[1], f64, c.At)
	if err != nil {
		return nil, err
	}
	if k, ok := asConst(y); ok && !k.isNull() {
		switch primValues[float64](k.val)[0] {
		case 0:
			return &constNode{val: floatTo(b.mem, 1, f64)}, nil
		case 1:
			return x, nil
		}
	}
	return &callNode{name: c.Name, args: []node{x, y}, typ: f64, k: func(ec *evalCtx, a []arrow.Array) (arrow.Array, error) {
		p, q := primValues[float64](a[0]), primValues[float64](a[1])
		valid, nulls := andValid(ec.mem, ec.n, a[0], a[1])
		buf, out := newPrimValues[float64](ec.mem, ec.n)
		for i := range out {
			if p[i] == 0 && q[i] < 0 && (valid == nil || bitIsSet(valid.Bytes(), i)) {
				buf.Release()
				if valid != nil {
					valid.Release()
				}
				return nil, mathEvalErr("power", "Compute error: zero raised to a negative power is undefined")
			}
			out[i] = math.Pow(p[i], q[i])
		}
		return makePrimArray(f64, ec.n, buf, valid, nulls), nil
	}}, nil
}

// bindPowerDecimal binds power(decimal, exponent): the base's type; an
// integer exponent n >= 0 computes base^n exactly and truncates to the
// scale (NULL on overflow); other exponents go through float64 and round
// to the scale (NULL when not finite for integer exponents, an error for
// float ones).
func (b *binder) bindPowerDecimal(c *Call, args []node, dt *arrow.Decimal128Type) (node, error) {
	floatExp := isFloat(args[1].dataType()) || isDecimal(args[1].dataType())
	et := arrow.DataType(arrow.PrimitiveTypes.Int64)
	if floatExp {
		et = arrow.PrimitiveTypes.Float64
	}
	y, err := b.castTo(args[1], et, c.At)
	if err != nil {
		return nil, err
	}
	return &callNode{name: c.Name, args: []node{args[0], y}, typ: dt, k: func(ec *evalCtx, a []arrow.Array) (arrow.Array, error) {
		src := primValues[decimal128Num](a[0])
		n := a[0].Len()
		ns := nullSetter{mem: ec.mem, n: n}
		valid0, _ := andValid(ec.mem, n, a[0], a[1])
		if valid0 != nil {
			defer valid0.Release()
		}
		validAt := func(i int) bool { return valid0 == nil || bitIsSet(valid0.Bytes(), i) }
		buf, out := newPrimValues[decimal128Num](ec.mem, n)
		var sc i128Scratch
		scale := math.Pow(10, float64(dt.Scale))
		for i, v := range src {
			if !validAt(i) {
				ns.setNull(i)
				continue
			}
			var e float64
			if floatExp {
				e = primValues[float64](a[1])[i]
			} else {
				e = float64(primValues[int64](a[1])[i])
			}
			if !floatExp && e >= 0 && e < 64 && dt.Scale >= 0 {
				if r, ok := powDecimalInt(&sc, v, int32(dt.Scale), int(e)); ok {
					out[i] = r
					continue
				}
				ns.setNull(i)
				continue
			}
			f := math.Pow(i128ToFloat64(v)/scale, e)
			if math.IsNaN(f) || math.IsInf(f, 0) {
				if floatExp {
					buf.Release()
					return nil, mathEvalErr("power", "Arithmetic overflow: Result of %s^%s is not finite",
						string(appendDecimalText(nil, v, dt.Scale)), castFmtFloat(e, false))
				}
				ns.setNull(i)
				continue
			}
			r, ok := floatToDecimal(f, scale)
			if !ok {
				ns.setNull(i)
				continue
			}
			out[i] = r
		}
		valid, nulls := ns.result()
		return makePrimArray(dt, n, buf, valid, nulls), nil
	}}, nil
}

// powDecimalInt is DataFusion's pow_decimal_int: base^e / 10^(s*(e-1)).
func powDecimalInt(sc *i128Scratch, base decimal128Num, s int32, e int) (decimal128Num, bool) {
	if e == 0 {
		if s > 38 {
			return decimal128Num{}, false
		}
		return pow10i128[s], true
	}
	r := decimal128.FromI64(1)
	for k := 0; k < e; k++ {
		var ok bool
		if r, ok = sc.mul128(r, base); !ok {
			return decimal128Num{}, false
		}
	}
	un := int64(s) * int64(e-1)
	if un > 38 {
		return decimal128Num{}, false
	}
	q, _, ok := sc.quoRem128(r, pow10i128[un])
	return q, ok
}

// bindIsNaN binds isnan(x) and bindIsZero iszero(x).
func bindIsNaN(b *binder, c *Call, args []node) (node, error) {
	return bindFloatTest(b, c, args, func(f float64) bool { return math.IsNaN(f) })
}

func bindIsZero(b *binder, c *Call, args []node) (node, error) {
	return bindFloatTest(b, c, args, func(f float64) bool { return f == 0 })
}

func bindFloatTest(b *binder, c *Call, args []node, test func(float64) bool) (node, error) {
	if err := wantArgs(c, args, 1, 1, "1"); err != nil {
		return nil, err
	}
	if args[0].dataType().ID() == arrow.NULL {
		return nullBool(b.mem), nil
	}
	t, ok := floatArgType(args[0].dataType())
	if !ok {
		return nil, argTypeError(c, 0, args[0], "numeric")
	}
	x, err := b.castTo(args[0], t, c.At)
	if err != nil {
		return nil, err
	}
	return &callNode{name: c.Name, args: []node{x}, typ: arrow.FixedWidthTypes.Boolean, k: func(ec *evalCtx, a []arrow.Array) (arrow.Array, error) {
		n := a[0].Len()
		data := make([]uint64, (n+63)/64)
		if a[0].DataType().ID() == arrow.FLOAT32 {
			for i, v := range primValues[float32](a[0]) {
				data[i>>6] |= b2u(test(float64(v))) << (i & 63)
			}
		} else {
			for i, v := range primValues[float64](a[0]) {
				data[i>>6] |= b2u(test(v)) << (i & 63)
			}
		}
		valid := nullWords(a[0])
		if valid != nil {
			for i := range data {
				data[i] &= valid[i]
			}
		}
		return boolArrayFromWords(ec.mem, data, valid, n), nil
	}}, nil
}

// bindNanvl binds nanvl(x, y): y where x is NaN, else x.
func bindNanvl(b *binder, c *Call, args []node) (node, error) {
	if err := wantArgs(c, args, 2, 2, "2"); err != nil {
		return nil, err
	}
	t, err := f32UnlessF64(c, args)
	if err != nil {
		return nil, err
	}
	xs := make([]node, 2)
	for i := range xs {
		if xs[i], err = b.castTo(args[i], t, c.At); err != nil {
			return nil, err
		}
	}
	return &callNode{name: c.Name, args: xs, typ: t, k: func(ec *evalCtx, a []arrow.Array) (arrow.Array, error) {
		n := a[0].Len()
		xb, xo, xh := validBits(a[0])
		yb, yo, yh := validBits(a[1])
		ns := nullSetter{mem: ec.mem, n: n}
		pick := func(i int, nan bool) {
			if nan {
				if !isValidAt(yb, yo, yh, i) {
					ns.setNull(i)
				}
			} else if !isValidAt(xb, xo, xh, i) {
				ns.setNull(i)
			}
		}
		if t.ID() == arrow.FLOAT32 {
			p, q := primValues[float32](a[0]), primValues[float32](a[1])
			buf, out := newPrimValues[float32](ec.mem, n)
			for i := range out {
				nan := p[i] != p[i] && isValidAt(xb, xo, xh, i)
				out[i] = p[i]
				if nan {
					out[i] = q[i]
				}
				pick(i, nan)
			}
			valid, nulls := ns.result()
			return makePrimArray(t, n, buf, valid, nulls), nil
		}
		p, q := primValues[float64](a[0]), primValues[float64](a[1])
		buf, out := newPrimValues[float64](ec.mem, n)
		for i := range out {
			nan := p[i] != p[i] && isValidAt(xb, xo, xh, i)
			out[i] = p[i]
			if nan {
				out[i] = q[i]
			}
			pick(i, nan)
		}
		valid, nulls := ns.result()
		return makePrimArray(t, n, buf, valid, nulls), nil
	}}, nil
}

// int64Args casts integer arguments (not UInt64, as DataFusion's
// signature refuses it) to Int64.
func (b *binder) int64Args(c *Call, args []node) ([]node, error) {
	out := make([]node, len(args))
	for i, a := range args {
		t := a.dataType()
		if (!isInteger(t) || t.ID() == arrow.UINT64) && t.ID() != arrow.NULL {
			return nil, argTypeError(c, i, a, "an integer (Int64)")
		}
		x, err := b.castTo(a, arrow.PrimitiveTypes.Int64, c.At)
		if err != nil {
			return nil, err
		}
		out[i] = x
	}
	return out, nil
}

// bindGcdLcm binds gcd(a, b) and lcm(a, b) over Int64.
func bindGcdLcm(b *binder, c *Call, args []node) (node, error) {
	if err := wantArgs(c, args, 2, 2, "2"); err != nil {
		return nil, err
	}
	xs, err := b.int64Args(c, args)
	if err != nil {
		return nil, err
	}
	lcm := c.Name == "lcm"
	return &callNode{name: c.Name, args: xs, typ: arrow.PrimitiveTypes.Int64, k: func(ec *evalCtx, a []arrow.Array) (arrow.Array, error) {
		p, q := primValues[int64](a[0]), primValues[int64](a[1])
		valid, nulls := andValid(ec.mem, ec.n, a[0], a[1])
		buf, out := newPrimValues[int64](ec.mem, ec.n)
		for i := range out {
			if valid != nil && !bitIsSet(valid.Bytes(), i) {
				continue
			}
			x, y := absU64(p[i]), absU64(q[i])
			g := gcdU64(x, y)
			var r uint64
			if !lcm {
				r = g
			} else if x != 0 && y != 0 {
				hi, lo := bits.Mul64(x/g, y)
				if hi != 0 {
					lo = math.MaxUint64
				}
				r = lo
			}
			if r > math.MaxInt64 {
				buf.Release()
				if valid != nil {
					valid.Release()
				}
				name := "GCD"
				if lcm {
					name = "LCM"
				}
				return nil, mathEvalErr(c.Name, "Compute error: Signed integer overflow in %s(%d, %d)", name, p[i], q[i])
			}
			out[i] = int64(r)
		}
		return makePrimArray(arrow.PrimitiveTypes.Int64, ec.n, buf, valid, nulls), nil
	}}, nil
}

func gcdU64(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// bindFactorial binds factorial(x) over Int64: negative and past 20!
// fail.
func bindFactorial(b *binder, c *Call, args []node) (node, error) {
	if err := wantArgs(c, args, 1, 1, "1"); err != nil {
		return nil, err
	}
	xs, err := b.int64Args(c, args)
	if err != nil {
		return nil, err
	}
	return &callNode{name: c.Name, args: xs, typ: arrow.PrimitiveTypes.Int64, k: func(ec *evalCtx, a []arrow.Array) (arrow.Array, error) {
		p := primValues[int64](a[0])
		valid, nulls := copyValid(ec.mem, a[0])
		buf, out := newPrimValues[int64](ec.mem, ec.n)
		for i, v := range p {
			if valid != nil && !bitIsSet(valid.Bytes(), i) {
				continue
			}
			if v < 0 || v > 20 {
				buf.Release()
				if valid != nil {
					valid.Release()
				}
				if v < 0 {
					return nil, mathEvalErr("factorial", "Execution error: factorial of a negative number is undefined")
				}
				return nil, mathEvalErr("factorial", "Execution error: Overflow happened on FACTORIAL(%d)", v)
			}
			f := int64(1)
			for k := int64(2); k <= v; k++ {
				f *= k
			}
			out[i] = f
		}
		return makePrimArray(arrow.PrimitiveTypes.Int64, ec.n, buf, valid, nulls), nil
	}}, nil
}
