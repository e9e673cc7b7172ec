package expr

import (
	"bytes"
	"cmp"
	"math"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lancego/lancego/zonestats"
)

// The values of the pruner (see prune.go): keys in the evaluator's
// comparison order, intervals of them, and how zone statistics, casts and
// arithmetic with a constant map onto intervals.

// pdom is the comparison domain of a type's values.
type pdom uint8

const (
	pdNone  pdom = iota // not compared by the pruner
	pdInt               // signed integers and temporal types: pkey.i
	pdUint              // unsigned integers, booleans (0, 1): pkey.u
	pdFloat             // floats: pkey.i = rawKey64 of the value as float64
	pdBytes             // strings, binaries: pkey.b
	pdDec               // decimal128: pkey.d
)

// domOf returns the domain of the values of t.
func domOf(t arrow.DataType) pdom {
	switch t.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.DATE32, arrow.DATE64,
		arrow.TIMESTAMP, arrow.TIME32, arrow.TIME64, arrow.DURATION:
		return pdInt
	case arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64, arrow.BOOL:
		return pdUint
	case arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64:
		return pdFloat
	case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY, arrow.FIXED_SIZE_BINARY:
		return pdBytes
	case arrow.DECIMAL128:
		return pdDec
	}
	return pdNone
}

// pkey is one value in its domain.
type pkey struct {
	i int64
	u uint64
	b []byte
	d decimal128.Num
}

// cmpKey compares two keys of domain d.
func (d pdom) cmpKey(a, b *pkey) int {
	switch d {
	case pdInt, pdFloat:
		return cmp.Compare(a.i, b.i)
	case pdUint:
		return cmp.Compare(a.u, b.u)
	case pdBytes:
		return bytes.Compare(a.b, b.b)
	case pdDec:
		return a.d.Cmp(b.d)
	}
	return 0
}

// keyAt returns row i of a (of a type of domain d) as a key; false when
// the row is NULL or cannot be read.
func keyAt(d pdom, a arrow.Array, i int) (pkey, bool) {
	if i < 0 || i >= a.Len() || a.IsNull(i) || domOf(a.DataType()) != d {
		return pkey{}, false
	}
	switch d {
	case pdInt:
		return pkey{i: intKey(a, i)}, true
	case pdUint:
		if b, ok := a.(*array.Boolean); ok {
			return pkey{u: b2u(b.Value(i))}, true
		}
		return pkey{u: uintKey(a, i)}, true
	case pdFloat:
		switch x := a.(type) {
		case *array.Float16:
			return pkey{i: rawKey64(float64(x.Value(i).Float32()))}, true
		case *array.Float32:
			return pkey{i: rawKey64(float64(x.Value(i)))}, true
		case *array.Float64:
			return pkey{i: rawKey64(x.Value(i))}, true
		}
	case pdBytes:
		bv := bytesOf(a)
		return pkey{b: bv.at(i)}, true
	case pdDec:
		return pkey{d: a.(*array.Decimal128).Value(i)}, true
	}
	return pkey{}, false
}

// Float keys of the infinities (rawKey64(±Inf)): NaN keys lie below -Inf
// (negative NaNs) and above +Inf (positive NaNs); -0.0 is -1, +0.0 is 0.
const (
	keyPosInf int64 = 0x7FF0000000000000
	keyNegInf       = -keyPosInf - 1
)

// fromFloatKey inverts rawKey64.
func fromFloatKey(k int64) float64 {
	return math.Float64frombits(uint64(k ^ int64(uint64(k>>63)>>1)))
}

// end is an end of an interval: a key, or -∞ (inf -1) / +∞ (inf 1) when
// the bound is unknown. Float intervals always have finite ends.
type end struct {
	k   pkey
	inf int8
}

// ival is a closed interval of values.
type ival struct{ lo, hi end }

// aval is what a value node may be on a zone's rows: every non-null value
// lies in one of ivs (none: no row is non-null), and null says whether a
// row may be NULL.
type aval struct {
	dom  pdom
	ivs  []ival
	null bool
}

