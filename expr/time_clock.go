package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// Times of day and local times: make_time(h, m, s) → Time32(s),
// to_time(s[, format…]) and to_time(ts) → Time64(ns), to_local_time(ts)
// → the wall time of a zoned timestamp, without its zone.

var time64ns = &arrow.Time64Type{Unit: arrow.Nanosecond}

// toTimeFormats are the formats to_time tries without one.
var toTimeFormats = []string{"%H:%M:%S%.f", "%H:%M:%S", "%H:%M"}

func bindMakeTime(b *binder, c *Call, args []node) (node, error) {
	if len(args) != 3 {
		return nil, fmt.Errorf("%w: make_time expects 3 arguments but received %d (at %d)", ErrBind, len(args), c.At)
	}
	t32 := &arrow.Time32Type{Unit: arrow.Second}
	for i, a := range args {
		t := a.dataType()
		if !isIntOrNull(t) && !isString(t) {
			return nil, argTypeError(c, i, a, "Int32")
		}
		if t.ID() == arrow.NULL {
			return &constNode{val: nullOf(b.mem, t32)}, nil
		}
	}
	return &callNode{name: c.Name, args: args, typ: t32, k: makeTimeKernel}, nil
}

// makeTimeKernel is make_time(hour, minute, second).
func makeTimeKernel(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
	var cols [3][]int32
	for k := range cols {
		var err error
		if cols[k], err = int32Column(args[k]); err != nil {
			return nil, err
		}
	}
	out := newFixedOut[int32](ec.mem, ec.n, args...)
	names := [3]string{"Hour", "Minute", "Second"}
	for i := 0; i < ec.n; i++ {
		if !out.isValid(i) {
			continue
		}
		h, m, s := cols[0][i], cols[1][i], cols[2][i]
		for k, v := range [3]int32{h, m, s} {
			if v < 0 {
				out.release()
				return nil, evalErr("%s value '%d' is out of range", names[k], v)
			}
		}
		if h > 23 || m > 59 || s > 59 {
			out.release()
			return nil, evalErr("unable to parse time from %d, %d, %d", h, m, s)
		}
		out.vals[i] = h*3600 + m*60 + s
	}
	return out.finish(&arrow.Time32Type{Unit: arrow.Second}), nil
}

func bindToTime(b *binder, c *Call, args []node) (node, error) {
	if len(args) == 0 {
		return nil, argCountError(c, "1 or more")
	}
	x := args[0]
	xt := x.dataType()
	switch {
	case xt.ID() == arrow.NULL:
		return &constNode{val: nullOf(b.mem, time64ns)}, nil
	case isString(xt):
		fmts, cols, err := formatArgs(c, args[1:])
		if err != nil {
			return nil, err
		}
		if len(args) == 1 {
			for _, f := range toTimeFormats {
				fmts = append(fmts, fmtArg{tf: compileTimeFormat(f)})
			}
		}
		if len(fmts) == 0 {
			return &constNode{val: nullOf(b.mem, time64ns)}, nil
		}
		return &callNode{name: c.Name, args: append([]node{x}, cols...), typ: time64ns, k: stringToTimeKernel(fmts)}, nil
	case xt.ID() == arrow.TIMESTAMP:
		if _, err := timestampZone(xt); err != nil {
			return nil, fmt.Errorf("%w: %s: %w (at %d)", ErrBind, c.Name, err, c.At)
		}
		return &callNode{name: c.Name, args: []node{x}, typ: time64ns, k: tsToTimeKernel}, nil
	}
	return nil, evalFailure(c, "unsupported data type %s for function to_time", xt)
}

// stringToTimeKernel parses times of day with chrono formats (the date
// fields of a format are read and ignored).
func stringToTimeKernel(fmts []fmtArg) kernel {
	return func(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
		a := args[0]
		sv := bytesOf(a)
		out := newFixedOut[int64](ec.mem, ec.n, a)
		cache := formatCache{}
		for i := 0; i < ec.n; i++ {
			if !out.isValid(i) {
				continue
			}
			s := sv.str(i)
			found, tried := false, false
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
				tried = true
				var p parsed
				if p.parseItems(s, tf.items) != nil {
					continue
				}
				if ns, err := p.toTime(); err == nil {
					out.vals[i], found = ns, true
					break
				}
			}
			switch {
			case found:
			case !tried:
				out.setNull(i)
			default:
				out.release()
				return nil, evalErr("error parsing %q as time", s)
			}
		}
		return out.finish(time64ns), nil
	}
}

// tsToTimeKernel is to_time(ts): the time of day, in the zone.
func tsToTimeKernel(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
	a := args[0]
	t := a.DataType().(*arrow.TimestampType)
	z, _ := timestampZone(t)
	per := unitPerSec(t.Unit)
	out := newFixedOut[int64](ec.mem, ec.n, a)
	for i, v := range int64Values(a) {
		if !out.isValid(i) {
			continue
		}
		secs, nanos := splitTicks(v, per)
		if z != nil {
			secs += z.offsetAt(secs)
		}
		out.vals[i] = floorMod(secs, secsPerDay)*nanosPerSec + nanos
	}
	return out.finish(time64ns), nil
}

func bindToLocalTime(b *binder, c *Call, args []node) (node, error) {
	if len(args) != 1 {
		return nil, argCountError(c, "1")
	}
	x := args[0]
	switch x.dataType().ID() {
	case arrow.NULL:
		return x, nil
	case arrow.TIMESTAMP:
	default:
		return nil, argTypeError(c, 0, x, "a timestamp")
	}
	t := x.dataType().(*arrow.TimestampType)
	if t.TimeZone == "" {
		return x, nil
	}
	z, err := timestampZone(t)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w (at %d)", ErrBind, c.Name, err, c.At)
	}
	typ := &arrow.TimestampType{Unit: t.Unit}
	per := unitPerSec(t.Unit)
	k := func(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
		a := args[0]
		out := newFixedOut[int64](ec.mem, ec.n, a)
		for i, v := range int64Values(a) {
			if !out.isValid(i) {
				continue
			}
			secs, _ := splitTicks(v, per)
			r, ok := checkedAdd(v, z.offsetAt(secs)*per)
			if !ok {
				out.release()
				return nil, evalErr("timestamp %d out of range in zone %s", v, z.name)
			}
			out.vals[i] = r
		}
		return out.finish(typ), nil
	}
	return &callNode{name: c.Name, args: []node{x}, typ: typ, k: k}, nil
}

// timeBinKernel bins times of day (date_trunc and date_bin over Time32
// and Time64): origin + a multiple of stride, in nanoseconds, back to
// the time's unit.
func timeBinKernel(stride, origin int64, t arrow.DataType) kernel {
	var per int64
	switch x := t.(type) {
	case *arrow.Time32Type:
		per = unitPerSec(x.Unit)
	case *arrow.Time64Type:
		per = unitPerSec(x.Unit)
	}
	scale := nanosPerSec / per
	return func(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
		a := args[0]
		bin := func(v int64) int64 { return (origin + binDistance(v*scale-origin, stride)) / scale }
		if t.ID() == arrow.TIME32 {
			out := newFixedOut[int32](ec.mem, ec.n, a)
			for i, v := range int32Values(a) {
				out.vals[i] = int32(bin(int64(v)))
			}
			return out.finish(t), nil
		}
		out := newFixedOut[int64](ec.mem, ec.n, a)
		for i, v := range int64Values(a) {
			out.vals[i] = bin(v)
		}
		return out.finish(t), nil
	}
}
