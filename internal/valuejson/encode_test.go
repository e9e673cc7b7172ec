package valuejson

import (
	"encoding/json"
	"testing"
)

func TestAppendString(t *testing.T) {
	cases := map[string]string{
		"":                   `""`,
		"a\x00b":             `"a\u0000b"`,
		"\x01\b\f\x1f\x7f":   `"\u0001\u0008\u000c\u001f` + "\x7f" + `"`,
		"\"\\\n\r\t":         `"\"\\\n\r\t"`,
		"<&>":                `"<&>"`,
		"\u2028\u2029":       `"\u2028\u2029"`,
		"bad\xffutf8\xc3":    `"bad\ufffdutf8\ufffd"`,
		"🚀 中文 é":             `"🚀 中文 é"`,
		"ok\xe2\x80\xa8tail": `"ok\u2028tail"`,
	}
	for in, want := range cases {
		got := string(appendString(nil, in))
		if got != want {
			t.Errorf("appendString(%q) = %s, want %s", in, got, want)
		}
		var back, std string
		if err := json.Unmarshal([]byte(got), &back); err != nil {
			t.Errorf("invalid JSON %s: %v", got, err)
		}
		stdJSON, _ := json.Marshal(in)
		if err := json.Unmarshal(stdJSON, &std); err != nil || back != std {
			t.Errorf("appendString(%q) decodes to %q, encoding/json gives %q", in, back, std)
		}
	}
}

func TestEncodeOther(t *testing.T) {
	v := map[string]any{"b": json.Number("1.5"), "a": []byte{0, 1}, "c": 2.5, "d": uint64(7), "e": struct{ X int }{3}}
	if got, want := encode(t, v), `{"a":"AAE=","b":1.5,"c":2.5,"d":7,"e":{"X":3}}`; got != want {
		t.Errorf("Encode = %s, want %s", got, want)
	}
	if _, err := appendJSON(nil, json.Number("1x")); err == nil {
		t.Error("invalid json.Number accepted")
	}
}
