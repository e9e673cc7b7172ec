package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/lancego/lancego/internal/testkit"
)

// plainTargets are the corpus files and the sample datasets.
func plainTargets(t *testing.T) []string {
	return append(corpusFiles(t), "samples/dataset",
		filepath.Join("..", "..", "testdata", "datasets", "small"),
		filepath.Join("..", "..", "testdata", "datasets", "stable_small"))
}

type plainExpected struct {
	Path       string   `json:"path"`
	Unreadable string   `json:"unreadable"`
	Error      string   `json:"error"`
	Columns    []string `json:"columns"`
	NumRows    int      `json:"num_rows"`
	Rows       []any    `json:"rows"`
}

// pylanceRows runs plainExpectPy over paths, keyed by path.
func pylanceRows(t *testing.T, py string, paths []string) map[string]plainExpected {
	t.Helper()
	in, _ := json.Marshal(paths)
	cmd := exec.Command(py, "-c", plainExpectPy)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pylance: %v\n%s", err, stderr.String())
	}
	exp := map[string]plainExpected{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<30)
	for sc.Scan() {
		d := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		d.UseNumber()
		var e plainExpected
		if err := d.Decode(&e); err != nil {
			t.Fatal(err)
		}
		exp[e.Path] = e
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return exp
}

// decodeNumbers decodes JSON keeping numbers as json.Number text.
func decodeNumbers(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(v); err != nil {
		return err
	}
	if d.More() {
		return fmt.Errorf("data after the JSON value")
	}
	return nil
}

// TestCatPlainJSONMatchesPylance: for every corpus file and sample
// dataset, lance cat --format json is valid JSON whose rows equal what
// pyarrow's to_pylist gives reading the same file with pylance (numbers
// compared exactly as text, floats at their width); --format jsonl prints
// the same rows one per line; jq (when installed) reads both.
func TestCatPlainJSONMatchesPylance(t *testing.T) {
	py := testkit.LancePython()
	if py == "" {
		t.Skip("no pylance (set LANCE_PY)")
	}
	targets := plainTargets(t)
	exp := pylanceRows(t, py, targets)
	jq, _ := exec.LookPath("jq")
	compared := 0
	for _, path := range targets {
		t.Run(filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path), func(t *testing.T) {
			e, ok := exp[path]
			switch {
			case !ok:
				t.Fatal("pylance printed nothing for it")
			case e.Unreadable != "":
				t.Skipf("pylance cannot read it: %.200s", e.Unreadable)
			case e.Error != "":
				t.Fatalf("building the expected rows: %s", e.Error)
			}
			var out bytes.Buffer
			if err := run(context.Background(), []string{"cat", path, "--format", "json"}, &out, &out); err != nil {
				t.Fatal(err)
			}
			var got []any
			if err := decodeNumbers(out.Bytes(), &got); err != nil {
				t.Fatalf("not valid JSON: %v", err)
			}
			if len(got) != len(e.Rows) {
				t.Fatalf("%d rows, pylance %d", len(got), len(e.Rows))
			}
			for i := range got {
				if err := samePlain(got[i], e.Rows[i]); err != nil {
					t.Fatalf("row %d: %v\n got %.600s", i, err, plainText(got[i]))
				}
			}
			if err := firstKeys(out.Bytes(), e.Columns); err != nil {
				t.Error(err)
			}
			lines := checkJSONLines(t, path, got)
			if jq != "" {
				checkJQ(t, jq, out.Bytes(), lines, len(got))
			}
			compared++
		})
	}
	t.Logf("%d files and datasets compared with pylance", compared)
	if compared < len(targets)/2 {
		t.Errorf("only %d of %d compared", compared, len(targets))
	}
}

func plainText(v any) string { b, _ := json.Marshal(v); return string(b) }

