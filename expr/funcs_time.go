package expr

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Date and time functions, with DataFusion 50's (pylance 14.0.2) typing:
// now() and current_timestamp are Timestamp(ns) (the instant of
// Options.Now, one per query), current_date/today Date32, current_time
// Time64(ns); date_trunc keeps its timestamp's type (a date or a string
// becomes Timestamp(ns)); date_part is Int32 (nanosecond Int64, epoch
// Float64); to_timestamp* give Timestamp(ns/s/ms/µs/ns), to_date Date32,
// to_char Utf8, to_unixtime Int64, from_unixtime Timestamp(s). Calendar
// math is proleptic Gregorian over int64 days, within chrono's years
// -262143..262142; a zoned timestamp type is read in its zone.

// timeFuncs are the date and time functions (now, date_trunc, …).
var timeFuncs = map[string]funcSpec{
	"now":                  {bind: bindNow},
	"current_timestamp":    {bind: bindNow},
	"current_date":         {bind: bindCurrentDate},
	"today":                {bind: bindCurrentDate},
	"current_time":         {bind: bindCurrentTime},
	"date_trunc":           {bind: bindDateTrunc},
	"datetrunc":            {bind: bindDateTrunc},
	"date_part":            {bind: bindDatePart},
	"datepart":             {bind: bindDatePart},
	"date_bin":             {bind: bindDateBin},
	"make_date":            {bind: bindMakeDate},
	"to_timestamp":         {bind: bindToTimestamp},
	"to_timestamp_seconds": {bind: bindToTimestamp},
	"to_timestamp_millis":  {bind: bindToTimestamp},
	"to_timestamp_micros":  {bind: bindToTimestamp},
	"to_timestamp_nanos":   {bind: bindToTimestamp},
	"to_date":              {bind: bindToDate},
	"to_unixtime":          {bind: bindToUnixtime},
	"from_unixtime":        {bind: bindFromUnixtime},
	"to_char":              {bind: bindToChar},
	"date_format":          {bind: bindToChar},
	"make_time":            {bind: bindMakeTime},
	"to_time":              {bind: bindToTime},
	"to_local_time":        {bind: bindToLocalTime},
}

var (
	tsNanos   = &arrow.TimestampType{Unit: arrow.Nanosecond}
	tsSeconds = &arrow.TimestampType{Unit: arrow.Second}
)

// timeConstStr returns the value of a constant string argument (null
// when it is NULL); ok is false when n is not a constant string or NULL.
func timeConstStr(n node) (s string, null, ok bool) {
	c, isConst := asConst(n)
	if !isConst {
		return "", false, false
	}
	switch c.val.DataType().ID() {
	case arrow.NULL:
		return "", true, true
	case arrow.STRING, arrow.LARGE_STRING:
		if c.isNull() {
			return "", true, true
		}
		v := bytesOf(c.val)
		return strings.Clone(v.str(0)), false, true
	}
	return "", false, false
}

// evalFailure is an error of a function found while binding constants.
func evalFailure(c *Call, format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s (at %d)", ErrEval, c.Name, fmt.Sprintf(format, args...), c.At)
}

func bindNow(b *binder, c *Call, args []node) (node, error) {
	if len(args) != 0 {
		return nil, argCountError(c, "no")
	}
	bl := array.NewTimestampBuilder(b.mem, tsNanos)
	defer bl.Release()
	bl.Append(arrow.Timestamp(b.now.UnixNano()))
	return &constNode{val: bl.NewArray()}, nil
}

func bindCurrentDate(b *binder, c *Call, args []node) (node, error) {
	if len(args) != 0 {
		return nil, argCountError(c, "no")
	}
	bl := array.NewDate32Builder(b.mem)
	defer bl.Release()
	bl.Append(arrow.Date32(floorDiv(b.now.Unix(), secsPerDay)))
	return &constNode{val: bl.NewArray()}, nil
}

