package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lancego/lancego/internal/valuejson"
)

var smallDataset = filepath.Join("..", "..", "testdata", "datasets", "small")

// TestInspectDatasetJSON: one object with version, num_rows (after
// deletions), fragments with data files and deletion counts, and versions.
func TestInspectDatasetJSON(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"inspect", smallDataset, "--json", "--versions"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Version   uint64 `json:"version"`
		NumRows   uint64 `json:"num_rows"`
		Fragments []struct {
			ID          uint64 `json:"id"`
			DeletedRows uint64 `json:"deleted_rows"`
			DataFiles   []struct {
				Version string `json:"version"`
			} `json:"data_files"`
		} `json:"fragments"`
		Versions []struct {
			Version uint64 `json:"version"`
		} `json:"versions"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v in %s", err, out.String())
	}
	if rep.Version != 4 || rep.NumRows != 12 || len(rep.Fragments) != 3 || rep.Fragments[0].DeletedRows != 1 ||
		rep.Fragments[0].DataFiles[0].Version != "2.1" || len(rep.Versions) != 4 {
		t.Fatalf("report %+v", rep)
	}
}

// TestCatDatasetMatchesPylance: `cat --format json` of every version,
// with _rowid and _rowaddr, prints pylance's values.
func TestCatDatasetMatchesPylance(t *testing.T) {
	raw, err := os.ReadFile(smallDataset + ".expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var exp struct {
		Versions []struct {
			Version uint64          `json:"version"`
			Columns json.RawMessage `json:"columns"`
		} `json:"versions"`
	}
	if err := json.Unmarshal(raw, &exp); err != nil {
		t.Fatal(err)
	}
	for _, v := range exp.Versions {
		var out bytes.Buffer
		args := []string{"cat", smallDataset, "--version", jsonNum(v.Version), "--with-row-id", "--with-row-address", "--format", "exact-json"}
		if err := run(context.Background(), args, &out, &out); err != nil {
			t.Fatal(err)
		}
		var got struct {
			Columns json.RawMessage `json:"columns"`
		}
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		g, _ := valuejson.Decode(bytes.NewReader(got.Columns))
		w, _ := valuejson.Decode(bytes.NewReader(v.Columns))
		if ok, diff := valuejson.EqualJSON(w, g); !ok {
			t.Fatalf("version %d: %s", v.Version, diff)
		}
	}
}

func jsonNum(v uint64) string { b, _ := json.Marshal(v); return string(b) }

// TestCatDatasetTakes: --take is dataset offsets, --row-ids row ids, and
// --rows and --filter compose; all in the order asked.
func TestCatDatasetTakes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--take", "7,0,7"}, `{"num_rows":3,"columns":{"id":["9","0","9"],"name":["jo","ann","jo"]}}`},
		{[]string{"--row-ids", "8589934595,2", "--with-row-address"}, `{"num_rows":2,"columns":{"id":["9","2"],"name":["jo",null],"_rowaddr":["8589934595","2"]}}`},
		{[]string{"--rows", "4:6", "--columns", "id"}, `{"num_rows":2,"columns":{"id":["5","6"]}}`},
		{[]string{"--filter", "id >= 8", "--columns", "id", "--with-row-id"}, `{"num_rows":4,"columns":{"id":["8","9","8","9"],"_rowid":["4294967298","4294967299","8589934594","8589934595"]}}`},
		{[]string{"--filter", "id > 100"}, `{"num_rows":0,"columns":{"id":[],"name":[]}}`},
		{[]string{"--take", "7,0,7", "--filter", "id > 5"}, `{"num_rows":2,"columns":{"id":["9","9"],"name":["jo","jo"]}}`},
	} {
		var out bytes.Buffer
		args := append([]string{"cat", smallDataset, "--format", "exact-json"}, tc.args...)
		if err := run(context.Background(), args, &out, &out); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if got := strings.TrimSpace(out.String()); got != tc.want {
			t.Errorf("%v:\n got %s\nwant %s", tc.args, got, tc.want)
		}
	}
}

// TestDatasetErrorText runs the binary: a plain directory says it is not a
// Lance dataset or file, and errors carry one "lance:" prefix.
func TestDatasetErrorText(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "lance")
	if b, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, b)
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"cat", dir}, "lance: " + dir + ": not a Lance dataset or file"},
		{[]string{"inspect", filepath.Join(dir, "missing.lance")}, "lance: open "},
		{[]string{"cat", smallDataset, "--version", "9"}, "lance: dataset " + smallDataset + " version 9: "},
	} {
		out, err := exec.Command(bin, tc.args...).CombinedOutput()
		if err == nil || !strings.HasPrefix(string(out), tc.want) || strings.Contains(string(out), "lance: lance:") {
			t.Errorf("%v: %v, output %q; want it to start with %q", tc.args, err, out, tc.want)
		}
	}
}
