package fileread

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/internal/filewriter"
	"github.com/lancego/lancego/internal/testkit"
)

// fslStructSchema has fixed-size lists of structs of dimensions 2 and 3,
// one inside a struct, beside a plain column: its columns count their
// pages in different numbers of items a row.
var fslStructSchema = func() *arrow.Schema {
	ab := arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true})
	sx := arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true})
	return arrow.NewSchema([]arrow.Field{
		{Name: "f", Type: arrow.FixedSizeListOf(2, ab), Nullable: true},
		{Name: "g", Type: arrow.FixedSizeListOf(3, sx), Nullable: true},
		{Name: "s", Type: arrow.StructOf(arrow.Field{Name: "v", Type: arrow.FixedSizeListOf(2, sx), Nullable: true}), Nullable: true},
		{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	}, nil)
}()

// fslStructBatch is rows [lo, lo+n) of fslStructSchema, nulls at every
// level.
func fslStructBatch(tb testing.TB, lo, n int) arrow.RecordBatch {
	var b strings.Builder
	b.WriteByte('[')
	for r := lo; r < lo+n; r++ {
		if r > lo {
			b.WriteByte(',')
		}
		f := fmt.Sprintf(`[{"a":%d,"b":"r%d"},%s]`, r, r%13, map[bool]string{true: "null", false: `{"a":null,"b":null}`}[r%3 == 0])
		if r%7 == 0 {
			f = "null"
		}
		g := fmt.Sprintf(`[{"x":%d},{"x":null},%s]`, -r, map[bool]string{true: "null", false: `{"x":1}`}[r%4 == 0])
		if r%5 == 0 {
			g = "null"
		}
		s := fmt.Sprintf(`{"v":[{"x":%d},null]}`, r*3)
		switch {
		case r%11 == 0:
			s = "null"
		case r%6 == 0:
			s = `{"v":null}`
		}
		fmt.Fprintf(&b, `{"f":%s,"g":%s,"s":%s,"i":%d}`, f, g, s, r)
	}
	b.WriteByte(']')
	rec, _, err := array.RecordFromJSON(memory.NewGoAllocator(), fslStructSchema, strings.NewReader(b.String()))
	if err != nil {
		tb.Fatal(err)
	}
	return rec
}

// writeFSLStructFile writes batches of fslStructSchema at version ver with
// a small page budget (several pages a column) and returns the path.
func writeFSLStructFile(tb testing.TB, ver string, batches, rows int) (string, []arrow.RecordBatch) {
	ctx := context.Background()
	path := filepath.Join(tb.TempDir(), "fsl.lance")
	w, err := filewriter.Create(ctx, path, fslStructSchema, filewriter.WithFileVersion(ver), filewriter.WithPageBudget(4<<10))
	if err != nil {
		tb.Fatal(err)
	}
	var recs []arrow.RecordBatch
	for k := range batches {
		rec := fslStructBatch(tb, k*rows, rows)
		recs = append(recs, rec)
		if err := w.Write(ctx, rec); err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Close(ctx); err != nil {
		tb.Fatal(err)
	}
	return path, recs
}

// TestFSLStructPagesOfDifferingItems: our writer's dense (and, at 2.3,
// sparse) pages of fixed-size lists of structs of different dimensions
// beside a plain column, several pages each, scan and take back to the
// input, and pylance reads each column back alone (its file reader refuses
// to read such columns together).
func TestFSLStructPagesOfDifferingItems(t *testing.T) {
	for _, ver := range []string{"2.2", "2.3"} {
		t.Run(ver, func(t *testing.T) {
			path, recs := writeFSLStructFile(t, ver, 3, 700)
			_, want := recordsJSON(t, fslStructSchema, recs)
			if py := lancePython(); py != "" { // pylance reads each column alone
				exp := testkit.ExpectedJSON(t, fslStructSchema, recs)
				script := filepath.Join("..", "..", "testdata", "pylance", "verify.py")
				if out, err := exec.Command(py, script, path, exp, "--apart", "--quiet").CombinedOutput(); err != nil {
					t.Fatalf("pylance: %v\n%s", err, out)
				}
			}
			for _, r := range recs {
				r.Release()
			}
			ctx := context.Background()
			f, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if pages := len(f.Metadata().Columns[0].GetPages()); pages < 3 {
				t.Fatalf("%d pages in column 0, want several", pages)
			}
			checkFileReads(ctx, t, f, 2100, want)
		})
	}
}

// fslStructSeeds are small files of our writer's fixed-size lists of
// structs (2.2 dense, 2.3 dense and sparse pages), seeds of FuzzReadFile.
func fslStructSeeds(tb testing.TB) [][]byte {
	var out [][]byte
	for _, ver := range []string{"2.2", "2.3"} {
		path, recs := writeFSLStructFile(tb, ver, 2, 40)
		for _, r := range recs {
			r.Release()
		}
		b, err := os.ReadFile(path)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, bytes.Clone(b))
	}
	return out
}