func bindCurrentTime(b *binder, c *Call, args []node) (node, error) {
	if len(args) != 0 {
		return nil, argCountError(c, "no")
	}
	bl := array.NewTime64Builder(b.mem, &arrow.Time64Type{Unit: arrow.Nanosecond})
	defer bl.Release()
	bl.Append(arrow.Time64(floorMod(b.now.UnixNano(), nanosPerDay)))
	return &constNode{val: bl.NewArray()}, nil
}

// timestampArg coerces an argument to a timestamp as DataFusion's
// signatures do: a timestamp stays, a date or a string becomes
// Timestamp(ns), NULL a NULL Timestamp(ns).
func (b *binder) timestampArg(c *Call, i int, n node) (node, error) {
	switch n.dataType().ID() {
	case arrow.TIMESTAMP:
		if _, err := timestampZone(n.dataType()); err != nil {
			return nil, fmt.Errorf("%w: %s: %w (at %d)", ErrBind, c.Name, err, c.At)
		}
		return n, nil
	case arrow.DATE32, arrow.DATE64, arrow.STRING, arrow.LARGE_STRING:
		return b.fold(&callNode{name: c.Name, args: []node{n}, typ: tsNanos, k: toNanosKernel}, nil)
	case arrow.NULL:
		return &constNode{val: nullOf(b.mem, tsNanos)}, nil
	}
	return nil, argTypeError(c, i, n, "a timestamp")
}

// dateTruncUnits are date_trunc's granularities.
var dateTruncUnits = map[string]bool{"microsecond": true, "millisecond": true, "second": true, "minute": true,
	"hour": true, "day": true, "week": true, "month": true, "quarter": true, "year": true}

func bindDateTrunc(b *binder, c *Call, args []node) (node, error) {
	if len(args) != 2 {
		return nil, argCountError(c, "2")
	}
	unit, null, ok := timeConstStr(args[0])
	if !ok && !isString(args[0].dataType()) && args[0].dataType().ID() != arrow.NULL {
		return nil, argTypeError(c, 0, args[0], "a string")
	}
	x := args[1]
	isTime := x.dataType().ID() == arrow.TIME32 || x.dataType().ID() == arrow.TIME64
	if !isTime {
		var err error
		if x, err = b.timestampArg(c, 1, x); err != nil {
			return nil, err
		}
	}
	if !ok || null {
		return nil, evalFailure(c, "granularity of `date_trunc` must be non-null scalar Utf8")
	}
	unit = strings.ToLower(unit)
	if !dateTruncUnits[unit] {
		return nil, evalFailure(c, "unsupported date_trunc granularity: %q; supported values are: microsecond, millisecond, second, minute, hour, day, week, month, quarter, year", unit)
	}
	if isTime {
		g := map[string]int64{"microsecond": 1_000, "millisecond": 1_000_000, "second": nanosPerSec,
			"minute": 60 * nanosPerSec, "hour": 3600 * nanosPerSec}[unit]
		if g == 0 {
			return nil, evalFailure(c, "date_trunc does not support %q granularity for Time types", unit)
		}
		return &callNode{name: c.Name, args: []node{x}, typ: x.dataType(), k: timeBinKernel(g, 0, x.dataType())}, nil
	}
	typ := x.dataType().(*arrow.TimestampType)
	z, _ := timestampZone(typ)
	_, scalar := asConst(x)
	return &callNode{name: c.Name, args: []node{x}, typ: typ, k: truncKernel(unit, typ, z, scalar)}, nil
}

