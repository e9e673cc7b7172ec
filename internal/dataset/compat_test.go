package dataset

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompatDatasets reads every version of the datasets old Lance
// releases wrote (testdata/compat, from lancedb/lance's test_data: see its
// README for each one's quirk) and compares all rows with _rowid and
// _rowaddr, takes by offset and by row id with what pylance 14.0.2 reads,
// as testdata/pylance/gen_compat.py recorded it.
func TestCompatDatasets(t *testing.T) {
	exps, err := filepath.Glob(filepath.Join("..", "..", "testdata", "compat", "*", "*.expected.json"))
	if err != nil || len(exps) == 0 {
		t.Fatalf("no compat datasets: %v", err)
	}
	for _, exp := range exps {
		dir := strings.TrimSuffix(exp, ".expected.json")
		name, _ := filepath.Rel(filepath.Join("..", "..", "testdata", "compat"), dir)
		t.Run(name, func(t *testing.T) {
			checkDatasetAgainst(t, dir, loadExpectedDataset(t, exp))
		})
	}
}

// TestCompatExpectedCurrent checks, with pylance, that the committed
// expected values are what pylance reads of testdata/compat today.
func TestCompatExpectedCurrent(t *testing.T) {
	py := datasetPython()
	if py == "" {
		t.Skip("no pylance (set LANCE_PY)")
	}
	cmd := exec.Command(py, filepath.Join("..", "..", "testdata", "pylance", "gen_compat.py"), "--check")
	cmd.Env = append(os.Environ(), "RUST_LOG=error")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gen_compat.py --check: %v\n%s", err, b)
	}
}
