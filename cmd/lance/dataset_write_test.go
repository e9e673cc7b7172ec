package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	lance "github.com/lancego/lancego"
)

// TestConvertDatasetAndDelete creates, appends to and deletes from a
// dataset through the CLI.
func TestConvertDatasetAndDelete(t *testing.T) {
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
	steps := []struct {
		args []string
		want string
	}{
		{[]string{"convert", csvPath, ds, "--dataset", "--max-rows-per-file", "40"}, "version 1: 100 rows in 3 fragments"},
		{[]string{"convert", csvPath, ds, "--dataset", "--mode", "append"}, "version 2: 200 rows in 4 fragments"},
		{[]string{"delete", ds, "--filter", "id < 10"}, "deleted 20 rows: version 3 has 180 rows"},
		{[]string{"delete", ds, "--filter", "id > 1000"}, "no row matches"},
		{[]string{"convert", csvPath, ds, "--dataset", "--mode", "overwrite"}, "version 4: 100 rows in 1 fragments"},
	}
	for _, s := range steps {
		var out, errb bytes.Buffer
		if err := run(ctx, s.args, &out, &errb); err != nil {
			t.Fatalf("%v: %v\n%s", s.args, err, errb.String())
		}
		if !strings.Contains(out.String(), s.want) {
			t.Fatalf("%v: %q, want %q", s.args, out.String(), s.want)
		}
	}
	var out bytes.Buffer
	if err := run(ctx, []string{"convert", csvPath, ds, "--dataset"}, &out, &out); err == nil {
		t.Fatal("create over an existing dataset succeeded")
	}
	d, err := lance.OpenDataset(ctx, ds, lance.WithVersion(3))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if n, _ := d.CountRows(ctx); n != 180 {
		t.Fatalf("version 3 has %d rows", n)
	}
}
