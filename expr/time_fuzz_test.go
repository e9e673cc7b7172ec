package expr

import (
	"math"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

// The date and time code must never panic: random format strings,
// strings to parse, interval texts, units and extreme timestamps only
// give values or errors.

// timeFuzzAlphabet builds random formats and strings near the valid ones.
const timeFuzzAlphabet = "%%%%YmdHMSfjzZ:+-.#_0369aAbBcCdDeFgGhIklnpPqrRsStTuUvVwWxXy 0123456789TtZz/é\t"

func randTimeText(r *rand.Rand) string {
	var b strings.Builder
	for n := r.Intn(14); n > 0; n-- {
		if r.Intn(4) == 0 {
			b.WriteString([]string{"2021-01-01", "T10:11:12", ".123456789", "+05:30", " UTC", " Europe/Berlin", "1 day", "-1.5 months"}[r.Intn(8)])
			continue
		}
		k := r.Intn(len(timeFuzzAlphabet))
		b.WriteByte(timeFuzzAlphabet[k])
	}
	return b.String()
}

var timeFuzzValues = []int64{0, -1, 1, math.MaxInt64, math.MinInt64, math.MinInt64 + 1, 86399, -86400,
	8210266876799, -8334601228800, 8210266876800, -8334601228801, 1 << 62, -(1 << 62), 4102444800, 1615705200}

// checkTimeText runs every parser and formatter on one format/text.
func checkTimeText(s string, v int64) {
	items := parseFormat(s)
	var tv tfValue
	for _, per := range []int64{1, 1_000, 1_000_000, nanosPerSec} {
		for _, z := range []*zone{nil, {off: 19800, name: "+05:30"}, mustZone("Europe/Berlin")} {
			if instantValue(&tv, v, per, z) {
				out, ok := appendFormat(nil, items, &tv)
				if ok {
					_, _ = parseFormatted(string(out), compileTimeFormat(s))
				}
			}
		}
	}
	if dateValue(&tv, v%(1<<31)) {
		appendFormat(nil, items, &tv)
	}
	if timeValue(&tv, v, nanosPerSec) {
		appendFormat(nil, items, &tv)
	}
	_, _ = parseFormatted(s, compileTimeFormat(s))
	_, _ = parseFormatted(s, compileTimeFormat("%Y-%m-%d %H:%M:%S%.f %z"))
	_, _ = parseTimestampString(s)
	_, _ = parseDateString(s)
	_, _ = parseInterval(s)
	_, _ = parseZone(s)
}

func mustZone(name string) *zone {
	z, err := parseZone(name)
	if err != nil {
		return nil
	}
	return z
}

func FuzzTimeText(f *testing.F) {
	for _, s := range []string{"%Y-%m-%d", "%+", "%:::z", "%.9f", "%-", "%#z", "2021-01-01T00:00:00.1234567891Z", "+10000-01-01", "1.5 days", "%s %Y"} {
		f.Add(s, int64(0))
	}
	f.Fuzz(func(t *testing.T, s string, v int64) { checkTimeText(s, v) })
}

func TestTimeRandomNoPanic(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 3000; i++ {
		checkTimeText(randTimeText(r), timeFuzzValues[r.Intn(len(timeFuzzValues))]+int64(r.Intn(3)-1))
	}
	rec := timeBatch2(t)
	defer rec.Release()
	cols := []string{"tss", "tsms", "tsns", "tsny", "tsutc", "tsoff", "d64", "t32s", "t32ms", "t64us", "t64ns", "str", "k", "NULL"}
	units := []string{"year", "quarter", "month", "week", "day", "hour", "minute", "second", "millisecond", "microsecond", "epoch", "dow", "doy", "isoyear", "nanosecond", "nope", ""}
	q := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	for i := 0; i < 3000; i++ {
		c := cols[r.Intn(len(cols))]
		u := q(units[r.Intn(len(units))])
		txt := q(randTimeText(r))
		num := strconv.FormatInt(timeFuzzValues[r.Intn(len(timeFuzzValues))]/int64(1+r.Intn(1000000000)), 10)
		var sql string
		switch r.Intn(12) {
		case 0:
			sql = "date_trunc(" + u + ", " + c + ")"
		case 1:
			sql = "date_part(" + u + ", " + c + ")"
		case 2:
			sql = "date_bin(interval " + txt + ", " + c + ")"
		case 3:
			sql = "date_bin(interval '" + strconv.Itoa(r.Intn(100)-20) + " " + []string{"day", "hour", "month", "nanoseconds", "minutes"}[r.Intn(5)] + "', " + c + ", to_timestamp_nanos(" + num + "))"
		case 4:
			sql = "to_char(" + c + ", " + txt + ")"
		case 5:
			sql = "to_timestamp(" + txt + ", " + txt + ")"
		case 6:
			sql = []string{"to_timestamp", "to_timestamp_seconds", "to_timestamp_millis", "to_date", "to_unixtime", "from_unixtime", "to_time", "to_local_time"}[r.Intn(8)] + "(" + []string{c, num, txt, num + ".5"}[r.Intn(4)] + ")"
		case 7:
			sql = "make_date(" + num + ", " + strconv.Itoa(r.Intn(15)-1) + ", " + strconv.Itoa(r.Intn(33)-1) + ")"
		case 8:
			sql = "date_part(" + u + ", to_timestamp_seconds(" + num + "))"
		case 9:
			sql = "date_trunc(" + u + ", to_timestamp_micros(" + num + "))"
		case 10:
			sql = "to_char(from_unixtime(" + num + ", " + q([]string{"UTC", "+05:30", "America/New_York", "Foo/Bar", "-14:00"}[r.Intn(5)]) + "), " + txt + ")"
		default:
			sql = "to_date(" + txt + ", " + txt + ", " + c + ")"
		}
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("%s: panic %v", sql, p)
				}
			}()
			if a, err := evalTimeExpr(rec, sql); err == nil {
				a.Release()
			}
		}()
	}
}