// cmpEnd compares two interval ends.
func (d pdom) cmpEnd(a, b *end) int {
	if a.inf != 0 || b.inf != 0 {
		return cmp.Compare(a.inf, b.inf)
	}
	return d.cmpKey(&a.k, &b.k)
}

// fullIval is the interval of every value of domain d.
func fullIval(d pdom) ival {
	if d == pdFloat {
		return ival{lo: end{k: pkey{i: math.MinInt64}}, hi: end{k: pkey{i: math.MaxInt64}}}
	}
	return ival{lo: end{inf: -1}, hi: end{inf: 1}}
}

// unknown is the aval of a node of type t about which nothing is known.
func unknown(t arrow.DataType) aval {
	d := domOf(t)
	return aval{dom: d, ivs: []ival{fullIval(d)}, null: true}
}

// point returns the interval holding only k.
func point(k pkey) ival { return ival{lo: end{k: k}, hi: end{k: k}} }

// isPoint reports whether iv holds one value.
func (d pdom) isPoint(iv *ival) bool {
	return iv.lo.inf == 0 && iv.hi.inf == 0 && d.cmpKey(&iv.lo.k, &iv.hi.k) == 0
}

// sat reports whether some a in I and b in J may satisfy a op b.
func (d pdom) sat(op BinaryOp, I, J *ival) bool {
	switch op {
	case OpEq, OpIsNotDistinctFrom:
		return d.cmpEnd(&I.lo, &J.hi) <= 0 && d.cmpEnd(&J.lo, &I.hi) <= 0
	case OpNotEq, OpIsDistinctFrom:
		return !d.isPoint(I) || !d.isPoint(J) || d.cmpKey(&I.lo.k, &J.lo.k) != 0
	case OpLt:
		return d.cmpEnd(&I.lo, &J.hi) < 0
	case OpLtEq:
		return d.cmpEnd(&I.lo, &J.hi) <= 0
	case OpGt:
		return d.cmpEnd(&I.hi, &J.lo) > 0
	case OpGtEq:
		return d.cmpEnd(&I.hi, &J.lo) >= 0
	}
	return true
}

// negateCmp returns the comparison true exactly where op is false (on
// non-null operands).
func negateCmp(op BinaryOp) BinaryOp {
	switch op {
	case OpEq:
		return OpNotEq
	case OpNotEq:
		return OpEq
	case OpLt:
		return OpGtEq
	case OpLtEq:
		return OpGt
	case OpGt:
		return OpLtEq
	case OpGtEq:
		return OpLt
	case OpIsDistinctFrom:
		return OpIsNotDistinctFrom
	}
	return OpIsDistinctFrom
}

// maySat reports whether some pair of values of a and b may satisfy op.
func maySat(op BinaryOp, a, b *aval) bool {
	for i := range a.ivs {
		for j := range b.ivs {
			if a.dom.sat(op, &a.ivs[i], &b.ivs[j]) {
				return true
			}
		}
	}
	return false
}

// compareTri is the tri of a op b. Float keys tell -0.0 below 0.0, as
// the evaluator compares two non-constant operands; with eqZeros (a
// constant operand) the zeros are equal.
func compareTri(op BinaryOp, a, b aval, eqZeros bool) tri {
	if a.dom != b.dom || a.dom == pdNone {
		if op == OpIsDistinctFrom || op == OpIsNotDistinctFrom {
			return mayT | mayF
		}
		return triAll
	}
	if eqZeros && a.dom == pdFloat {
		a, b = mergeZeros(a), mergeZeros(b)
	}
	var t tri
	if op == OpIsDistinctFrom || op == OpIsNotDistinctFrom {
		an, bn := len(a.ivs) > 0, len(b.ivs) > 0
		if maySat(OpIsDistinctFrom, &a, &b) || (a.null && bn) || (an && b.null) {
			t |= mayT
		}
		if maySat(OpEq, &a, &b) || (a.null && b.null) {
			t |= mayF
		}
		if op == OpIsNotDistinctFrom {
			t = swapTF(t)
		}
		return t
	}
	if a.null || b.null {
		t |= mayN
	}
	if maySat(op, &a, &b) {
		t |= mayT
	}
	if maySat(negateCmp(op), &a, &b) {
		t |= mayF
	}
	return t
}

