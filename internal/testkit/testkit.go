// Package testkit holds the test helpers shared by the tests of several
// packages (the root facade, internal/fileread, internal/dataset): where
// the repository and pylance are, the corpus's expected values, random
// Arrow batches, and checks against real Lance. It depends on no lancego
// reader or writer package, so the in-package tests of those can use it.
// Only tests import it.
package testkit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/lancego/lancego/internal/valuejson"
)

// findRoot returns the nearest folder at or above the working directory
// holding go.mod: the repository root.
func findRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("testkit: no go.mod above the working directory")
		}
		dir = up
	}
}

// repoPath joins elem under the repository root (findRoot).
func repoPath(tb testing.TB, elem ...string) string {
	root, err := findRoot()
	if err != nil {
		tb.Fatal(err)
	}
	return filepath.Join(append([]string{root}, elem...)...)
}

// LancePython returns the venv python with pylance ($LANCE_PY, else the
// repository's .ci/venv), or "" when absent.
func LancePython() string {
	if p := os.Getenv("LANCE_PY"); p != "" {
		return p
	}
	root, err := findRoot()
	if err != nil {
		return ""
	}
	p := filepath.Join(root, ".ci", "venv", "bin", "python")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return ""
}

type expectedFile struct {
	NumRows int             `json:"num_rows"`
	Columns json.RawMessage `json:"columns"`
}

// LoadExpected reads a corpus .expected.json: its row count and columns.
func LoadExpected(t testing.TB, path string) (int, any) {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var e expectedFile
	if err := json.Unmarshal(raw, &e); err != nil {
		t.Fatal(err)
	}
	cols, err := valuejson.Decode(bytes.NewReader(e.Columns))
	if err != nil {
		t.Fatal(err)
	}
	return e.NumRows, cols
}

// RecordsJSON returns the row count and columns of recs in the corpus
// JSON form, to compare with LoadExpected's.
func RecordsJSON(t testing.TB, schema *arrow.Schema, recs []arrow.RecordBatch) (any, any) {
	var buf bytes.Buffer
	if err := valuejson.WriteRecords(&buf, schema, recs); err != nil {
		t.Fatal(err)
	}
	doc, err := valuejson.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	m := doc.(map[string]any)
	return m["num_rows"], m["columns"]
}

// ExpectedJSON writes the corpus-style expected.json of recs (with the
// schema) to a temporary file and returns its path, for VerifyWithLance.
func ExpectedJSON(t testing.TB, schema *arrow.Schema, recs []arrow.RecordBatch) string {
	var buf bytes.Buffer
	if err := valuejson.WriteRecords(&buf, schema, recs); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var sch bytes.Buffer
	if err := valuejson.Encode(&sch, valuejson.SchemaJSON(schema)); err != nil {
		t.Fatal(err)
	}
	body := strings.TrimSpace(buf.String())
	out := "{\"schema\":" + strings.TrimSpace(sch.String()) + "," + body[1:]
	path := filepath.Join(t.TempDir(), "expected.json")
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// VerifyWithLance runs testdata/pylance/verify.py with python py: real
// Lance must read file with the values of expected.
func VerifyWithLance(t testing.TB, py, file, expected string) {
	out, err := exec.Command(py, repoPath(t, "testdata", "pylance", "verify.py"), file, expected, "--quiet").CombinedOutput()
	if err != nil {
		t.Fatalf("real Lance: %v\n%s", err, TrimOut(out))
	}
}

// TrimOut keeps the last 3,000 bytes of a command's output.
func TrimOut(b []byte) string {
	s := string(b)
	if len(s) > 3000 {
		s = s[len(s)-3000:]
	}
	return fmt.Sprint(s)
}

// WriteIPC writes recs to an Arrow IPC file.
func WriteIPC(t testing.TB, path string, schema *arrow.Schema, recs []arrow.RecordBatch) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := ipc.NewFileWriter(f, ipc.WithSchema(schema))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
