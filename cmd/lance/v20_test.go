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

// files20 lists the 2.0 files with expected values (shared and golden).
func files20(t *testing.T) []string {
	var out []string
	for _, p := range corpusFiles(t) {
		if filepath.Base(filepath.Dir(p)) == "2.0" {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		t.Skip("no 2.0 corpus files")
	}
	return out
}

// TestConvert20 rewrites every 2.0 corpus file as 2.1 and 2.2 and checks
// that `cat` of the result still gives the expected values.
func TestConvert20(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	for _, path := range files20(t) {
		raw, err := os.ReadFile(strings.TrimSuffix(path, ".lance") + ".expected.json")
		if err != nil {
			t.Fatal(err)
		}
		var want map[string]json.RawMessage
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		wantCols, _ := valuejson.Decode(bytes.NewReader(want["columns"]))
		for _, v := range []string{"2.1", "2.2"} {
			t.Run(v+"/"+filepath.Base(path), func(t *testing.T) {
				dst := filepath.Join(dir, v+"-"+filepath.Base(path))
				var out bytes.Buffer
				if err := run(ctx, []string{"convert", "--version", v, path, dst}, &out, &out); err != nil {
					t.Fatalf("convert: %v\n%s", err, out.String())
				}
				out.Reset()
				if err := run(ctx, []string{"cat", dst, "--format", "json"}, &out, &out); err != nil {
					t.Fatal(err)
				}
				got, err := valuejson.Decode(&out)
				if err != nil {
					t.Fatal(err)
				}
				if ok, diff := valuejson.EqualJSON(wantCols, got.(map[string]any)["columns"]); !ok {
					t.Fatalf("converted columns differ: %s", diff)
				}
			})
		}
	}
}

// TestInspect20 checks that inspect describes 2.0 page encodings.
func TestInspect20(t *testing.T) {
	for _, path := range files20(t) {
		var out bytes.Buffer
		if err := run(context.Background(), []string{"inspect", "--json", path}, &out, &out); err != nil {
			t.Fatal(err)
		}
		var rep inspectReport
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Version != "2.0" {
			t.Fatalf("%s: version %q", path, rep.Version)
		}
		for _, c := range rep.Columns {
			for i, p := range c.Pages {
				if p.Layout == nil || p.Layout.Layout != "v2.0" || p.Layout.Values == "" || p.Error != "" {
					t.Fatalf("%s column %d page %d: %+v", path, c.Column, i, p)
				}
			}
		}
	}
}

// TestConvertRefusesReadOnlyVersions: 2.0 and legacy files are read only.
func TestConvertRefusesReadOnlyVersions(t *testing.T) {
	src := files20(t)[0]
	for _, v := range []string{"2.0", "0.3", "0.1", "legacy"} {
		var out bytes.Buffer
		err := run(context.Background(), []string{"convert", "--version", v, src, filepath.Join(t.TempDir(), "x.lance")}, &out, &out)
		if err == nil || !strings.Contains(err.Error(), "read, not written") {
			t.Errorf("--version %s: err = %v", v, err)
		}
	}
}

// TestLegacyCatAndConvert: cat reads a legacy data file (with the schema
// its writer embedded) and convert rewrites it as 2.2 with the same values.
func TestLegacyCatAndConvert(t *testing.T) {
	data, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "legacy", "legacy_small", "data", "*.lance"))
	if len(data) != 1 {
		t.Fatalf("golden legacy file missing: %v", data)
	}
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "legacy", "legacy_small.expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]json.RawMessage
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	wantCols, _ := valuejson.Decode(bytes.NewReader(want["columns"]))
	ctx := context.Background()
	dst := filepath.Join(t.TempDir(), "out.lance")
	var out bytes.Buffer
	if err := run(ctx, []string{"convert", data[0], dst}, &out, &out); err != nil {
		t.Fatalf("convert: %v\n%s", err, out.String())
	}
	for _, path := range []string{data[0], dst} {
		out.Reset()
		if err := run(ctx, []string{"cat", path, "--format", "json"}, &out, &out); err != nil {
			t.Fatal(err)
		}
		got, err := valuejson.Decode(&out)
		if err != nil {
			t.Fatal(err)
		}
		if ok, diff := valuejson.EqualJSON(wantCols, got.(map[string]any)["columns"]); !ok {
			t.Fatalf("%s: columns differ: %s", path, diff)
		}
	}
}
