package valuejson

import (
	"encoding/json"
	"strings"
	"testing"
)

func decodeString(t *testing.T, s string) any {
	t.Helper()
	v, err := Decode(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestEqualJSON(t *testing.T) {
	want := decodeString(t, `{"num_rows":2,"columns":{"ls":[[{"x":1,"y":"abc"}],[]],"a.b":[1.0]}}`)
	same := OrderedObject{
		{"columns", OrderedObject{{"a.b", []any{int64(1)}}, {"ls", []any{
			[]any{OrderedObject{{"y", "abc"}, {"x", int64(1)}}}, []any{}}}}},
		{"num_rows", int64(2)},
	}
	if ok, msg := EqualJSON(want, same); !ok {
		t.Errorf("EqualJSON(equal) = false: %s", msg)
	}
	var unmarshaled any
	if err := json.Unmarshal([]byte(`{"num_rows":2,"columns":{"ls":[[{"x":1,"y":"abc"}],[]],"a.b":[1]}}`), &unmarshaled); err != nil {
		t.Fatal(err)
	}
	if ok, msg := EqualJSON(want, unmarshaled); !ok {
		t.Errorf("EqualJSON(float64 numbers) = false: %s", msg)
	}
	cases := []struct{ got, msg string }{
		{`{"num_rows":2,"columns":{"ls":[[{"x":1,"y":null}],[]],"a.b":[1]}}`, `columns.ls[0][0].y: want "abc" got null`},
		{`{"num_rows":2,"columns":{"ls":[[{"x":1,"y":"abc"}]],"a.b":[1]}}`, `columns.ls: want 2 elements got 1`},
		{`{"num_rows":2,"columns":{"ls":[[{"x":1,"y":"abc"}],[]],"a.b":["1"]}}`, `columns["a.b"][0]: want 1.0 got "1"`},
		{`{"num_rows":2,"columns":{"ls":[[{"x":1}],[]],"a.b":[1]}}`, `columns.ls[0][0].y: missing, want "abc"`},
		{`{"num_rows":2,"columns":{"ls":[[{"x":1,"y":"abc"}],[]],"a.b":[1]},"extra":0}`, `extra: unexpected, got 0`},
		{`[]`, `(root): want {"columns":`},
	}
	for _, c := range cases {
		ok, msg := EqualJSON(want, decodeString(t, c.got))
		if ok || !strings.HasPrefix(msg, c.msg) {
			t.Errorf("EqualJSON(%s) = %v %q, want prefix %q", c.got, ok, msg, c.msg)
		}
	}
}
