package valuejson

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
)

// Text returns a human-readable form of row i of arr for table and CSV
// output: "" for null, integers in decimal, floats in the shortest 'g' form
// ("NaN", "+Inf", "-Inf"), decimals scaled ("123.45"), strings raw, binary
// as standard base64, dates as 2006-01-02, times as 15:04:05.999999999,
// timestamps as 2006-01-02T15:04:05.999999999 (with the zone offset when the
// type has a timezone), durations as the raw count plus unit ("1500ms"), and
// nested values as compact JSON of these forms (floats and 64-bit integers
// as JSON numbers, NaN/Inf as strings). Callers that need a null marker
// other than "" should test arr.IsNull(i) first. For an unsupported type it
// returns "<unsupported TYPE>". Use TextFunc for many rows of one array.
func Text(arr arrow.Array, i int) string {
	f, err := TextFunc(arr)
	if err != nil {
		return "<unsupported " + arr.DataType().String() + ">"
	}
	return f(i)
}

// TextFunc inspects the type of arr once and returns a function giving the
// Text of a row. The error names an unsupported type.
func TextFunc(arr arrow.Array) (func(i int) string, error) {
	g, err := compile(arr, humanStyle)
	if err != nil {
		return nil, err
	}
	return func(i int) string { return textOf(g(i)) }, nil
}

// textOf renders a human-style value.
func textOf(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case number:
		return string(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case bool:
		return strconv.FormatBool(x)
	}
	buf, err := appendJSON(nil, v)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(buf)
}