// mergeZeros returns a with -0.0 (key -1) as 0.0 (key 0), the order
// of comparisons with a constant (floatKey64).
func mergeZeros(a aval) aval {
	ivs := make([]ival, len(a.ivs))
	for i, iv := range a.ivs {
		if iv.lo.k.i == -1 {
			iv.lo.k.i = 0
		}
		if iv.hi.k.i == -1 {
			iv.hi.k.i = 0
		}
		ivs[i] = iv
	}
	a.ivs = ivs
	return a
}

// statsValue is the aval of the rows z summarizes. Bounds exclude NULLs
// and NaNs, which are counted: a float zone may hold negative NaNs (keys
// below -Inf), its ordinary values, and positive NaNs (above +Inf).
func statsValue(mem memory.Allocator, z *zonestats.Stats, t arrow.DataType) aval {
	d := domOf(t)
	v := aval{dom: d, null: z.NullCount > 0}
	if d == pdNone {
		if z.ZoneLength > z.NullCount {
			v.ivs = []ival{fullIval(d)}
		}
		return v
	}
	if d == pdFloat && z.MayHaveNegNaN() {
		v.ivs = append(v.ivs, ival{lo: end{k: pkey{i: math.MinInt64}}, hi: end{k: pkey{i: keyNegInf - 1}}})
	}
	if z.OrdinaryCount() > 0 {
		iv := ival{lo: end{inf: -1}, hi: end{inf: 1}}
		if lo, hi, ok := z.BoundArrays(mem); ok {
			if k, ok := keyAt(d, lo, 0); ok {
				iv.lo = end{k: copyKey(k)}
			}
			if k, ok := keyAt(d, hi, 0); ok {
				iv.hi = end{k: copyKey(k)}
			}
			lo.Release()
			hi.Release()
		}
		if d == pdFloat {
			if iv.lo.inf != 0 {
				iv.lo = end{k: pkey{i: keyNegInf}}
			}
			if iv.hi.inf != 0 {
				iv.hi = end{k: pkey{i: keyPosInf}}
			}
		}
		v.ivs = append(v.ivs, iv)
	}
	if d == pdFloat && z.MayHavePosNaN() {
		v.ivs = append(v.ivs, ival{lo: end{k: pkey{i: keyPosInf + 1}}, hi: end{k: pkey{i: math.MaxInt64}}})
	}
	return v
}

// copyKey copies the bytes of k (out of an array about to be released).
func copyKey(k pkey) pkey {
	if k.b != nil {
		k.b = bytes.Clone(k.b)
	}
	return k
}

// prefixTri is the tri of "starts with p" over the strings of a: those
// are the interval [p, next(p)) of the bytewise order. When !exact the
// predicate only implies the prefix (it may be FALSE on any value).
func prefixTri(a aval, p []byte, exact bool) tri {
	if a.dom != pdBytes {
		return triAll
	}
	var t tri
	if a.null {
		t |= mayN
	}
	lo := end{k: pkey{b: p}}
	hi := end{inf: 1} // exclusive
	if nx, ok := nextPrefix(p); ok {
		hi = end{k: pkey{b: nx}}
	}
	for i := range a.ivs {
		iv := &a.ivs[i]
		if a.dom.cmpEnd(&iv.hi, &lo) >= 0 && a.dom.cmpEnd(&iv.lo, &hi) < 0 {
			t |= mayT
		}
		if !exact || a.dom.cmpEnd(&iv.lo, &lo) < 0 || a.dom.cmpEnd(&iv.hi, &hi) >= 0 {
			t |= mayF
		}
	}
	return t
}

// nextPrefix returns the smallest byte string greater than every string
// starting with p; false when there is none (p is empty or all 0xFF).
func nextPrefix(p []byte) ([]byte, bool) {
	n := len(p)
	for n > 0 && p[n-1] == 0xFF {
		n--
	}
	if n == 0 {
		return nil, false
	}
	nx := bytes.Clone(p[:n])
	nx[n-1]++
	return nx, true
}

