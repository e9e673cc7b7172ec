package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseSetList(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
	}{
		{"x = x * 2, s = 'u'", "map[s:'u' x:x * 2]"},
		{"s = concat(s, ',', 'a=b')", "map[s:concat(s, ',', 'a=b')]"},
		{"`Odd Name` = 1", "map[Odd Name:1]"},
		{"b = (a >= 1)", "map[b:(a >= 1)]"},
	} {
		got, err := parseSetList(tc.in)
		if err != nil || fmt.Sprint(got) != tc.want {
			t.Errorf("parseSetList(%q) = %v, %v; want %s", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"x", "= 1", "x = ", "x >= 1", "x = 1, x = 2"} {
		if _, err := parseSetList(bad); err == nil {
			t.Errorf("parseSetList(%q) succeeded", bad)
		}
	}
}

// TestUpdateCommand updates through the CLI; pylance reads the result.
func TestUpdateCommand(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "in.csv")
	var b strings.Builder
	b.WriteString("id,name\n")
	for i := range 100 {
		fmt.Fprintf(&b, "%d,n%d\n", i, i)
	}
	if err := os.WriteFile(csvPath, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ds := filepath.Join(dir, "ds")
	for _, s := range []struct {
		args []string
		want string
	}{
		{[]string{"convert", csvPath, ds, "--dataset", "--max-rows-per-file", "40"}, "version 1: 100 rows"},
		{[]string{"update", ds, "--set", "id = id + 1000, name = upper(name)", "--where", "id % 10 = 0"}, "updated 10 rows: version 2"},
		{[]string{"update", ds, "--set", "name = 'x'", "--where", "id < 0"}, "no row matches; version 2 unchanged"},
		{[]string{"count", ds, "--filter", "id >= 1000 AND name LIKE 'N%'"}, "10\n"},
		{[]string{"count", ds}, "100\n"},
	} {
		var out, errb bytes.Buffer
		if err := run(ctx, s.args, &out, &errb); err != nil {
			t.Fatalf("%v: %v\n%s", s.args, err, errb.String())
		}
		if !strings.Contains(out.String(), s.want) {
			t.Fatalf("%v: %q, want %q", s.args, out.String(), s.want)
		}
	}
	var out bytes.Buffer
	if err := run(ctx, []string{"update", ds, "--set", "nope = 1"}, &out, &out); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("update of an unknown column: %v", err)
	}
	py := os.Getenv("LANCE_PY")
	if py == "" {
		t.Skip("no LANCE_PY")
	}
	script := `import sys, lance
ds = lance.dataset(sys.argv[1])
print(ds.version, ds.count_rows(), ds.count_rows("id >= 1000 AND name LIKE 'N%'"), sorted(ds.to_table(filter="id >= 1000").column("id").to_pylist())[:3])`
	got, err := exec.Command(py, "-c", script, ds).CombinedOutput()
	if err != nil {
		t.Fatalf("pylance: %v\n%s", err, got)
	}
	if want := "2 100 10 [1000, 1010, 1020]"; strings.TrimSpace(string(got)) != want {
		t.Fatalf("pylance reads %q, want %q", got, want)
	}
}

// TestMergeInsertCommand upserts a CSV into a dataset made from a CSV.
func TestMergeInsertCommand(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	write := func(name string, ids []int, prefix string) string {
		var b strings.Builder
		b.WriteString("id,name\n")
		for _, i := range ids {
			fmt.Fprintf(&b, "%d,%s%d\n", i, prefix, i)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	base := write("base.csv", []int{0, 1, 2, 3, 4, 5}, "n")
	upd := write("upd.csv", []int{4, 5, 6, 7}, "u")
	ds := filepath.Join(dir, "ds")
	for _, s := range []struct {
		args []string
		want string
	}{
		{[]string{"convert", base, ds, "--dataset"}, "version 1: 6 rows"},
		{[]string{"merge-insert", ds, upd, "--on", "id"}, "inserted 2, updated 2, deleted 0 rows: version 2"},
		{[]string{"count", ds, "--filter", "name LIKE 'u%'"}, "4\n"},
		{[]string{"merge-insert", ds, upd, "--on", "id", "--when-matched", "do-nothing", "--when-not-matched", "do-nothing"}, "nothing to merge; version 2 unchanged"},
		{[]string{"merge-insert", ds, upd, "--on", "id", "--when-matched", "do-nothing", "--when-not-matched-by-source", "delete"}, "inserted 0, updated 0, deleted 4 rows: version 3"},
		{[]string{"count", ds}, "4\n"},
	} {
		var out, errb bytes.Buffer
		if err := run(ctx, s.args, &out, &errb); err != nil {
			t.Fatalf("%v: %v\n%s", s.args, err, errb.String())
		}
		if !strings.Contains(out.String(), s.want) {
			t.Fatalf("%v: %q, want %q", s.args, out.String(), s.want)
		}
	}
	var out bytes.Buffer
	if err := run(ctx, []string{"merge-insert", ds, upd, "--on", "id", "--when-matched", "fail"}, &out, &out); err == nil {
		t.Fatal("--when-matched fail with matching rows succeeded")
	}
}

// TestCompactCommand compacts 12 single-fragment appends and a delete;
// pylance reads the result.
func TestCompactCommand(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	ds := filepath.Join(dir, "ds")
	for i := range 12 {
		var b strings.Builder
		b.WriteString("id,name\n")
		for j := range 10 {
			fmt.Fprintf(&b, "%d,n%d\n", i*10+j, j)
		}
		p := filepath.Join(dir, fmt.Sprintf("p%d.csv", i))
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		mode := "append"
		if i == 0 {
			mode = "create"
		}
		var out bytes.Buffer
		if err := run(ctx, []string{"convert", p, ds, "--dataset", "--mode", mode}, &out, &out); err != nil {
			t.Fatalf("%v: %s", err, out.String())
		}
	}
	for _, s := range []struct {
		args []string
		want string
	}{
		{[]string{"delete", ds, "--filter", "id % 3 = 0"}, "version 13"},
		{[]string{"compact", ds}, "compacted 12 fragments (24 files) into 1 (1 files): version 15 has 1 fragments"},
		{[]string{"compact", ds}, "nothing to compact; version 15 unchanged"},
		{[]string{"count", ds}, "80\n"},
	} {
		var out, errb bytes.Buffer
		if err := run(ctx, s.args, &out, &errb); err != nil {
			t.Fatalf("%v: %v\n%s", s.args, err, errb.String())
		}
		if !strings.Contains(out.String(), s.want) {
			t.Fatalf("%v: %q, want %q", s.args, out.String(), s.want)
		}
	}
	py := os.Getenv("LANCE_PY")
	if py == "" {
		t.Skip("no LANCE_PY")
	}
	got, err := exec.Command(py, "-c", `import sys, lance
ds = lance.dataset(sys.argv[1])
print(ds.version, len(ds.get_fragments()), ds.count_rows(), sum(ds.to_table().column("id").to_pylist()))`, ds).CombinedOutput()
	if err != nil {
		t.Fatalf("pylance: %v\n%s", err, got)
	}
	sum := 0
	for i := range 120 {
		if i%3 != 0 {
			sum += i
		}
	}
	if want := fmt.Sprintf("15 1 80 %d", sum); strings.TrimSpace(string(got)) != want {
		t.Fatalf("pylance reads %q, want %q", got, want)
	}
}
