package lance

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestWriterSizes rewrites every corpus file and compares our size with
// real Lance's (the corpus file, Lance 8.0.0). With LANCE_WRITER_SIZES=FILE
// the markdown table is written to FILE.
func TestWriterSizes(t *testing.T) {
	out := os.Getenv("LANCE_WRITER_SIZES")
	if out == "" && testing.Short() {
		t.Skip("short")
	}
	ctx := context.Background()
	var rows []string
	for _, ver := range []string{"2.1", "2.2"} {
		files, _ := filepath.Glob(filepath.Join("..", "shared", "corpus", ver, "*.lance"))
		sort.Strings(files)
		for _, src := range files {
			name := strings.TrimSuffix(filepath.Base(src), ".lance")
			st, err := os.Stat(src)
			if err != nil {
				t.Fatal(err)
			}
			row, ok := sizeRow(ctx, t, src, name, ver, st.Size())
			if ok {
				rows = append(rows, row)
			}
		}
	}
	doc := "| case | version | lance bytes | ours | ratio |\n|---|---|---:|---:|---:|\n" + strings.Join(rows, "\n") + "\n"
	t.Log("\n" + doc)
	if out != "" {
		if err := os.WriteFile(out, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// sizeRow rewrites one file and formats its table row.
func sizeRow(ctx context.Context, t *testing.T, src, name, ver string, lanceSize int64) (row string, ok bool) {
	dir := os.Getenv("LANCE_WRITER_KEEP") // keep the rewritten files there
	if dir == "" {
		dir = t.TempDir()
	}
	dst := filepath.Join(dir, ver+"_"+name+".lance")
	if err := rewriteErr(ctx, src, dst, ver, 1<<20); err != nil {
		t.Logf("%s/%s: %v", ver, name, err)
		return fmt.Sprintf("| %s | %s | %d | (not written) | — |", name, ver, lanceSize), true
	}
	st, err := os.Stat(dst)
	if err != nil {
		return "", false
	}
	ratio := float64(st.Size()) / float64(lanceSize)
	mark := ""
	if ratio > 1.05 {
		mark = " ✗"
	}
	return fmt.Sprintf("| %s | %s | %d | %d | %.3f%s |", name, ver, lanceSize, st.Size(), ratio, mark), true
}
