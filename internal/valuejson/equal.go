package valuejson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strconv"
)

// maxShown limits how much of a differing value EqualJSON prints.
const maxShown = 120

// Decode reads one JSON value from r with numbers kept as json.Number, the
// form EqualJSON compares best.
func Decode(r io.Reader) (any, error) {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("valuejson: decode: %w", err)
	}
	return v, nil
}

// EqualJSON reports whether want and got are the same JSON value. Both may
// be trees from this package, from Decode / json.Unmarshal (numbers as
// json.Number or float64) or any value encoding/json can marshal; both are
// re-encoded and decoded before comparing. Object member order is ignored,
// array order is not; numbers are equal when numerically equal ("1" equals
// "1.0"). When they differ, the string names the first difference found,
// for example `columns.ls[17][2].y: want "abc" got null`; members are
// visited in sorted key order.
func EqualJSON(want, got any) (bool, string) {
	w, err := canonical(want)
	if err != nil {
		return false, "want: " + err.Error()
	}
	g, err := canonical(got)
	if err != nil {
		return false, "got: " + err.Error()
	}
	if msg := diff("", w, g); msg != "" {
		return false, msg
	}
	return true, ""
}

// canonical re-encodes v and decodes it into the generic form.
func canonical(v any) (any, error) {
	buf, err := appendJSON(nil, v)
	if err != nil {
		return nil, err
	}
	return Decode(bytes.NewReader(buf))
}

// diff returns a description of the first difference, or "".
func diff(path string, want, got any) string {
	switch w := want.(type) {
	case map[string]any:
		if g, ok := got.(map[string]any); ok {
			return diffObject(path, w, g)
		}
	case []any:
		if g, ok := got.([]any); ok {
			return diffArray(path, w, g)
		}
	case json.Number:
		if g, ok := got.(json.Number); ok && numbersEqual(w, g) {
			return ""
		}
	default:
		if want == got {
			return ""
		}
	}
	return fmt.Sprintf("%s: want %s got %s", showPath(path), show(want), show(got))
}

func diffArray(path string, want, got []any) string {
	if len(want) != len(got) {
		return fmt.Sprintf("%s: want %d elements got %d", showPath(path), len(want), len(got))
	}
	for i := range want {
		if msg := diff(path+"["+strconv.Itoa(i)+"]", want[i], got[i]); msg != "" {
			return msg
		}
	}
	return ""
}

func diffObject(path string, want, got map[string]any) string {
	for _, k := range sortedKeys(want) {
		g, ok := got[k]
		if !ok {
			return fmt.Sprintf("%s: missing, want %s", showPath(member(path, k)), show(want[k]))
		}
		if msg := diff(member(path, k), want[k], g); msg != "" {
			return msg
		}
	}
	for _, k := range sortedKeys(got) {
		if _, ok := want[k]; !ok {
			return fmt.Sprintf("%s: unexpected, got %s", showPath(member(path, k)), show(got[k]))
		}
	}
	return ""
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// numbersEqual compares two JSON number literals numerically.
func numbersEqual(a, b json.Number) bool {
	if a == b {
		return true
	}
	x, ok1 := new(big.Float).SetPrec(1024).SetString(string(a))
	y, ok2 := new(big.Float).SetPrec(1024).SetString(string(b))
	return ok1 && ok2 && x.Cmp(y) == 0
}

// member appends an object key to a path, quoting keys that would be
// ambiguous in dotted form.
func member(path, key string) string {
	if !plainKey(key) {
		return path + "[" + strconv.Quote(key) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

func plainKey(key string) bool {
	if key == "" {
		return false
	}
	for _, c := range key {
		if c == '.' || c == '[' || c == ']' || c == '"' || c < 0x20 {
			return false
		}
	}
	return true
}

func showPath(path string) string {
	if path == "" {
		return "(root)"
	}
	return path
}

// show is the compact JSON of v, shortened to maxShown bytes.
func show(v any) string {
	buf, err := appendJSON(nil, v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	if len(buf) > maxShown {
		return string(buf[:maxShown]) + "..."
	}
	return string(buf)
}
