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
)

// indexPyCLI runs internal/dataset/testdata/write_indices.py (pylance).
func indexPyCLI(t *testing.T, args ...string) []byte {
	t.Helper()
	py := os.Getenv("LANCE_PY")
	if py == "" {
		t.Skip("no LANCE_PY: pylance checks skipped")
	}
	script := filepath.Join("..", "..", "internal", "dataset", "testdata", "write_indices.py")
	out, err := exec.Command(py, append([]string{script}, args...)...).Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("write_indices.py %v: %v\n%s", args, err, stderr)
	}
	return out
}

// TestConvertAppendKeepsIndices: `lance convert new.arrow DS --dataset
// --mode append` and `lance delete` on a dataset pylance indexed (BTREE,
// BITMAP, INVERTED, IVF_PQ) leave pylance the same indices, plans and
// answers as its own append and delete on a copy; `--mode overwrite`
// drops the indices as pylance's overwrite does.
func TestConvertAppendKeepsIndices(t *testing.T) {
	ctx := context.Background()
	tmp := t.TempDir()
	ours, twin, newRows := filepath.Join(tmp, "a.lance"), filepath.Join(tmp, "b.lance"), filepath.Join(tmp, "new.arrow")
	indexPyCLI(t, "build", ours, newRows)
	if out, err := exec.Command("cp", "-r", ours, twin).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	state := func(dir string) (string, map[string]any) {
		s := strings.ReplaceAll(string(indexPyCLI(t, "state", dir)), strings.TrimPrefix(dir, "/"), "DS")
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatal(err)
		}
		return s, m
	}
	const del = "id < 5 OR id = 650"
	for _, step := range []struct {
		args []string
		twin [][2]string
		want int // indices pylance lists after the step
	}{
		{[]string{"convert", newRows, ours, "--dataset", "--mode", "append"}, [][2]string{{"append", newRows}}, 4},
		{[]string{"delete", ours, "--filter", del}, [][2]string{{"delete", del}}, 4},
		{[]string{"convert", newRows, ours, "--dataset", "--mode", "overwrite"}, [][2]string{{"overwrite", newRows}}, 0},
	} {
		var out, errb bytes.Buffer
		if err := run(ctx, step.args, &out, &errb); err != nil {
			t.Fatalf("%v: %v\n%s", step.args, err, errb.String())
		}
		ops, _ := json.Marshal(step.twin)
		opsPath := filepath.Join(tmp, "ops.json")
		if err := os.WriteFile(opsPath, ops, 0o644); err != nil {
			t.Fatal(err)
		}
		indexPyCLI(t, "twin", twin, opsPath)
		a, am := state(ours)
		b, _ := state(twin)
		if a != b {
			t.Fatalf("%v: pylance's view differs from its own write's:\nours    %s\npylance %s", step.args, a, b)
		}
		if idx, _ := am["indices"].([]any); len(idx) != step.want {
			t.Fatalf("%v: pylance lists %d indices, want %d", step.args, len(idx), step.want)
		}
		if step.want > 0 && !strings.Contains(a, "@id_idx(BTree)") {
			t.Fatalf("%v: pylance's filter plans do not use id_idx", step.args)
		}
	}
}
