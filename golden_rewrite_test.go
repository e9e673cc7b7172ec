package lance

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// goldenRewritePath is the list of sha256 sums of our writer's rewrite of
// every corpus file. It was made before the encoding engine moved out of the
// root package (issue #15) and guards that the written bytes never change
// unless a commit means them to: regenerate with LANCE_GOLDEN_UPDATE=1 and
// say why in the commit.
const goldenRewritePath = "testdata/golden/rewrite-sha256.txt"

// goldenRewriteConfigs are the writer settings each corpus file is rewritten
// with: the defaults (one page per column for these small files) and a small
// page budget, which makes several pages per column and so exercises page
// splitting and the per-page codec choice.
var goldenRewriteConfigs = []struct {
	name   string
	budget int64
}{
	{"default", DefaultPageBudget},
	{"budget16k", 16 << 10},
}

// goldenSources lists the corpus files rewritten for the golden list, keyed
// by a stable label ("shared/2.1/x.lance", "testdata/2.2/y.lance"). The
// shared corpus is skipped when absent.
func goldenSources(t *testing.T) map[string]string {
	src := map[string]string{}
	shared := os.Getenv("LANCE_CORPUS")
	if shared == "" {
		shared = filepath.Join("..", "shared", "corpus")
	}
	for _, v := range []string{"2.1", "2.2"} {
		for root, label := range map[string]string{shared: "shared", filepath.Join("testdata", "corpus"): "testdata"} {
			files, _ := filepath.Glob(filepath.Join(root, v, "*.lance"))
			for _, f := range files {
				src[label+"/"+v+"/"+filepath.Base(f)] = f
			}
		}
	}
	if len(src) == 0 {
		t.Fatal("no corpus files found")
	}
	return src
}

// goldenRewrite rewrites src with our writer at version and returns the
// sha256 of the written bytes, or "unsupported" when the writer refuses a
// type.
func goldenRewrite(ctx context.Context, src, dst, version string, budget int64) (string, error) {
	f, err := Open(ctx, src)
	if err != nil {
		return "", err
	}
	defer f.Close()
	noEnv := func(string) string { return "" }
	w, err := Create(ctx, dst, f.Schema(), WithFileVersion(version), WithPageBudget(budget), WithEnv(noEnv))
	if errors.Is(err, ErrUnsupportedType) {
		return "unsupported", nil
	} else if err != nil {
		return "", err
	}
	for rec, err := range f.Batches(ctx, ScanOptions{BatchSize: 777}) {
		if err != nil {
			w.Abort()
			return "", err
		}
		err = w.Write(ctx, rec)
		rec.Release()
		if errors.Is(err, ErrUnsupportedType) {
			return "unsupported", nil
		}
		if err != nil {
			return "", err
		}
	}
	if err := w.Close(ctx); errors.Is(err, ErrUnsupportedType) {
		return "unsupported", nil
	} else if err != nil {
		return "", err
	}
	b, err := os.ReadFile(dst)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// readGolden parses the golden list: "<sum>  <label>" per line.
func readGolden(t *testing.T) map[string]string {
	f, err := os.Open(goldenRewritePath)
	if err != nil {
		t.Fatalf("%v (generate with LANCE_GOLDEN_UPDATE=1)", err)
	}
	defer f.Close()
	m := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		sum, label, ok := strings.Cut(line, "  ")
		if !ok {
			t.Fatalf("%s: bad line %q", goldenRewritePath, line)
		}
		m[label] = sum
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestGoldenRewriteBytes rewrites every 2.1/2.2 corpus file at 2.1 and 2.2
// (default and small page budget) and checks the sha256 of the written bytes
// against testdata/golden/rewrite-sha256.txt: a refactor of the encoders must
// not change a single written byte.
func TestGoldenRewriteBytes(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	srcs := goldenSources(t)
	labels := make([]string, 0, len(srcs))
	for l := range srcs {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	got := map[string]string{}
	for _, l := range labels {
		for _, ver := range []string{"2.1", "2.2"} {
			for _, c := range goldenRewriteConfigs {
				key := fmt.Sprintf("%s -> %s %s", l, ver, c.name)
				dst := filepath.Join(dir, fmt.Sprintf("out_%d.lance", len(got)))
				sum, err := goldenRewrite(ctx, srcs[l], dst, ver, c.budget)
				if err != nil {
					t.Fatalf("%s: %v", key, err)
				}
				got[key] = sum
				os.Remove(dst)
			}
		}
	}
	if os.Getenv("LANCE_GOLDEN_UPDATE") != "" {
		writeGolden(t, got)
		return
	}
	want := readGolden(t)
	checked := 0
	for _, k := range goldenKeys(got) {
		w, ok := want[k]
		if !ok {
			t.Errorf("%s: not in %s (regenerate with LANCE_GOLDEN_UPDATE=1)", k, goldenRewritePath)
			continue
		}
		if w != got[k] {
			t.Errorf("%s: wrote sha256 %s, golden %s", k, got[k], w)
		}
		checked++
	}
	for k := range want {
		if strings.HasPrefix(k, "testdata/") {
			if _, ok := got[k]; !ok {
				t.Errorf("%s: in the golden list but its source is gone", k)
			}
		}
	}
	t.Logf("%d rewrites match %s", checked, goldenRewritePath)
}

// writeGolden writes the golden list (LANCE_GOLDEN_UPDATE=1).
func writeGolden(t *testing.T, got map[string]string) {
	var b strings.Builder
	b.WriteString("# sha256 of our writer's rewrite of each corpus file: <sum>  <source> -> <version> <config>\n")
	b.WriteString("# made by TestGoldenRewriteBytes with LANCE_GOLDEN_UPDATE=1 (batch 777, env lookups empty)\n")
	for _, k := range goldenKeys(got) {
		fmt.Fprintf(&b, "%s  %s\n", got[k], k)
	}
	if err := os.MkdirAll(filepath.Dir(goldenRewritePath), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(goldenRewritePath, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %d sums to %s", len(got), goldenRewritePath)
}

// goldenKeys returns the keys of m in order.
func goldenKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
