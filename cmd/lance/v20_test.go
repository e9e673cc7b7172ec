package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	lance "github.com/lancego/lancego"
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

// TestConvert20 rewrites every 2.0 corpus file as 2.1, 2.2 and 2.3 and
// checks that `cat` of the result still gives the expected values.
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
		for _, v := range []string{"2.1", "2.2", "2.3"} {
			t.Run(v+"/"+filepath.Base(path), func(t *testing.T) {
				dst := filepath.Join(dir, v+"-"+filepath.Base(path))
				var out bytes.Buffer
				err := run(ctx, []string{"convert", "--version", v, path, dst}, &out, &out)
				if v == "2.3" && errors.Is(err, lance.ErrUnsupportedType) && strings.Contains(err.Error(), "legacy blob") {
					return // legacy blob columns: 2.3 refuses them, as pylance 14.0.2 does
				}
				if err != nil {
					t.Fatalf("convert: %v\n%s", err, out.String())
				}
				checkCat(ctx, t, dst, wantCols)
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
// its writer embedded) and convert rewrites it as 2.1, 2.2 (the default)
// and 2.3 with the same values, which cat and inspect then read as such.
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
	checkCat(ctx, t, data[0], wantCols)
	for _, v := range []string{"", "2.1", "2.3"} {
		t.Run("version "+v, func(t *testing.T) {
			dst := filepath.Join(t.TempDir(), "out.lance")
			args := []string{"convert", data[0], dst}
			if v != "" {
				args = append(args, "--version", v)
			} else {
				v = "2.2" // the default
			}
			var out bytes.Buffer
			if err := run(ctx, args, &out, &out); err != nil {
				t.Fatalf("convert: %v\n%s", err, out.String())
			}
			checkCat(ctx, t, dst, wantCols)
			out.Reset()
			if err := run(ctx, []string{"inspect", "--json", dst}, &out, &out); err != nil {
				t.Fatal(err)
			}
			var rep inspectReport
			if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
				t.Fatal(err)
			}
			if rep.Version != v || rep.Legacy != nil || rep.NumRows != 10 {
				t.Fatalf("converted file: version %s, %d rows, legacy %+v", rep.Version, rep.NumRows, rep.Legacy)
			}
		})
	}
}

// checkCat checks that `cat --format json` of path gives wantCols.
func checkCat(ctx context.Context, t *testing.T, path string, wantCols any) {
	t.Helper()
	var out bytes.Buffer
	if err := run(ctx, []string{"cat", path, "--format", "exact-json"}, &out, &out); err != nil {
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

// legacyFiles lists every legacy (footer 0.1/0.2) data file in testdata.
func legacyFiles(t *testing.T) []string {
	var out []string
	err := filepath.WalkDir(filepath.Join("..", "..", "testdata"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".lance") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n := len(b)
		if n >= 16 && string(b[n-4:]) == "LANC" && binary.LittleEndian.Uint16(b[n-8:]) == 0 && binary.LittleEndian.Uint16(b[n-6:]) <= 2 {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 10 {
		t.Fatalf("only %d legacy files in testdata", len(out))
	}
	return out
}

// TestInspectLegacy runs inspect (text, --json, --stats, --zones) on every
// legacy data file in testdata: no panic or error, and the report's batches
// and page table agree with the file's rows and schema.
func TestInspectLegacy(t *testing.T) {
	ctx := context.Background()
	for _, path := range legacyFiles(t) {
		t.Run(strings.TrimPrefix(path, filepath.Join("..", "..", "testdata")), func(t *testing.T) {
			for _, args := range [][]string{{"inspect", path}, {"inspect", "--stats", path}, {"inspect", "--zones", path}} {
				var out bytes.Buffer
				if err := run(ctx, args, &out, &out); err != nil {
					t.Fatalf("%v: %v", args, err)
				}
				if args[1] == path && !strings.Contains(out.String(), "legacy{values=") {
					t.Fatalf("text report names no legacy encoding:\n%s", out.String())
				}
			}
			var out bytes.Buffer
			if err := run(ctx, []string{"inspect", "--json", path}, &out, &out); err != nil {
				t.Fatal(err)
			}
			var rep inspectReport
			if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
				t.Fatal(err)
			}
			checkLegacyReport(t, rep)
		})
	}
}

// checkLegacyReport checks one legacy file's inspect report.
func checkLegacyReport(t *testing.T, rep inspectReport) {
	t.Helper()
	if rep.Version != "0.1" && rep.Version != "0.2" {
		t.Fatalf("version %q", rep.Version)
	}
	l := rep.Legacy
	if l == nil || len(l.BatchStarts) < 2 || l.BatchStarts[len(l.BatchStarts)-1] != rep.NumRows {
		t.Fatalf("legacy section %+v for %d rows", l, rep.NumRows)
	}
	if rep.MetadataBytes == 0 || rep.MetadataBytes != rep.FileSize-l.PageTablePosition || l.MetadataPosition >= rep.FileSize {
		t.Fatalf("metadata %d bytes, page table at %d, metadata at %d, file %d", rep.MetadataBytes, l.PageTablePosition, l.MetadataPosition, rep.FileSize)
	}
	byName := map[string]columnReport{}
	for _, c := range rep.Columns {
		if len(c.Pages) != len(l.BatchStarts)-1 || c.FieldID == nil {
			t.Fatalf("column %d: %d pages for %d batches", c.Column, len(c.Pages), len(l.BatchStarts)-1)
		}
		for b, p := range c.Pages {
			if p.FirstRow != l.BatchStarts[b] || p.FirstRow+p.Rows != l.BatchStarts[b+1] || p.Layout == nil || p.Layout.Layout != "legacy" || p.Position == nil {
				t.Fatalf("column %d page %d: %+v", c.Column, b, p)
			}
		}
		byName[c.Field] = c
	}
	for _, f := range rep.Fields {
		c, ok := byName[fieldPath(rep.Fields, f)]
		if !ok || f.Column != c.Column || *c.FieldID != f.ID || c.Pages[0].Layout.Values == "unknown" {
			t.Fatalf("field %q (id %d, column %d): page table column %+v", f.Name, f.ID, f.Column, c)
		}
	}
}

// fieldPath returns the dotted path of f in a pre-order field report.
func fieldPath(fields []fieldReport, f fieldReport) string {
	for _, p := range fields {
		if p.ID == f.ParentID && f.ParentID >= 0 {
			return fieldPath(fields, p) + "." + f.Name
		}
	}
	return f.Name
}

// TestInspectLegacyPageBytes: the bytes inspect gives a legacy page are
// what its encoding stores for its length (the golden file's types).
func TestInspectLegacyPageBytes(t *testing.T) {
	data, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "legacy", "legacy_small", "data", "*.lance"))
	if len(data) != 1 {
		t.Fatalf("golden legacy file missing: %v", data)
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"inspect", "--json", data[0]}, &out, &out); err != nil {
		t.Fatal(err)
	}
	var rep inspectReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	perValue := map[string]func(n uint64) uint64{ // bytes of a page of length n
		"i":      func(n uint64) uint64 { return 4 * n },
		"b":      func(n uint64) uint64 { return (n + 7) / 8 },
		"s":      func(n uint64) uint64 { return 8 * (n + 1) },
		"l":      func(n uint64) uint64 { return 4 * n },
		"l.item": func(n uint64) uint64 { return 4 * n },
		"st":     func(uint64) uint64 { return 0 },
		"st.x":   func(n uint64) uint64 { return 8 * n },
		"st.y":   func(n uint64) uint64 { return 8 * (n + 1) },
		"v":      func(n uint64) uint64 { return 8 * n },
		"d":      func(n uint64) uint64 { return 4 * n }, // int32 indices
	}
	if len(rep.Columns) != len(perValue) {
		t.Fatalf("%d columns, want %d", len(rep.Columns), len(perValue))
	}
	for _, c := range rep.Columns {
		for b, p := range c.Pages {
			var n uint64
			for _, d := range p.Layout.Details {
				if v, ok := strings.CutPrefix(d, "length="); ok {
					_ = json.Unmarshal([]byte(v), &n)
				}
			}
			if want := perValue[c.Field](n); p.Bytes != want || (c.Field != "st" && n == 0) {
				t.Errorf("%s batch %d: %d bytes for length %d, want %d", c.Field, b, p.Bytes, n, want)
			}
		}
	}
}
