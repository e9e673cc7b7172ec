package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	lance "github.com/lancego/lancego"
)

// writePlain writes 1000 rows (x = row, y = x*0.5 with NaNs, s = name)
// without zone seeds.
func writePlain(t *testing.T) string {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "y", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i := 0; i < 1000; i++ {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		y := float64(i) / 2
		if i%97 == 0 {
			y = math.NaN()
		}
		b.Field(1).(*array.Float64Builder).Append(y)
		if i%10 == 3 {
			b.Field(2).AppendNull()
		} else {
			b.Field(2).(*array.StringBuilder).Append(string(rune('a' + i/100)))
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	path := filepath.Join(t.TempDir(), "plain.lance")
	writeBatch(t, path, rec)
	return path
}

// runOK runs the CLI and returns stdout.
func runOK(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if err := run(context.Background(), args, &out, &errb); err != nil {
		t.Fatalf("lance %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	return out.String()
}

func TestConvertZoneSeedsInspect(t *testing.T) {
	src := writePlain(t)
	dst := filepath.Join(t.TempDir(), "seeded.lance")
	runOK(t, "convert", src, dst, "--zone-seeds", "--rows-per-zone", "300")
	var doc map[string]map[string]struct {
		Version     int                          `json:"version"`
		RowsPerZone uint64                       `json:"rows_per_zone"`
		Zones       []map[string]json.RawMessage `json:"zones"`
	}
	if err := json.Unmarshal([]byte(runOK(t, "inspect", "--zones", "--json", dst)), &doc); err != nil {
		t.Fatal(err)
	}
	zones := doc["zones"]
	if len(zones) != 3 || zones["x"].Version != 1 || zones["x"].RowsPerZone != 300 || len(zones["x"].Zones) != 4 {
		t.Fatalf("zones report: %+v", zones)
	}
	z := zones["x"].Zones[3]
	// corpus conventions: 64-bit integers as decimal strings, floats as bits
	want := map[string]string{"min": `"900"`, "max": `"999"`, "null_count": "0", "nan_count": "0", "negative_nan_count": "0", "zone_length": "100"}
	for k, v := range want {
		if string(z[k]) != v {
			t.Errorf("x zone 3 %s = %s, want %s", k, z[k], v)
		}
	}
	if y := zones["y"].Zones[0]; string(y["nan_count"]) != "4" || string(y["max"]) != `"0x4062b00000000000"` {
		t.Errorf("y zone 0: %v", y)
	}
	if s := zones["s"].Zones[1]; string(s["null_count"]) != "30" || string(s["min"]) != `"d"` {
		t.Errorf("s zone 1: %s %s", s["null_count"], s["min"])
	}
	text := runOK(t, "inspect", dst, "--zones")
	if !strings.Contains(text, "column x: seed v1, 300 rows per zone, 4 zone(s)") {
		t.Errorf("text report:\n%s", text)
	}
	if out := runOK(t, "inspect", "--zones", "--json", src); strings.TrimSpace(out) != `{
  "zones": {}
}` {
		t.Errorf("plain file: %s", out)
	}
}

func TestCatFilter(t *testing.T) {
	src := writePlain(t)
	dst := filepath.Join(t.TempDir(), "seeded.lance")
	runOK(t, "convert", src, dst, "--zone-seeds", "--rows-per-zone", "100")
	var doc struct {
		NumRows int                        `json:"num_rows"`
		Columns map[string]json.RawMessage `json:"columns"`
	}
	out := runOK(t, "cat", dst, "--filter", "x >= 250 AND x < 255 OR x = 999", "--columns", "s", "--format", "exact-json")
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.NumRows != 6 || string(doc.Columns["s"]) != `["c","c","c",null,"c","j"]` || len(doc.Columns) != 1 {
		t.Fatalf("cat --filter: %s", out)
	}
	out = runOK(t, "cat", dst, "--filter", "isnan(y)", "--rows", "100:300", "--format", "csv")
	if out != "x,y,s\n194,NaN,b\n291,NaN,c\n" {
		t.Fatalf("csv: %q", out)
	}
	out = runOK(t, "cat", dst, "--filter", "x < 0", "--format", "exact-json")
	if !strings.Contains(out, `"num_rows": 0`) && !strings.Contains(out, `"num_rows":0`) {
		t.Fatalf("empty result: %s", out)
	}
	var errb bytes.Buffer
	if err := run(context.Background(), []string{"cat", dst, "--filter", "s = 'e'", "--format", "csv", "--stats"}, &bytes.Buffer{}, &errb); err != nil {
		t.Fatal(err)
	}
	var st lance.Stats
	if err := json.Unmarshal(errb.Bytes(), &st); err != nil || st.ZonesPruned != 9 || st.ZonesTotal != 10 {
		t.Fatalf("stats %+v (%v)", st, err)
	}
	for _, args := range [][]string{{"cat", dst, "--filter", "x >"}, {"cat", dst, "--filter", "nope = 1"}, {"cat", dst, "--filter", "x = 1", "--take", "1"}} {
		if err := run(context.Background(), args, &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
			t.Errorf("%v: want error", args)
		}
	}
}