// datePartNames maps date_part's part names (arrow-rs interval units
// plus DataFusion's own) to canonical parts.
var datePartNames = map[string]string{
	"y": "year", "yr": "year", "yrs": "year", "year": "year", "years": "year",
	"mon": "month", "mons": "month", "month": "month", "months": "month",
	"w": "week", "week": "week", "weeks": "week",
	"d": "day", "day": "day", "days": "day",
	"h": "hour", "hr": "hour", "hrs": "hour", "hour": "hour", "hours": "hour",
	"m": "minute", "min": "minute", "mins": "minute", "minute": "minute", "minutes": "minute",
	"s": "second", "sec": "second", "secs": "second", "second": "second", "seconds": "second",
	"ms": "millisecond", "msec": "millisecond", "msecs": "millisecond", "msecond": "millisecond",
	"mseconds": "millisecond", "millisecond": "millisecond", "milliseconds": "millisecond",
	"us": "microsecond", "usec": "microsecond", "usecs": "microsecond", "usecond": "microsecond",
	"useconds": "microsecond", "microsecond": "microsecond", "microseconds": "microsecond",
	"nanosecond": "nanosecond", "nanoseconds": "nanosecond",
	"qtr": "quarter", "quarter": "quarter", "doy": "doy", "dow": "dow", "isodow": "isodow",
	"isoyear": "isoyear", "epoch": "epoch",
}

func bindDatePart(b *binder, c *Call, args []node) (node, error) {
	if len(args) != 2 {
		return nil, argCountError(c, "2")
	}
	x := args[1]
	t := x.dataType()
	switch t.ID() {
	case arrow.TIMESTAMP, arrow.DATE32, arrow.DATE64, arrow.TIME32, arrow.TIME64:
	case arrow.STRING, arrow.LARGE_STRING:
		var err error
		if x, err = b.timestampArg(c, 1, x); err != nil {
			return nil, err
		}
		t = x.dataType()
	case arrow.NULL:
		return nil, evalFailure(c, "date_part does not support Null")
	default:
		return nil, argTypeError(c, 1, x, "a timestamp, date or time")
	}
	raw, null, ok := timeConstStr(args[0])
	if !ok || null || raw == "" {
		return nil, evalFailure(c, "date_part requires non-empty constant string")
	}
	s := raw
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		s = s[1 : len(s)-1]
	}
	part, known := datePartNames[strings.ToLower(s)]
	if !known {
		return nil, evalFailure(c, "date part %q not supported", raw)
	}
	if (t.ID() == arrow.TIME32 || t.ID() == arrow.TIME64) && !timePart(part) {
		return nil, evalFailure(c, "%s does not support %s", part, t)
	}
	z, err := timestampZone(t)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w (at %d)", ErrBind, c.Name, err, c.At)
	}
	var typ arrow.DataType = arrow.PrimitiveTypes.Int32
	switch part {
	case "nanosecond":
		typ = arrow.PrimitiveTypes.Int64
	case "epoch":
		typ = arrow.PrimitiveTypes.Float64
	}
	return &callNode{name: c.Name, args: []node{x}, typ: typ, k: partKernel(part, t, z)}, nil
}

// timePart reports whether a date_part part applies to a time of day.
func timePart(p string) bool {
	switch p {
	case "hour", "minute", "second", "millisecond", "microsecond", "nanosecond", "epoch":
		return true
	}
	return false
}