// firstKeys checks the first row object's keys come in column order.
func firstKeys(out []byte, cols []string) error {
	d := json.NewDecoder(bytes.NewReader(out))
	if tok, err := d.Token(); err != nil || tok != json.Delim('[') {
		return fmt.Errorf("output does not start with [: %v", err)
	}
	if !d.More() {
		return nil
	}
	if _, err := d.Token(); err != nil { // {
		return err
	}
	var keys []string
	for d.More() {
		k, err := d.Token()
		if err != nil {
			return err
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := d.Decode(&skip); err != nil {
			return err
		}
	}
	if !reflect.DeepEqual(keys, cols) {
		return fmt.Errorf("keys %v, columns %v", keys, cols)
	}
	return nil
}

// checkJSONLines: --format jsonl (small batches) prints each row of the
// array on its own line, and nothing else.
func checkJSONLines(t *testing.T, path string, rows []any) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := run(context.Background(), []string{"cat", path, "--format", "jsonl", "--batch-size", "97"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	text := out.Bytes()
	lines := bytes.SplitAfter(text, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	if len(lines) != len(rows) {
		t.Fatalf("jsonl: %d lines for %d rows", len(lines), len(rows))
	}
	for i, l := range lines {
		var v any
		if err := decodeNumbers(l, &v); err != nil || !reflect.DeepEqual(v, rows[i]) {
			t.Fatalf("jsonl line %d (%v) differs from the array's row: %.300s", i, err, l)
		}
	}
	return text
}

// checkJQ: jq parses the array (length = rows) and the lines.
func checkJQ(t *testing.T, jq string, array, lines []byte, rows int) {
	t.Helper()
	for _, c := range []struct {
		args []string
		in   []byte
	}{{[]string{"length"}, array}, {[]string{"-s", "length"}, lines}} {
		cmd := exec.Command(jq, c.args...)
		cmd.Stdin = bytes.NewReader(c.in)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("jq %v: %v", c.args, err)
		}
		if strings.TrimSpace(string(out)) != strconv.Itoa(rows) {
			t.Fatalf("jq %v: %s, want %d", c.args, out, rows)
		}
	}
}

// samePlain compares one decoded value of ours with pylance's expected
// value: numbers as exact text, tagged floats at their width, the rest
// structurally.
func samePlain(got, want any) error {
	switch w := want.(type) {
	case nil:
		if got != nil {
			return fmt.Errorf("%v, want null", plainText(got))
		}
		return nil
	case map[string]any:
		if len(w) == 1 {
			for tag, s := range w {
				if bits, ok := floatTags[tag]; ok {
					return sameFloat(got, s.(string), bits)
				}
			}
		}
		g, ok := got.(map[string]any)
		if !ok || len(g) != len(w) {
			return fmt.Errorf("%.200s, want an object of %d keys", plainText(got), len(w))
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok {
				return fmt.Errorf("no key %q", k)
			}
			if err := samePlain(gv, wv); err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
		}
		return nil
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Errorf("%.200s, want an array of %d", plainText(got), len(w))
		}
		for i := range w {
			if err := samePlain(g[i], w[i]); err != nil {
				return fmt.Errorf("[%d]: %w", i, err)
			}
		}
		return nil
	}
	if got != want { // json.Number, string and bool compare as they are
		return fmt.Errorf("%#v, want %#v", got, want)
	}
	return nil
}

var floatTags = map[string]int{"$f16": 16, "$f32": 32, "$f64": 64}

// sameFloat: float64 and float32 read back to the bits pylance has;
// binary16 is the same decimal as numpy's shortest repr.
func sameFloat(got any, want string, bits int) error {
	if want == "NaN" || want == "Infinity" || want == "-Infinity" {
		if got != want {
			return fmt.Errorf("%#v, want %q", got, want)
		}
		return nil
	}
	n, ok := got.(json.Number)
	if !ok {
		return fmt.Errorf("%#v, want the number %s", got, want)
	}
	g := string(n)
	if bits == 16 {
		a, ok1 := new(big.Rat).SetString(g)
		b, ok2 := new(big.Rat).SetString(want)
		if !ok1 || !ok2 || a.Cmp(b) != 0 || strings.HasPrefix(g, "-") != strings.HasPrefix(want, "-") {
			return fmt.Errorf("float16 %s, numpy %s", g, want)
		}
		return nil
	}
	w, err := strconv.ParseFloat(want, 64)
	if err != nil {
		return err
	}
	v, err := strconv.ParseFloat(g, bits)
	if err != nil {
		return fmt.Errorf("%s: %w", g, err)
	}
	if bits == 32 {
		w = float64(float32(w))
	}
	if math.Float64bits(v) != math.Float64bits(w) {
		return fmt.Errorf("float%d %s, pylance %s", bits, g, want)
	}
	return nil
}