// castValue maps the values a of type from through a cast to type to
// that keeps the order (widening numbers, strings to strings or bytes,
// dates and timestamps without time zones to one another); false for
// other casts.
func castValue(a aval, from, to arrow.DataType) (aval, bool) {
	fd, td := domOf(from), domOf(to)
	var f func(k pkey, up bool) (pkey, bool) // up: the upper end
	switch {
	case fd == pdNone || td == pdNone || from.ID() == arrow.BOOL || to.ID() == arrow.BOOL:
		return aval{}, false
	case isSignedInt(from) && isSignedInt(to), isUnsignedInt(from) && isUnsignedInt(to):
		if intWidth(to) < intWidth(from) {
			return aval{}, false
		}
	case isUnsignedInt(from) && isSignedInt(to):
		if intWidth(to) <= intWidth(from) {
			return aval{}, false
		}
		f = func(k pkey, _ bool) (pkey, bool) { return pkey{i: int64(k.u)}, true }
	case isInteger(from) && isFloat(to) && to.ID() != arrow.FLOAT16:
		signed := isSignedInt(from)
		f = func(k pkey, _ bool) (pkey, bool) {
			v := float64(k.u)
			if signed {
				v = float64(k.i)
			}
			return pkey{i: rawKey64(roundTo(v, to))}, true
		}
	case isFloat(from) && isFloat(to):
		if floatWidth(to) < floatWidth(from) {
			return aval{}, false
		}
	case isString(from) && (isString(to) || to.ID() == arrow.BINARY || to.ID() == arrow.LARGE_BINARY),
		(from.ID() == arrow.BINARY || from.ID() == arrow.LARGE_BINARY) && (to.ID() == arrow.BINARY || to.ID() == arrow.LARGE_BINARY):
	default:
		fu, tu := unitsPerDay(from), unitsPerDay(to)
		switch {
		case fu == 0 || tu == 0:
			return aval{}, false
		case tu >= fu: // finer: multiply, failing on overflow
			m := tu / fu
			f = func(k pkey, _ bool) (pkey, bool) { v, ok := mulInt(k.i, m); return pkey{i: v}, ok }
		default: // coarser: floored or truncated
			m := fu / tu
			f = func(k pkey, up bool) (pkey, bool) {
				q := k.i / m
				if !up && k.i%m < 0 {
					q--
				} else if up && k.i%m > 0 {
					q++
				}
				return pkey{i: q}, true
			}
		}
	}
	out := aval{dom: td, null: a.null, ivs: make([]ival, 0, len(a.ivs))}
	for _, iv := range a.ivs {
		if f != nil {
			var ok bool
			if iv.lo, ok = mapEnd(iv.lo, func(k pkey) (pkey, bool) { return f(k, false) }, td); !ok {
				return aval{}, false
			}
			if iv.hi, ok = mapEnd(iv.hi, func(k pkey) (pkey, bool) { return f(k, true) }, td); !ok {
				return aval{}, false
			}
		}
		out.ivs = append(out.ivs, iv)
	}
	return out, true
}

// unitsPerDay returns the stored units per day of a date or a timestamp
// without time zone, 0 for other types.
func unitsPerDay(t arrow.DataType) int64 {
	switch x := t.(type) {
	case *arrow.Date32Type:
		return 1
	case *arrow.Date64Type:
		return 86400000
	case *arrow.TimestampType:
		if x.TimeZone == "" {
			return 86400 * [...]int64{1, 1e3, 1e6, 1e9}[x.Unit&3]
		}
	}
	return 0
}

// mapEnd maps a finite end through f; an unbounded end stays unbounded
// (for a float domain it becomes the infinity of its side).
func mapEnd(e end, f func(pkey) (pkey, bool), d pdom) (end, bool) {
	if e.inf != 0 {
		if d == pdFloat {
			k := keyNegInf
			if e.inf > 0 {
				k = keyPosInf
			}
			return end{k: pkey{i: k}}, true
		}
		return e, true
	}
	k, ok := f(e.k)
	return end{k: k}, ok
}