func bindDateBin(b *binder, c *Call, args []node) (node, error) {
	if len(args) != 2 && len(args) != 3 {
		return nil, argCountError(c, "2 or 3")
	}
	st := args[0].dataType().ID()
	if st != arrow.INTERVAL_MONTH_DAY_NANO && st != arrow.NULL {
		return nil, argTypeError(c, 0, args[0], "an interval")
	}
	src := args[1]
	switch src.dataType().ID() {
	case arrow.TIME32, arrow.TIME64:
		return b.bindTimeBin(c, args)
	case arrow.DATE64:
		return nil, argTypeError(c, 1, src, "a timestamp")
	}
	srcTs, exact := src.dataType().(*arrow.TimestampType)
	// DataFusion's signatures take any unit without a zone, nanoseconds
	// with one; anything else is cast to Timestamp(ns).
	exact = exact && st != arrow.NULL && (srcTs.TimeZone == "" || srcTs.Unit == arrow.Nanosecond)
	var origin node
	if len(args) == 3 {
		origin = args[2]
		ot, ok := origin.dataType().(*arrow.TimestampType)
		exact = exact && ok && ot.Unit == arrow.Nanosecond && (ot.TimeZone == "") == (srcTs.TimeZone == "")
	}
	if !exact {
		var err error
		if src, err = b.timestampArg(c, 1, src); err != nil {
			return nil, err
		}
		srcTs = &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: src.dataType().(*arrow.TimestampType).TimeZone}
		if srcTs.Unit != src.dataType().(*arrow.TimestampType).Unit {
			src = &callNode{name: c.Name, args: []node{src}, typ: srcTs, k: rescaleKernel(srcTs)}
		}
	} else if _, err := timestampZone(srcTs); err != nil {
		return nil, fmt.Errorf("%w: %s: %w (at %d)", ErrBind, c.Name, err, c.At)
	}
	var originNs int64
	if origin != nil {
		oc, ok := asConst(origin)
		if !ok {
			return nil, fmt.Errorf("%w: %s: DATE_BIN only supports literal values for the origin argument, not arrays (at %d)", ErrUnsupported, c.Name, c.At)
		}
		var err error
		if originNs, err = originNanos(oc.val); err != nil {
			return nil, evalFailure(c, "%v", err)
		}
	}
	sc, ok := asConst(args[0])
	if !ok {
		return nil, fmt.Errorf("%w: %s: DATE_BIN only supports literal values for the stride argument, not arrays (at %d)", ErrUnsupported, c.Name, c.At)
	}
	if sc.isNull() || sc.val.DataType().ID() == arrow.NULL {
		return &constNode{val: nullOf(b.mem, srcTs)}, nil
	}
	iv := sc.val.(*array.MonthDayNanoInterval).Value(0)
	switch {
	case iv.Months != 0 && (iv.Days != 0 || iv.Nanoseconds != 0):
		return nil, fmt.Errorf("%w: %s: DATE_BIN stride does not support combination of month, day and nanosecond intervals (at %d)", ErrUnsupported, c.Name, c.At)
	case iv.Months == 0 && iv.Days == 0 && iv.Nanoseconds == 0:
		return nil, evalFailure(c, "DATE_BIN stride must be non-zero")
	}
	stride := iv.Nanoseconds
	if iv.Months == 0 {
		d, ok1 := checkedMul(int64(iv.Days), nanosPerDay)
		s, ok2 := checkedAdd(d, iv.Nanoseconds)
		if !ok1 || !ok2 {
			return nil, evalFailure(c, "DATE_BIN stride overflows nanoseconds")
		}
		stride = s
	}
	_, scalar := asConst(src)
	return &callNode{name: c.Name, args: []node{src}, typ: srcTs, k: binKernel(int64(iv.Months), stride, originNs, srcTs, scalar)}, nil
}

// bindTimeBin binds date_bin over a time of day: a stride under a day,
// an origin of a time type (midnight by default).
func (b *binder) bindTimeBin(c *Call, args []node) (node, error) {
	src := args[1]
	sc, ok := asConst(args[0])
	if !ok {
		return nil, fmt.Errorf("%w: %s: DATE_BIN only supports literal values for the stride argument, not arrays (at %d)", ErrUnsupported, c.Name, c.At)
	}
	if sc.isNull() || sc.val.DataType().ID() == arrow.NULL {
		return &constNode{val: nullOf(b.mem, src.dataType())}, nil
	}
	iv := sc.val.(*array.MonthDayNanoInterval).Value(0)
	stride := int64(iv.Days)*nanosPerDay + iv.Nanoseconds
	if iv.Months != 0 || iv.Days != 0 || stride >= nanosPerDay {
		return nil, evalFailure(c, "DATE_BIN stride for TIME input must be less than 1 day")
	}
	if stride == 0 {
		return nil, evalFailure(c, "DATE_BIN stride must be non-zero")
	}
	var origin int64
	if len(args) == 3 {
		oc, ok := asConst(args[2])
		if !ok {
			return nil, fmt.Errorf("%w: %s: DATE_BIN only supports literal values for the origin argument, not arrays (at %d)", ErrUnsupported, c.Name, c.At)
		}
		switch t := oc.val.DataType().(type) {
		case *arrow.Time32Type:
			origin = int64(int32Values(oc.val)[0]) * (nanosPerSec / unitPerSec(t.Unit))
		case *arrow.Time64Type:
			origin = int64Values(oc.val)[0] * (nanosPerSec / unitPerSec(t.Unit))
		default:
			return nil, argTypeError(c, 2, args[2], "a time")
		}
		if oc.isNull() {
			return nil, evalFailure(c, "DATE_BIN origin must not be NULL")
		}
	}
	return &callNode{name: c.Name, args: []node{src}, typ: src.dataType(), k: timeBinKernel(stride, origin, src.dataType())}, nil
}

