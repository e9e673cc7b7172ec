package expr

import (
	"fmt"
	"math"
	"math/bits"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Calendar arithmetic for the date and time functions: proleptic
// Gregorian days since 1970-01-01 in int64 (no time.Time per row), the
// range chrono (and so DataFusion) represents, time zones of zoned
// timestamp types, and builders of fixed-width results.

const (
	secsPerDay  = 86400
	nanosPerSec = 1_000_000_000
	nanosPerDay = secsPerDay * nanosPerSec
)

// chrono's NaiveDate range: years -262143 to 262142.
var (
	minChronoDay = daysFromCivil(-262143, 1, 1)
	maxChronoDay = daysFromCivil(262142, 12, 31)
)

// floorDiv is a / b rounded toward negative infinity (b > 0).
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b < 0 {
		q--
	}
	return q
}

// floorMod is a - b*floorDiv(a, b), in [0, b) (b > 0).
func floorMod(a, b int64) int64 {
	m := a % b
	if m < 0 {
		m += b
	}
	return m
}

// daysFromCivil returns the days since 1970-01-01 of year y, month m
// (1-12), day d (1-31) in the proleptic Gregorian calendar.
func daysFromCivil(y int64, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400
	mp := int64((m + 9) % 12)
	doy := (153*mp+2)/5 + int64(d) - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// civilFromDays is the inverse of daysFromCivil.
func civilFromDays(z int64) (y int64, m, d int) {
	z += 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = int(doy - (153*mp+2)/5 + 1)
	if mp < 10 {
		m = int(mp + 3)
	} else {
		m = int(mp - 9)
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

// isLeap reports whether y is a leap year.
func isLeap(y int64) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

// daysIn returns the number of days of month m of year y.
func daysIn(y int64, m int) int {
	switch m {
	case 2:
		if isLeap(y) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// weekdayOf returns the day of the week of day z, 0 = Sunday.
func weekdayOf(z int64) int { return int(floorMod(z+4, 7)) }

// ordinalOf returns the day of the year (1-366) of y-m-d.
func ordinalOf(y int64, m, d int) int {
	return int(daysFromCivil(y, m, d)-daysFromCivil(y, 1, 1)) + 1
}

// isoWeek returns the ISO 8601 year and week of day z.
func isoWeek(z int64) (int64, int) {
	wd := (weekdayOf(z) + 6) % 7 // Monday = 0
	// The Thursday of this week decides the ISO year.
	thu := z - int64(wd) + 3
	ty, _, _ := civilFromDays(thu)
	week := int((thu-daysFromCivil(ty, 1, 1))/7) + 1
	return ty, week
}

// unitPerSec returns the ticks of a timestamp unit in a second.
func unitPerSec(u arrow.TimeUnit) int64 {
	switch u {
	case arrow.Second:
		return 1
	case arrow.Millisecond:
		return 1_000
	case arrow.Microsecond:
		return 1_000_000
	}
	return nanosPerSec
}

// splitTicks splits a timestamp value of per ticks a second into whole
// seconds (floored) and nanoseconds within the second.
func splitTicks(v, per int64) (secs, nanos int64) {
	secs = floorDiv(v, per)
	nanos = (v - secs*per) * (nanosPerSec / per)
	return secs, nanos
}

// zone is the time zone of a zoned timestamp type: a fixed offset or a
// location of the system's time zone database.
type zone struct {
	loc  *time.Location // nil for a fixed offset
	off  int64          // fixed offset, seconds east of UTC
	name string         // as the type spells it
}

// parseZone reads a time zone as arrow-rs does: [+-]HH:MM, [+-]HHMM,
// [+-]HH, else an IANA name ("UTC", "America/New_York").
func parseZone(tz string) (*zone, error) {
	if off, ok := parseFixedOffset(tz); ok {
		return &zone{off: off, name: tz}, nil
	}
	if tz == "" || tz == "Local" {
		return nil, fmt.Errorf("invalid time zone %q", tz)
	}
	loc, err := time.LoadLocation(tz)
	if err != nil {
		return nil, fmt.Errorf("invalid time zone %q: %w", tz, err)
	}
	return &zone{loc: loc, name: tz}, nil
}

// parseFixedOffset parses [+-]HH:MM, [+-]HHMM or [+-]HH.
func parseFixedOffset(s string) (int64, bool) {
	var dg [4]byte
	switch {
	case len(s) == 6 && s[3] == ':':
		dg = [4]byte{s[1], s[2], s[4], s[5]}
	case len(s) == 5:
		dg = [4]byte{s[1], s[2], s[3], s[4]}
	case len(s) == 3:
		dg = [4]byte{s[1], s[2], '0', '0'}
	default:
		return 0, false
	}
	for _, c := range dg {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	secs := int64(dg[0]-'0')*36000 + int64(dg[1]-'0')*3600 + int64(dg[2]-'0')*600 + int64(dg[3]-'0')*60
	if secs >= secsPerDay {
		return 0, false
	}
	switch s[0] {
	case '+':
		return secs, true
	case '-':
		return -secs, true
	}
	return 0, false
}

// offsetAt returns the zone's offset (seconds east) at UTC second secs.
func (z *zone) offsetAt(secs int64) int64 {
	if z == nil {
		return 0
	}
	if z.loc == nil {
		return z.off
	}
	// chrono-tz (DataFusion's zone database) stops at the end of 2099:
	// later instants keep the offset then in force.
	if secs > chronoTzEnd {
		secs = chronoTzEnd
	}
	_, off := time.Unix(secs, 0).In(z.loc).Zone()
	return int64(off)
}

// chronoTzEnd is the last second of 2099 (UTC).
const chronoTzEnd = 4102444799

// timestampZone returns the zone of a timestamp type (nil when none).
func timestampZone(t arrow.DataType) (*zone, error) {
	ts, ok := t.(*arrow.TimestampType)
	if !ok || ts.TimeZone == "" {
		return nil, nil
	}
	return parseZone(ts.TimeZone)
}

// fmtOffset renders an offset as chrono's FixedOffset does: +HH:MM, with
// :SS when the seconds are not zero.
func fmtOffset(off int64) string {
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	b := []byte{sign, byte('0' + off/36000), byte('0' + off/3600%10), ':', byte('0' + off/600%6), byte('0' + off/60%10)}
	if s := off % 60; s != 0 {
		b = append(b, ':', byte('0'+s/10), byte('0'+s%10))
	}
	return string(b)
}

// fixedOut builds a fixed-width result of n rows: values written in
// place, validity as words (nil while every row is valid).
type fixedOut[T int32 | int64 | float64] struct {
	mem   memory.Allocator
	buf   *memory.Buffer
	vals  []T
	valid []uint64
	n     int
}

// newFixedOut allocates a result of n rows, valid where every array of
// ins is valid.
func newFixedOut[T int32 | int64 | float64](mem memory.Allocator, n int, ins ...arrow.Array) *fixedOut[T] {
	var zero T
	o := &fixedOut[T]{mem: mem, buf: memory.NewResizableBuffer(mem), n: n}
	o.buf.Resize(n * int(unsafe.Sizeof(zero)))
	if n > 0 {
		o.vals = unsafe.Slice((*T)(unsafe.Pointer(&o.buf.Bytes()[0])), n)
	}
	for _, a := range ins {
		w := nullWords(a)
		if w == nil {
			continue
		}
		if o.valid == nil {
			o.valid = w
			continue
		}
		for i := range o.valid {
			o.valid[i] &= w[i]
		}
	}
	return o
}

// isValid reports whether row i is valid.
func (o *fixedOut[T]) isValid(i int) bool {
	return o.valid == nil || o.valid[i>>6]&(1<<(i&63)) != 0
}

// setNull makes row i NULL.
func (o *fixedOut[T]) setNull(i int) {
	if o.valid == nil {
		o.valid = make([]uint64, (o.n+63)/64)
		for k := range o.valid {
			o.valid[k] = ^uint64(0)
		}
		maskTail(o.valid, o.n)
	}
	o.valid[i>>6] &^= 1 << (i & 63)
	o.vals[i] = 0
}

// finish returns the result as an array of type t.
func (o *fixedOut[T]) finish(t arrow.DataType) arrow.Array {
	var vb *memory.Buffer
	nulls := 0
	if o.valid != nil {
		for _, w := range o.valid {
			nulls += bits.OnesCount64(w)
		}
		nulls = o.n - nulls
	}
	if nulls > 0 {
		vb = memory.NewResizableBuffer(o.mem)
		vb.Resize((o.n + 7) / 8)
		putWords(vb.Bytes(), o.valid)
		for i := 0; i < o.n; i++ {
			if !o.isValid(i) {
				o.vals[i] = 0
			}
		}
	}
	d := array.NewData(t, o.n, []*memory.Buffer{vb, o.buf}, nil, nulls, 0)
	defer d.Release()
	o.buf.Release()
	if vb != nil {
		vb.Release()
	}
	return array.MakeFromData(d)
}

// release frees the result when the kernel fails.
func (o *fixedOut[T]) release() { o.buf.Release() }

// checkedMul returns a*b, false on overflow.
func checkedMul(a, b int64) (int64, bool) {
	c := a * b
	if a != 0 && (c/a != b || (a == -1 && b == math.MinInt64)) {
		return 0, false
	}
	return c, true
}

// checkedAdd returns a+b, false on overflow.
func checkedAdd(a, b int64) (int64, bool) {
	s := a + b
	if (a > 0 && b > 0 && s < 0) || (a < 0 && b < 0 && s >= 0) {
		return 0, false
	}
	return s, true
}
