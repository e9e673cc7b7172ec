package lance

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lancego/lancego/format"
)

// TestWriterV23Corpus rewrites every 2.1/2.2/2.3 corpus file and every
// pylance-made 2.3 test file as a 2.3 file (planar pages), reads it back
// with our reader and, when pylance is available, with pylance 14.0.2.
func TestWriterV23Corpus(t *testing.T) {
	ctx := context.Background()
	only := os.Getenv("LANCE_WRITER_CASES")
	dir := t.TempDir()
	var batch lanceBatch
	var srcs []string
	for _, ver := range []string{"2.1", "2.2", "2.3"} {
		files, _ := filepath.Glob(filepath.Join("..", "shared", "corpus", ver, "*.lance"))
		srcs = append(srcs, files...)
	}
	pyl, _ := filepath.Glob(filepath.Join("testdata", "pylance", "2.3", "*.lance"))
	srcs = append(srcs, pyl...)
	for _, src := range srcs {
		name := filepath.Base(filepath.Dir(src)) + "/" + strings.TrimSuffix(filepath.Base(src), ".lance")
		if strings.Contains(src, "testdata") {
			name = "pylance" + name
		}
		if only != "" && !strings.Contains(","+only+",", ","+filepath.Base(name)+",") {
			continue
		}
		t.Run(name, func(t *testing.T) {
			dst := filepath.Join(dir, strings.ReplaceAll(name, "/", "_")+".lance")
			exp := strings.TrimSuffix(src, ".lance") + ".expected.json"
			if _, err := os.Stat(exp); err != nil {
				t.Skip("no expected values")
			}
			if corpusRewrite(ctx, t, src, dst, exp, "2.3") && !lanceCannotRead[filepath.Base(name)] {
				checkPlanarPages(ctx, t, dst)
				batch.add(name, dst, expectedAt23(t, exp, dir, name))
			}
		})
	}
	batch.run(t, lancePython())
}

// footerVersionRE matches the footer version of an expected.json.
var footerVersionRE = regexp.MustCompile(`"footer_version":\s*\[\s*\d+\s*,\s*\d+\s*\]`)

// expectedAt23 returns a copy of expected.json exp whose footer version is
// 2.3 (the values are unchanged by the rewrite).
func expectedAt23(t *testing.T, exp, dir, name string) string {
	b, err := os.ReadFile(exp)
	if err != nil {
		t.Fatal(err)
	}
	b = footerVersionRE.ReplaceAll(b, []byte(`"footer_version":[2,3]`))
	out := filepath.Join(dir, strings.ReplaceAll(name, "/", "_")+".expected.json")
	if err := os.WriteFile(out, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// checkPlanarPages asserts a written 2.3 file has footer 2.3 and only
// PlanarLayout pages.
func checkPlanarPages(ctx context.Context, t *testing.T, path string) {
	t.Helper()
	f, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := f.Metadata()
	if m.Version != format.V2_3 {
		t.Fatalf("version %s, want 2.3", m.Version)
	}
	for c, col := range m.Columns {
		for p, page := range col.GetPages() {
			a, err := format.DecodeEncodingAny(page.GetEncoding())
			if err != nil {
				t.Fatalf("column %d page %d: %v", c, p, err)
			}
			if got := format.MessageName(a.GetTypeUrl()); got != format.PlanarLayoutMessage {
				t.Fatalf("column %d page %d: %s, want %s", c, p, got, format.PlanarLayoutMessage)
			}
		}
	}
}