// originNanos reads date_bin's constant origin as nanoseconds.
func originNanos(a arrow.Array) (int64, error) {
	if a.IsNull(0) {
		return 0, fmt.Errorf("DATE_BIN expects origin argument to be a TIMESTAMP with nanosecond precision or a TIME but got Timestamp(ns)")
	}
	switch t := a.DataType().(type) {
	case *arrow.TimestampType:
		v := int64Values(a)[0]
		ns, ok := checkedMul(v, nanosPerSec/unitPerSec(t.Unit))
		if !ok {
			return 0, fmt.Errorf("arithmetic overflow: overflow happened on: %d * %d", v, nanosPerSec/unitPerSec(t.Unit))
		}
		return ns, nil
	case *arrow.Date32Type:
		v := int64(int32Values(a)[0])
		ns, ok := checkedMul(v, nanosPerDay)
		if !ok {
			return 0, fmt.Errorf("cannot cast Date32 value %d to Timestamp(ns): converted value exceeds the representable i64 range", v)
		}
		return ns, nil
	case *arrow.Date64Type:
		v := int64Values(a)[0]
		ns, ok := checkedMul(v, 1_000_000)
		if !ok {
			return 0, fmt.Errorf("cannot cast Date64 value %d to Timestamp(ns)", v)
		}
		return ns, nil
	case *arrow.StringType, *arrow.LargeStringType:
		v := bytesOf(a)
		dt, err := parseTimestampString(v.str(0))
		if err != nil {
			return 0, err
		}
		ns, ok := dt.unixNanos()
		if !ok {
			return 0, errNanosRange
		}
		return ns, nil
	}
	return 0, fmt.Errorf("DATE_BIN expects origin argument to be a TIMESTAMP, got %s", a.DataType())
}

// intArgKinds lists the argument types make_date and from_unixtime read
// as integers.
func isIntOrNull(t arrow.DataType) bool { return isInteger(t) || t.ID() == arrow.NULL }

func bindMakeDate(b *binder, c *Call, args []node) (node, error) {
	if len(args) != 3 {
		return nil, fmt.Errorf("%w: make_date expects 3 arguments but received %d (at %d)", ErrBind, len(args), c.At)
	}
	for i, a := range args {
		t := a.dataType()
		if !isIntOrNull(t) && !isString(t) {
			return nil, argTypeError(c, i, a, "Int32")
		}
		if t.ID() == arrow.NULL {
			return &constNode{val: nullOf(b.mem, arrow.FixedWidthTypes.Date32)}, nil
		}
	}
	return &callNode{name: c.Name, args: args, typ: arrow.FixedWidthTypes.Date32, k: makeDateKernel}, nil
}

// toTimestampUnits maps the to_timestamp variants to their units.
var toTimestampUnits = map[string]arrow.TimeUnit{
	"to_timestamp": arrow.Nanosecond, "to_timestamp_seconds": arrow.Second, "to_timestamp_millis": arrow.Millisecond,
	"to_timestamp_micros": arrow.Microsecond, "to_timestamp_nanos": arrow.Nanosecond,
}

