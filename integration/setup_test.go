// Package integration runs the reader against real object-store servers
// (started by .ci/objectstores.sh, or MinIO from docker-compose.yml) and
// checks values and request counts.
package integration

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	lanceio "github.com/lancego/lancego/io"
)

// s3Base returns the bucket URL (with its query) from the environment, or
// skips the test.
func s3Base(t *testing.T) string {
	ep, bucket := os.Getenv("LANCE_TEST_S3_ENDPOINT"), os.Getenv("LANCE_TEST_S3_BUCKET")
	if ep == "" {
		t.Skip("LANCE_TEST_S3_ENDPOINT not set: start a server with .ci/objectstores.sh or docker compose")
	}
	if bucket == "" {
		bucket = "lance-test"
	}
	q := url.Values{"endpoint": {ep}, "use_path_style": {"true"}}
	if os.Getenv("AWS_REGION") == "" {
		q.Set("region", "us-east-1")
	}
	return "s3://" + bucket + "?" + q.Encode()
}

// objectURL is the URL of key in the bucket at base (query kept).
func objectURL(base, key string) string {
	u, _ := url.Parse(base)
	u.Path = "/" + key
	return u.String()
}

// upload copies local files into the store under prefix and returns their
// object URLs, in the same order.
func upload(t *testing.T, base, prefix string, files []string) []string {
	t.Helper()
	ctx := context.Background()
	store, err := lanceio.OpenStore(ctx, base, lanceio.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	out := make([]string, len(files))
	for i, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		key := fmt.Sprintf("%s/%03d-%s-%s", prefix, i, filepath.Base(filepath.Dir(f)), filepath.Base(f))
		w, err := store.Create(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(b); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		out[i] = objectURL(base, key)
	}
	return out
}

// corpusFiles lists the real Lance files the tests read: the repository's
// golden sets and, when present, the shared corpus.
func corpusFiles(t *testing.T) []string {
	var files []string
	shared := os.Getenv("LANCE_CORPUS")
	if shared == "" {
		shared = filepath.Join("..", "..", "shared", "corpus")
	}
	for _, pat := range []string{
		"../testdata/corpus/*/*.lance", "../testdata/pylance/*/*.lance",
		filepath.Join(shared, "2.[123]", "*.lance"),
	} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no Lance files found")
	}
	return files
}

// pythonPath returns the pylance venv's python, or "" when absent.
func pythonPath() string {
	if p := os.Getenv("LANCE_PY"); p != "" {
		return p
	}
	if p, err := filepath.Abs("../.ci/venv/bin/python"); err == nil {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// writeBigFile has real Lance (pylance) write a multi-megabyte file with
// several column types, or skips when Python is unavailable.
func writeBigFile(t *testing.T, version string) string {
	t.Helper()
	py := pythonPath()
	if py == "" {
		t.Skip("pylance venv not found (set LANCE_PY or run testdata/pylance/setup.sh)")
	}
	path := filepath.Join(t.TempDir(), "big.lance")
	script := `
import sys, pyarrow as pa, numpy as np
from lance.file import LanceFileWriter
rng = np.random.default_rng(7)
n = 300_000
tbl = pa.table({
  "i64": pa.array(rng.integers(-2**62, 2**62, n)),
  "f64": pa.array(rng.random(n)),
  "s": pa.array([f"name-{i % 997}-{i}" for i in range(n)]),
  "l": pa.array([list(range(i % 4)) for i in range(n)], type=pa.list_(pa.int32())),
})
w = LanceFileWriter(sys.argv[1], tbl.schema, version=sys.argv[2])
w.write_batch(tbl)
w.close()
`
	cmd := exec.Command(py, "-c", script, path, version)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pylance write: %v\n%s", err, strings.TrimSpace(string(out)))
	}
	return path
}
