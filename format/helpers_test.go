package format

import (
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// corpusDir returns the Lance interoperability corpus directory from
// $LANCE_CORPUS or <repo root>/../shared/corpus, skipping the test if absent.
func corpusDir(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("LANCE_CORPUS"); d != "" {
		return d
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Skip("no working directory")
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("repository root not found")
		}
		dir = parent
	}
	d := filepath.Join(dir, "..", "shared", "corpus")
	if _, err := os.Stat(d); err != nil {
		t.Skipf("corpus not found at %s (set LANCE_CORPUS)", d)
	}
	return d
}

// corpusFiles lists every *.lance file of the corpus, sorted.
func corpusFiles(t testing.TB) []string {
	files, err := filepath.Glob(filepath.Join(corpusDir(t), "*", "*.lance"))
	if err != nil || len(files) == 0 {
		t.Skip("no corpus files")
	}
	sort.Strings(files)
	return files
}

// parseWhole parses a complete file image.
func parseWhole(t testing.TB, b []byte) *FileMetadata {
	t.Helper()
	m, need, err := ParseTail(uint64(len(b)), b)
	if err != nil {
		t.Fatalf("ParseTail: %v", err)
	}
	if need != nil {
		t.Fatalf("ParseTail asked for %v with the whole file", need)
	}
	return m
}

// readFile reads a file or fails the test.
func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