// formatArgs checks the format arguments of to_timestamp, to_date and
// to_unixtime (strings): constant ones are compiled (NULL ones dropped),
// columns are returned to be evaluated after the first argument.
func formatArgs(c *Call, args []node) ([]fmtArg, []node, error) {
	var fmts []fmtArg
	var cols []node
	for i, a := range args {
		if !isString(a.dataType()) {
			return nil, nil, evalFailure(c, "%s function unsupported data type at index %d: %s", c.Name, i+1, a.dataType())
		}
		s, null, ok := timeConstStr(a)
		switch {
		case ok && null:
		case ok:
			fmts = append(fmts, fmtArg{tf: compileTimeFormat(s)})
		default:
			cols = append(cols, a)
			fmts = append(fmts, fmtArg{col: len(cols)})
		}
	}
	return fmts, cols, nil
}

// allNullFormats reports whether formats were given but all are NULL
// constants.
func allNullFormats(n int, fmts []fmtArg) bool { return n > 0 && len(fmts) == 0 }

func bindToTimestamp(b *binder, c *Call, args []node) (node, error) {
	if len(args) == 0 {
		return nil, argCountError(c, "1 or more")
	}
	unit := toTimestampUnits[c.Name]
	x := args[0]
	xt := x.dataType()
	typ := &arrow.TimestampType{Unit: unit}
	if len(args) > 1 && !isString(xt) {
		if _, _, err := formatArgs(c, args[1:]); err != nil {
			return nil, err
		}
	}
	switch {
	case xt.ID() == arrow.NULL:
		return &constNode{val: nullOf(b.mem, typ)}, nil
	case isString(xt):
		fmts, cols, err := formatArgs(c, args[1:])
		if err != nil {
			return nil, err
		}
		if _, xc := asConst(x); xc && len(cols) > 0 {
			return nil, evalFailure(c, "unsupported data type: a constant string with a column of formats")
		}
		if allNullFormats(len(args)-1, fmts) {
			return &constNode{val: nullOf(b.mem, typ)}, nil
		}
		return &callNode{name: c.Name, args: append([]node{x}, cols...), typ: typ, k: stringToTsKernel(typ, fmts, false)}, nil
	case xt.ID() == arrow.TIMESTAMP:
		return &callNode{name: c.Name, args: []node{x}, typ: typ, k: rescaleKernel(typ)}, nil
	case isInteger(xt), isFloat(xt), xt.ID() == arrow.DECIMAL128:
		return &callNode{name: c.Name, args: []node{x}, typ: typ, k: numberToTsKernel(typ, c.Name == "to_timestamp")}, nil
	}
	return nil, evalFailure(c, "unsupported data type %s for function %s", xt, c.Name)
}

func bindToDate(b *binder, c *Call, args []node) (node, error) {
	if len(args) == 0 {
		return nil, argCountError(c, "1 or more")
	}
	x := args[0]
	xt := x.dataType()
	if len(args) > 1 && !isString(xt) {
		if _, _, err := formatArgs(c, args[1:]); err != nil {
			return nil, err
		}
	}
	date := arrow.FixedWidthTypes.Date32
	switch {
	case xt.ID() == arrow.NULL:
		return &constNode{val: nullOf(b.mem, date)}, nil
	case isString(xt):
		fmts, cols, err := formatArgs(c, args[1:])
		if err != nil {
			return nil, err
		}
		if allNullFormats(len(args)-1, fmts) {
			return &constNode{val: nullOf(b.mem, date)}, nil
		}
		return &callNode{name: c.Name, args: append([]node{x}, cols...), typ: date, k: stringToDateKernel(fmts)}, nil
	case xt.ID() == arrow.TIMESTAMP, xt.ID() == arrow.DATE32, xt.ID() == arrow.DATE64, isInteger(xt), isFloat(xt), isDecimal(xt):
		if _, err := timestampZone(xt); err != nil {
			return nil, fmt.Errorf("%w: %s: %w (at %d)", ErrBind, c.Name, err, c.At)
		}
		return &callNode{name: c.Name, args: []node{x}, typ: date, k: toDateKernel}, nil
	}
	return nil, evalFailure(c, "unsupported data type %s for function to_date", xt)
}

