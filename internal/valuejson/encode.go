package valuejson

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// number is a preformatted JSON number literal, used by the human style
// (Text) for numbers that must not be re-formatted.
type number string

// Encode writes v as compact JSON followed by a newline to w. HTML
// characters are not escaped. v is usually a tree built by this package
// (nil, bool, int64, string, []any, OrderedObject); other values (maps,
// json.Number, float64, ...) are accepted as well, and unknown types fall
// back to encoding/json with HTML escaping disabled.
func Encode(w io.Writer, v any) error {
	buf, err := appendJSON(nil, v)
	if err != nil {
		return err
	}
	buf = append(buf, '\n')
	_, err = w.Write(buf)
	return err
}

// appendJSON appends the compact JSON encoding of v to dst.
func appendJSON(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case bool:
		return strconv.AppendBool(dst, x), nil
	case int64:
		return strconv.AppendInt(dst, x, 10), nil
	case int:
		return strconv.AppendInt(dst, int64(x), 10), nil
	case uint64:
		return strconv.AppendUint(dst, x, 10), nil
	case string:
		return appendString(dst, x), nil
	case number:
		return append(dst, x...), nil
	case json.Number:
		return appendNumber(dst, x)
	case float64:
		return appendFloat(dst, x)
	case []any:
		return appendArray(dst, x)
	case OrderedObject:
		return appendObject(dst, x)
	case map[string]any:
		return appendMap(dst, x)
	case []byte:
		return appendString(dst, base64.StdEncoding.EncodeToString(x)), nil
	default:
		return appendFallback(dst, v)
	}
}

func appendNumber(dst []byte, n json.Number) ([]byte, error) {
	if n == "" {
		return append(dst, '0'), nil
	}
	if !json.Valid([]byte(n)) {
		return nil, fmt.Errorf("valuejson: invalid number literal %q", string(n))
	}
	return append(dst, n...), nil
}

func appendFloat(dst []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("valuejson: unsupported float value %v", f)
	}
	return strconv.AppendFloat(dst, f, 'g', -1, 64), nil
}

func appendArray(dst []byte, a []any) ([]byte, error) {
	dst = append(dst, '[')
	var err error
	for i, e := range a {
		if i > 0 {
			dst = append(dst, ',')
		}
		if dst, err = appendJSON(dst, e); err != nil {
			return nil, err
		}
	}
	return append(dst, ']'), nil
}

func appendObject(dst []byte, o OrderedObject) ([]byte, error) {
	dst = append(dst, '{')
	var err error
	for i, m := range o {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, m.Key)
		dst = append(dst, ':')
		if dst, err = appendJSON(dst, m.Value); err != nil {
			return nil, err
		}
	}
	return append(dst, '}'), nil
}

func appendMap(dst []byte, m map[string]any) ([]byte, error) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	o := make(OrderedObject, len(keys))
	for i, k := range keys {
		o[i] = Member{k, m[k]}
	}
	return appendObject(dst, o)
}

func appendFallback(dst []byte, v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("valuejson: %w", err)
	}
	return append(dst, bytes.TrimSuffix(b.Bytes(), []byte{'\n'})...), nil
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string, escaping like encoding/json with
// HTML escaping disabled: quotes, backslashes, control characters, U+2028,
// U+2029; invalid UTF-8 bytes become \ufffd.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = appendASCIIEscape(dst, b)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

func appendASCIIEscape(dst []byte, b byte) []byte {
	switch b {
	case '"', '\\':
		return append(dst, '\\', b)
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	default:
		return append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
	}
}