// floatWidth returns the bit width of a float type.
func floatWidth(t arrow.DataType) int {
	switch t.ID() {
	case arrow.FLOAT16:
		return 16
	case arrow.FLOAT32:
		return 32
	}
	return 64
}

// roundTo rounds v to the float type t (float32 or float64).
func roundTo(v float64, t arrow.DataType) float64 {
	if t.ID() == arrow.FLOAT32 {
		return float64(float32(v))
	}
	return v
}

// arithValue is the aval of a op c (c op a when constLeft) for an
// operand a and a constant c, both of type t: the interval ends mapped
// through the operation where it is monotonic and cannot wrap; false
// otherwise.
func arithValue(op BinaryOp, a aval, c *constNode, constLeft bool, t arrow.DataType) (aval, bool) {
	d := domOf(t)
	if d != a.dom || !arrow.TypeEqual(c.dataType(), t) {
		return aval{}, false
	}
	if nullConst(c) {
		return aval{dom: d, null: true}, true
	}
	ck, ok := keyAt(d, c.val, 0)
	if !ok {
		return aval{}, false
	}
	return arithKey(op, a, ck, constLeft, t)
}

// negValue is the aval of -a (0 - a: integers wrap only at the type's
// minimum, which is refused; -0.0 and 0.0 are one key).
func negValue(a aval, t arrow.DataType) (aval, bool) {
	if a.dom != domOf(t) || !isSignedInt(t) && t.ID() != arrow.FLOAT32 && t.ID() != arrow.FLOAT64 {
		return aval{}, false
	}
	return arithKey(OpMinus, a, pkey{}, true, t)
}

// arithKey is arithValue with the constant as key ck.
func arithKey(op BinaryOp, a aval, ck pkey, constLeft bool, t arrow.DataType) (aval, bool) {
	d := a.dom
	var f func(k pkey) (pkey, bool)
	var down bool // f is decreasing
	switch d {
	case pdInt:
		if !isSignedInt(t) {
			return aval{}, false
		}
		f, down = intArith(op, ck.i, constLeft, t)
	case pdUint:
		if !isUnsignedInt(t) {
			return aval{}, false
		}
		f, down = uintArith(op, ck.u, constLeft, uintMax(t))
	case pdFloat:
		if t.ID() == arrow.FLOAT16 {
			return aval{}, false
		}
		return floatArith(op, a, fromFloatKey(ck.i), constLeft, t)
	}
	if f == nil {
		return aval{}, false
	}
	out := aval{dom: d, null: a.null}
	for _, iv := range a.ivs {
		if iv.lo.inf != 0 || iv.hi.inf != 0 {
			return aval{}, false // the values may reach the type's limits and wrap
		}
		lo, ok1 := f(iv.lo.k)
		hi, ok2 := f(iv.hi.k)
		if !ok1 || !ok2 {
			return aval{}, false
		}
		if down {
			lo, hi = hi, lo
		}
		out.ivs = append(out.ivs, ival{lo: end{k: lo}, hi: end{k: hi}})
	}
	return out, true
}

// intArith returns the map of v op c (c op v when constLeft) on signed
// integers of type t, false where the result leaves t's range, and
// whether it is decreasing; nil when it is not monotonic.
func intArith(op BinaryOp, c int64, constLeft bool, t arrow.DataType) (func(pkey) (pkey, bool), bool) {
	lo, hi := intRange(t)
	fit := func(v int64, ok bool) (pkey, bool) { return pkey{i: v}, ok && v >= lo && v <= hi }
	switch {
	case op == OpPlus:
		return func(k pkey) (pkey, bool) { return fit(addInt(k.i, c)) }, false
	case op == OpMinus && !constLeft:
		return func(k pkey) (pkey, bool) { return fit(subInt(k.i, c)) }, false
	case op == OpMinus:
		return func(k pkey) (pkey, bool) { return fit(subInt(c, k.i)) }, true
	case op == OpMul:
		return func(k pkey) (pkey, bool) { return fit(mulInt(k.i, c)) }, c < 0
	case op == OpDiv && !constLeft && c != 0 && c != -1:
		return func(k pkey) (pkey, bool) { return pkey{i: k.i / c}, true }, c < 0
	}
	return nil, false
}