func bindToUnixtime(b *binder, c *Call, args []node) (node, error) {
	if len(args) == 0 {
		return nil, argCountError(c, "1 or more")
	}
	x := args[0]
	xt := x.dataType()
	i64 := arrow.PrimitiveTypes.Int64
	if len(args) > 1 && !isString(xt) {
		return nil, evalFailure(c, "to_unixtime function only accepts format arguments with string input, got %d arguments", len(args))
	}
	switch {
	case xt.ID() == arrow.NULL:
		return &constNode{val: nullOf(b.mem, i64)}, nil
	case isString(xt):
		fmts, cols, err := formatArgs(c, args[1:])
		if err != nil {
			return nil, err
		}
		if allNullFormats(len(args)-1, fmts) {
			return &constNode{val: nullOf(b.mem, i64)}, nil
		}
		return &callNode{name: c.Name, args: append([]node{x}, cols...), typ: i64, k: stringToTsKernel(tsSeconds, fmts, true)}, nil
	case xt.ID() == arrow.TIMESTAMP, xt.ID() == arrow.DATE32, xt.ID() == arrow.DATE64, isInteger(xt), isFloat(xt):
		return &callNode{name: c.Name, args: []node{x}, typ: i64, k: unixtimeKernel}, nil
	}
	return nil, evalFailure(c, "unsupported data type %s for function to_unixtime", xt)
}

func bindFromUnixtime(b *binder, c *Call, args []node) (node, error) {
	if len(args) != 1 && len(args) != 2 {
		return nil, argCountError(c, "1 or 2")
	}
	x := args[0]
	xt := x.dataType()
	if !isIntOrNull(xt) || xt.ID() == arrow.UINT64 {
		return nil, argTypeError(c, 0, x, "Int64")
	}
	typ := &arrow.TimestampType{Unit: arrow.Second}
	if len(args) == 2 {
		if !isString(args[1].dataType()) && args[1].dataType().ID() != arrow.NULL {
			return nil, argTypeError(c, 1, args[1], "a string")
		}
		tz, null, ok := timeConstStr(args[1])
		if !ok || null {
			return nil, evalFailure(c, "from_unixtime requires its second argument to be a constant string")
		}
		typ.TimeZone = tz // DataFusion checks the zone only where it is used
	}
	if xt.ID() == arrow.NULL {
		return &constNode{val: nullOf(b.mem, typ)}, nil
	}
	return &callNode{name: c.Name, args: []node{x}, typ: typ, k: fromUnixtimeKernel(typ)}, nil
}

func bindToChar(b *binder, c *Call, args []node) (node, error) {
	if len(args) != 2 {
		return nil, argCountError(c, "2")
	}
	x, f := args[0], args[1]
	if !isString(f.dataType()) && f.dataType().ID() != arrow.NULL {
		return nil, argTypeError(c, 1, f, "a string")
	}
	switch xt := x.dataType(); xt.ID() {
	case arrow.TIMESTAMP, arrow.DATE32, arrow.DATE64, arrow.TIME32, arrow.TIME64:
		if _, err := timestampZone(xt); err != nil {
			return nil, fmt.Errorf("%w: %s: %w (at %d)", ErrBind, c.Name, err, c.At)
		}
	case arrow.STRING, arrow.LARGE_STRING, arrow.NULL:
		var err error
		if x, err = b.timestampArg(c, 0, x); err != nil {
			return nil, err
		}
	default:
		return nil, argTypeError(c, 0, x, "a date, time or timestamp")
	}
	utf8 := arrow.BinaryTypes.String
	if f.dataType().ID() == arrow.NULL {
		return &constNode{val: nullOf(b.mem, utf8)}, nil
	}
	s, null, ok := timeConstStr(f)
	if ok && null {
		return &constNode{val: nullOf(b.mem, utf8)}, nil
	}
	if ok {
		items := parseFormat(s)
		return &callNode{name: c.Name, args: []node{x}, typ: utf8, k: charKernel(x.dataType(), items)}, nil
	}
	return &callNode{name: c.Name, args: []node{x, f}, typ: utf8, k: charKernel(x.dataType(), nil)}, nil
}
