package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lancego/lancego/internal/valuejson"
)

// corpusFiles lists real Lance files with expected values: the shared
// corpus when present, and the repository's golden set.
func corpusFiles(t *testing.T) []string {
	shared := os.Getenv("LANCE_CORPUS")
	if shared == "" {
		shared = filepath.Join("..", "..", "..", "shared", "corpus")
	}
	var files []string
	for _, pat := range []string{
		filepath.Join(shared, "2.[0123]", "*.lance"),
		filepath.Join("..", "..", "testdata", "corpus", "*", "*.lance"),
		filepath.Join("..", "..", "testdata", "pylance", "*", "*.lance"),
	} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no corpus files found")
	}
	return files
}

func TestCatJSONMatchesExpected(t *testing.T) {
	ctx := context.Background()
	for _, path := range corpusFiles(t) {
		t.Run(filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path), func(t *testing.T) {
			var out bytes.Buffer
			if err := run(ctx, []string{"cat", path, "--format", "exact-json"}, &out, &out); err != nil {
				t.Fatal(err)
			}
			got, err := valuejson.Decode(&out)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := os.ReadFile(strings.TrimSuffix(path, ".lance") + ".expected.json")
			if err != nil {
				t.Fatal(err)
			}
			var want map[string]json.RawMessage
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			wantCols, _ := valuejson.Decode(bytes.NewReader(want["columns"]))
			g := got.(map[string]any)
			if ok, diff := valuejson.EqualJSON(wantCols, g["columns"]); !ok {
				t.Fatalf("columns differ: %s", diff)
			}
			if ok, diff := valuejson.EqualJSON(json.RawMessage(want["num_rows"]), g["num_rows"]); !ok {
				t.Fatalf("num_rows: %s", diff)
			}
		})
	}
}

func TestCatTakeOrder(t *testing.T) {
	path := corpusFiles(t)[0]
	var out bytes.Buffer
	if err := run(context.Background(), []string{"cat", path, "--take", "3,1,3", "--format", "exact-json"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		NumRows int `json:"num_rows"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || doc.NumRows != 3 {
		t.Fatalf("take output %q (%v)", out.String(), err)
	}
}

func TestInspectJSON(t *testing.T) {
	for _, path := range corpusFiles(t)[:3] {
		var out bytes.Buffer
		if err := run(context.Background(), []string{"inspect", "--json", path}, &out, &out); err != nil {
			t.Fatal(err)
		}
		var rep inspectReport
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatal(err)
		}
		if rep.NumColumns == 0 || len(rep.Columns) != rep.NumColumns || rep.Columns[0].Pages[0].Layout == nil {
			t.Fatalf("inspect report incomplete: %+v", rep)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	var out bytes.Buffer
	for _, args := range [][]string{{"nope"}, {"cat"}, {"cat", "x.lance", "--format", "xml"}, {"inspect"}} {
		if err := run(context.Background(), args, &out, &out); err == nil {
			t.Errorf("%v: want error", args)
		}
	}
}

// TestInspectPlanar: a 2.3 file is marked unstable and its pages are named
// by their planes, sparse structures with their layers.
func TestInspectPlanar(t *testing.T) {
	path := "../../testdata/pylance/2.3/planar_sparse_nested.lance"
	var text, js bytes.Buffer
	if err := run(context.Background(), []string{"inspect", path}, &text, &text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"version 2.3 (unstable)", "planar sparse/chunked", "list(children=", "planar dense/chunked{inner=mini-block"} {
		if !strings.Contains(text.String(), want) {
			t.Fatalf("inspect output lacks %q:\n%s", want, text.String())
		}
	}
	if err := run(context.Background(), []string{"inspect", "--json", path}, &js, &js); err != nil {
		t.Fatal(err)
	}
	var rep inspectReport
	if err := json.Unmarshal(js.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if !rep.Unstable || rep.Columns[0].Pages[0].Layout == nil || rep.Columns[0].Pages[0].Error != "" {
		t.Fatalf("inspect --json of a 2.3 file: %+v", rep.Columns[0])
	}
}

// TestConvert23: convert --version 2.3 writes a 2.3 file of planar pages
// (dense and sparse) that inspect marks unstable and cat reads back as the
// source.
func TestConvert23(t *testing.T) {
	src := "../../testdata/pylance/2.3/planar_sparse_nested.lance"
	dst := filepath.Join(t.TempDir(), "out.lance")
	var out bytes.Buffer
	if err := run(context.Background(), []string{"convert", "--version", "2.3", src, dst}, &out, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	var text bytes.Buffer
	if err := run(context.Background(), []string{"inspect", dst}, &text, &text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"version 2.3 (unstable)", "planar sparse/chunked", "planar dense/chunked"} {
		if !strings.Contains(text.String(), want) {
			t.Fatalf("inspect output lacks %q:\n%s", want, text.String())
		}
	}
	var a, b bytes.Buffer
	if err := run(context.Background(), []string{"cat", src}, &a, &a); err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), []string{"cat", dst}, &b, &b); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Fatalf("cat differs after convert --version 2.3")
	}
}
