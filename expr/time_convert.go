package expr

import (
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// Conversion kernels: strings and numbers to timestamps and dates
// (to_timestamp*, to_date, to_unixtime, from_unixtime) and timestamps to
// strings (to_char).

// timeFormat is a compiled chrono format of to_timestamp/to_date.
type timeFormat struct {
	text       string
	items      []tfItem
	zoneSuffix bool // the format ends in " %Z": the string's last word names a zone
	badZone    bool // %Z elsewhere, refused
}

// compileTimeFormat splits a format into items.
func compileTimeFormat(f string) *timeFormat {
	tf := &timeFormat{text: f}
	g := f
	if strings.HasSuffix(g, " %Z") {
		tf.zoneSuffix = true
		for strings.HasSuffix(g, " %Z") {
			g = g[:len(g)-3]
		}
	} else if strings.Contains(g, "%Z") {
		tf.badZone = true
	}
	tf.items = parseFormat(g)
	return tf
}

// fmtArg is a format argument: compiled when constant, else the index
// of its column among the kernel's arrays; NULL constants are dropped.
type fmtArg struct {
	tf  *timeFormat
	col int
}

// formatCache compiles the formats of a format column, reusing the
// last ones seen.
type formatCache map[string]*timeFormat

func (c formatCache) get(s string) *timeFormat {
	if tf, ok := c[s]; ok {
		return tf
	}
	if len(c) > 64 {
		clear(c)
	}
	tf := compileTimeFormat(s)
	c[strings.Clone(s)] = tf
	return tf
}

// parseRow parses string s with the formats of row i (the first that
// succeeds), or, with no format, as a timestamp. ok is false when every
// format of the row is NULL.
func parseRow(s string, fmts []fmtArg, args []arrow.Array, i int, cache formatCache) (dateTime, bool, error) {
	if len(fmts) == 0 {
		dt, err := parseTimestampString(s)
		return dt, true, err
	}
	var last error
	for _, f := range fmts {
		tf := f.tf
		if tf == nil {
			col := args[f.col]
			if col.IsNull(i) {
				continue
			}
			v := bytesOf(col)
			tf = cache.get(v.str(i))
		}
		dt, err := parseFormatted(s, tf)
		if err == nil {
			return dt, true, nil
		}
		last = err
	}
	if last != nil {
		return dateTime{}, false, last
	}
	return dateTime{}, false, nil
}

// stringToTsKernel parses strings to typ (to_timestamp*), or to Unix
// seconds (to_unixtime): nanoseconds first, then truncated.
func stringToTsKernel(typ *arrow.TimestampType, fmts []fmtArg, unixtime bool) kernel {
	factor := nanosPerSec / unitPerSec(typ.Unit)
	return func(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
		a := args[0]
		sv := bytesOf(a)
		out := newFixedOut[int64](ec.mem, ec.n, a)
		cache := formatCache{}
		for i := 0; i < ec.n; i++ {
			if !out.isValid(i) {
				continue
			}
			dt, ok, err := parseRow(sv.str(i), fmts, args, i, cache)
			if err != nil {
				out.release()
				return nil, err
			}
			if !ok {
				out.setNull(i)
				continue
			}
			ns, ok := dt.unixNanos()
			if !ok {
				out.release()
				return nil, evalErr("%v", errNanosRange)
			}
			out.vals[i] = ns / factor
		}
		if unixtime {
			return out.finish(arrow.PrimitiveTypes.Int64), nil
		}
		return out.finish(typ), nil
	}
}

// stringToDateKernel is to_date(s[, format…]).
func stringToDateKernel(fmts []fmtArg) kernel {
	return func(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
		a := args[0]
		sv := bytesOf(a)
		out := newFixedOut[int32](ec.mem, ec.n, a)
		cache := formatCache{}
		for i := 0; i < ec.n; i++ {
			if !out.isValid(i) {
				continue
			}
			if len(fmts) == 0 {
				d, ok := parseDateString(sv.str(i))
				if !ok {
					out.release()
					return nil, evalErr("unable to cast %q to Date32", sv.str(i))
				}
				out.vals[i] = int32(d)
				continue
			}
			dt, ok, err := parseRow(sv.str(i), fmts, args, i, cache)
			if err != nil {
				out.release()
				return nil, err
			}
			if !ok {
				out.setNull(i)
				continue
			}
			// DataFusion divides milliseconds by a day's, rounding toward zero.
			ms := dt.day*secsPerDay*1000 + floorDiv(dt.nanos, 1_000_000)
			out.vals[i] = int32(ms / (secsPerDay * 1000))
		}
		return out.finish(arrow.FixedWidthTypes.Date32), nil
	}
}

// int64Column reads integers, floats (truncated) or decimals (truncated)
// as Int64 values, failing where a value does not fit (arrow's cast).
func int64Column(a arrow.Array) ([]int64, error) {
	n := a.Len()
	out := make([]int64, n)
	for i := 0; i < n; i++ {
		if a.IsNull(i) {
			continue
		}
		switch x := a.(type) {
		case *array.Int8:
			out[i] = int64(x.Value(i))
		case *array.Int16:
			out[i] = int64(x.Value(i))
		case *array.Int32:
			out[i] = int64(x.Value(i))
		case *array.Int64:
			out[i] = x.Value(i)
		case *array.Uint8:
			out[i] = int64(x.Value(i))
		case *array.Uint16:
			out[i] = int64(x.Value(i))
		case *array.Uint32:
			out[i] = int64(x.Value(i))
		case *array.Uint64:
			if v := x.Value(i); v > math.MaxInt64 {
				return nil, evalErr("can't cast value %d to type Int64", v)
			} else {
				out[i] = int64(v)
			}
		case *array.Float16, *array.Float32, *array.Float64:
			f := floatAt(a, i)
			if math.IsNaN(f) || f >= 9223372036854775807.0 || f < -9223372036854775808.0 {
				return nil, evalErr("can't cast value %s to type Int64", strconv.FormatFloat(f, 'g', -1, 64))
			}
			out[i] = int64(f)
		case *array.Decimal128:
			scale := x.DataType().(*arrow.Decimal128Type).Scale
			q, _ := x.Value(i).Div(decimal128.FromI64(pow10(int(min(max(scale, 0), 18)))))
			for s := int32(18); s < scale; s++ {
				q, _ = q.Div(decimal128.FromI64(10))
			}
			if q.HighBits() != int64(q.LowBits())>>63 {
				return nil, evalErr("can't cast value %s to type Int64", x.ValueStr(i))
			}
			out[i] = int64(q.LowBits())
		default:
			return nil, evalErr("cannot cast %s to Int64", a.DataType())
		}
	}
	return out, nil
}

// floatAt returns row i of a float array as float64.
func floatAt(a arrow.Array, i int) float64 {
	switch x := a.(type) {
	case *array.Float16:
		return float64(x.Value(i).Float32())
	case *array.Float32:
		return float64(x.Value(i))
	case *array.Float64:
		return x.Value(i)
	}
	return 0
}

// saturate converts f to int64 as Rust's `as` does (NaN is 0).
func saturate(f float64) int64 {
	switch {
	case math.IsNaN(f):
		return 0
	case f >= 9223372036854775807.0:
		return math.MaxInt64
	case f <= -9223372036854775808.0:
		return math.MinInt64
	}
	return int64(f)
}

// numberToTsKernel is to_timestamp*(number): to_timestamp reads seconds
// (integers checked, floats and decimals with their fraction); the
// other variants read a value of their unit (cast to Int64).
func numberToTsKernel(typ *arrow.TimestampType, seconds bool) kernel {
	return func(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
		a := args[0]
		out := newFixedOut[int64](ec.mem, ec.n, a)
		if seconds && isFloat(a.DataType()) {
			for i := 0; i < ec.n; i++ {
				if out.isValid(i) {
					out.vals[i] = saturate(floatAt(a, i) * 1e9)
				}
			}
			return out.finish(typ), nil
		}
		if d, ok := a.(*array.Decimal128); seconds && ok {
			scale := int(d.DataType().(*arrow.Decimal128Type).Scale)
			for i := 0; i < ec.n; i++ {
				if !out.isValid(i) {
					continue
				}
				v := d.Value(i)
				if scale <= 9 {
					v = v.Mul(decimal128.FromI64(pow10(9 - max(scale, 0))))
				} else {
					for s := scale; s > 9; s-- {
						v, _ = v.Div(decimal128.FromI64(10))
					}
				}
				out.vals[i] = int64(v.LowBits())
			}
			return out.finish(typ), nil
		}
		vals, err := int64Column(a)
		if err != nil {
			out.release()
			return nil, err
		}
		for i, v := range vals {
			if !out.isValid(i) {
				continue
			}
			if seconds {
				r, ok := checkedMul(v, nanosPerSec)
				if !ok {
					out.release()
					return nil, evalErr("arithmetic overflow: overflow happened on: %d * 1000000000", v)
				}
				v = r
			}
			out.vals[i] = v
		}
		return out.finish(typ), nil
	}
}

// toDateKernel is to_date of a timestamp (its date, in its zone), a
// date, or a number of days (cast to Int32).
func toDateKernel(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
	a := args[0]
	out := newFixedOut[int32](ec.mem, ec.n, a)
	switch t := a.DataType().(type) {
	case *arrow.Date32Type:
		copy(out.vals, int32Values(a))
	case *arrow.Date64Type:
		for i, v := range int64Values(a) {
			out.vals[i] = int32(v / (secsPerDay * 1000))
		}
	case *arrow.TimestampType:
		z, _ := timestampZone(t)
		per := unitPerSec(t.Unit)
		for i, v := range int64Values(a) {
			if !out.isValid(i) {
				continue
			}
			secs, _ := splitTicks(v, per)
			if z != nil {
				secs += z.offsetAt(secs)
			}
			d := floorDiv(secs, secsPerDay)
			if d < math.MinInt32 || d > math.MaxInt32 {
				out.release()
				return nil, evalErr("can't cast value %d to type Date32", v)
			}
			out.vals[i] = int32(d)
		}
	default:
		vals, err := int64Column(a)
		if err != nil {
			out.release()
			return nil, err
		}
		for i, v := range vals {
			if v < math.MinInt32 || v > math.MaxInt32 {
				out.release()
				return nil, evalErr("can't cast value %d to type Int32", v)
			}
			out.vals[i] = int32(v)
		}
	}
	return out.finish(arrow.FixedWidthTypes.Date32), nil
}

// unixtimeKernel is to_unixtime of a timestamp (seconds, truncated), a
// date, or a number (cast to Int64).
func unixtimeKernel(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
	a := args[0]
	out := newFixedOut[int64](ec.mem, ec.n, a)
	switch t := a.DataType().(type) {
	case *arrow.Date32Type:
		for i, v := range int32Values(a) {
			out.vals[i] = int64(v) * secsPerDay
		}
	case *arrow.Date64Type:
		for i, v := range int64Values(a) {
			out.vals[i] = v / 1000
		}
	case *arrow.TimestampType:
		per := unitPerSec(t.Unit)
		for i, v := range int64Values(a) {
			out.vals[i] = v / per
		}
	default:
		vals, err := int64Column(a)
		if err != nil {
			out.release()
			return nil, err
		}
		copy(out.vals, vals)
	}
	return out.finish(arrow.PrimitiveTypes.Int64), nil
}

// fromUnixtimeKernel is from_unixtime(seconds[, zone]).
func fromUnixtimeKernel(typ *arrow.TimestampType) kernel {
	return func(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
		a := args[0]
		out := newFixedOut[int64](ec.mem, ec.n, a)
		vals, err := int64Column(a)
		if err != nil {
			out.release()
			return nil, err
		}
		copy(out.vals, vals)
		return out.finish(typ), nil
	}
}

// charKernel is to_char(x, format): items for a constant format, else
// the format column (args[1]) is read row by row.
func charKernel(t arrow.DataType, items []tfItem) kernel {
	return func(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
		a := args[0]
		z, err := timestampZone(t)
		if err != nil {
			return nil, evalErr("%v", err)
		}
		var per int64
		var v64 []int64
		var v32 []int32
		switch x := t.(type) {
		case *arrow.TimestampType:
			per, v64 = unitPerSec(x.Unit), int64Values(a)
		case *arrow.Date64Type:
			per, v64 = 1_000, int64Values(a)
		case *arrow.Time64Type:
			per, v64 = unitPerSec(x.Unit), int64Values(a)
		case *arrow.Time32Type:
			per, v32 = unitPerSec(x.Unit), int32Values(a)
		case *arrow.Date32Type:
			v32 = int32Values(a)
		}
		column := len(args) > 1
		var fv bytesView
		var cache map[string][]tfItem
		if column {
			fv = bytesOf(args[1])
			cache = map[string][]tfItem{}
		}
		bl := array.NewStringBuilder(ec.mem)
		defer bl.Release()
		bl.Reserve(ec.n)
		var buf []byte
		for i := 0; i < ec.n; i++ {
			if a.IsNull(i) || (column && args[1].IsNull(i)) {
				bl.AppendNull()
				continue
			}
			its := items
			if column {
				f := fv.str(i)
				if its = cache[f]; its == nil {
					if len(cache) > 64 {
						clear(cache)
					}
					its = parseFormat(f)
					cache[strings.Clone(f)] = its
				}
			}
			var tv tfValue
			var ok bool
			switch t.ID() {
			case arrow.DATE32:
				ok = dateValue(&tv, int64(v32[i]))
			case arrow.TIME32:
				ok = timeValue(&tv, int64(v32[i]), per)
			case arrow.TIME64:
				ok = timeValue(&tv, v64[i], per)
			default:
				ok = instantValue(&tv, v64[i], per, z)
			}
			if !ok {
				return nil, evalErr("cast error: failed to convert %d to datetime for %s", valueAt(v32, v64, i), t)
			}
			var fine bool
			if buf, fine = appendFormat(buf[:0], its, &tv); !fine {
				return nil, evalErr("cast error: format error")
			}
			bl.BinaryBuilder.Append(buf)
		}
		return bl.NewArray(), nil
	}
}

// valueAt returns row i of whichever slice holds the values.
func valueAt(v32 []int32, v64 []int64, i int) int64 {
	if v64 != nil {
		return v64[i]
	}
	return int64(v32[i])
}

// setDay fills the date fields of tv from day z (false outside chrono's
// range).
func setDay(tv *tfValue, z int64) bool {
	if z < minChronoDay || z > maxChronoDay {
		return false
	}
	tv.hasDate, tv.day = true, z
	tv.year, tv.month, tv.mday = civilFromDays(z)
	return true
}

// dateValue fills tv with a date at midnight.
func dateValue(tv *tfValue, days int64) bool {
	tv.hasTime = true
	return setDay(tv, days)
}

// timeValue fills tv with a time of day of ticks per second.
func timeValue(tv *tfValue, v, per int64) bool {
	secs, nanos := splitTicks(v, per)
	if secs < 0 || secs >= secsPerDay {
		return false
	}
	tv.hasTime = true
	tv.hour, tv.min, tv.sec, tv.nano = int(secs/3600), int(secs/60%60), int(secs%60), int(nanos)
	return true
}

// instantValue fills tv with a timestamp (or a Date64) in zone z.
func instantValue(tv *tfValue, v, per int64, z *zone) bool {
	secs, nanos := splitTicks(v, per)
	day := floorDiv(secs, secsPerDay)
	if day < minChronoDay || day > maxChronoDay {
		return false
	}
	if z != nil {
		tv.hasOff, tv.off = true, z.offsetAt(secs)
		secs += tv.off
		day = floorDiv(secs, secsPerDay)
	}
	sod := secs - day*secsPerDay
	tv.hasTime = true
	tv.hour, tv.min, tv.sec, tv.nano = int(sod/3600), int(sod/60%60), int(sod%60), int(nanos)
	return setDay(tv, day)
}

// parseRustInt parses a decimal integer of bits bits as Rust's
// from_str does (an optional sign, digits).
func parseRustInt(s string, bits int) (int64, bool) {
	if s == "" || strings.HasPrefix(s, "+-") || strings.HasPrefix(s, "-+") {
		return 0, false
	}
	v, err := strconv.ParseInt(s, 10, bits)
	return v, err == nil
}