// uintArith is intArith for unsigned integers up to max.
func uintArith(op BinaryOp, c uint64, constLeft bool, max uint64) (func(pkey) (pkey, bool), bool) {
	fit := func(v uint64, ok bool) (pkey, bool) { return pkey{u: v}, ok && v <= max }
	switch {
	case op == OpPlus:
		return func(k pkey) (pkey, bool) { return fit(k.u+c, k.u+c >= k.u) }, false
	case op == OpMinus && !constLeft:
		return func(k pkey) (pkey, bool) { return fit(k.u-c, k.u >= c) }, false
	case op == OpMinus:
		return func(k pkey) (pkey, bool) { return fit(c-k.u, c >= k.u) }, true
	case op == OpMul:
		return func(k pkey) (pkey, bool) {
			hi, lo := bits.Mul64(k.u, c)
			return fit(lo, hi == 0)
		}, false
	case op == OpDiv && !constLeft && c != 0:
		return func(k pkey) (pkey, bool) { return pkey{u: k.u / c}, true }, false
	}
	return nil, false
}

func addInt(a, b int64) (int64, bool) {
	s := a + b
	return s, (b >= 0) == (s >= a)
}

func subInt(a, b int64) (int64, bool) {
	s := a - b
	return s, (b >= 0) == (s <= a)
}

func mulInt(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	return p, p/b == a && !(a == -1 && b == math.MinInt64) && !(b == -1 && a == math.MinInt64)
}

// floatArith is arithValue for floats: v op c rounds monotonically for
// a finite c (x*0 and c/x excepted); NaN stays NaN, of either sign.
func floatArith(op BinaryOp, a aval, c float64, constLeft bool, t arrow.DataType) (aval, bool) {
	if math.IsNaN(c) || math.IsInf(c, 0) {
		return aval{}, false
	}
	var f func(v float64) float64
	down := false
	switch {
	case op == OpPlus:
		f = func(v float64) float64 { return v + c }
	case op == OpMinus && !constLeft:
		f = func(v float64) float64 { return v - c }
	case op == OpMinus:
		f, down = func(v float64) float64 { return c - v }, true
	case op == OpMul && c != 0:
		f, down = func(v float64) float64 { return v * c }, c < 0
	case op == OpDiv && !constLeft && c != 0:
		f, down = func(v float64) float64 { return v / c }, c < 0
	default:
		return aval{}, false
	}
	out := aval{dom: pdFloat, null: a.null}
	nan := false
	for _, iv := range a.ivs {
		lo, hi := iv.lo.k.i, iv.hi.k.i
		nan = nan || lo < keyNegInf || hi > keyPosInf
		lo, hi = max(lo, keyNegInf), min(hi, keyPosInf)
		if lo > hi {
			continue
		}
		l := rawKey64(roundTo(f(fromFloatKey(lo)), t))
		h := rawKey64(roundTo(f(fromFloatKey(hi)), t))
		if down {
			l, h = h, l
		}
		out.ivs = append(out.ivs, ival{lo: end{k: pkey{i: l}}, hi: end{k: pkey{i: h}}})
	}
	if nan {
		out.ivs = append(out.ivs, ival{lo: end{k: pkey{i: math.MinInt64}}, hi: end{k: pkey{i: keyNegInf - 1}}},
			ival{lo: end{k: pkey{i: keyPosInf + 1}}, hi: end{k: pkey{i: math.MaxInt64}}})
	}
	return out, true
}

// nullConst reports whether c is NULL (an array of type null reports no
// NULLs through IsNull).
func nullConst(c *constNode) bool {
	return c.dataType().ID() == arrow.NULL || c.isNull()
}
