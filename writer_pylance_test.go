package lance

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"google.golang.org/protobuf/proto"

	"github.com/lancego/lancego/format"
	pb21 "github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/format/pb/file2pb"

	"github.com/lancego/lancego/internal/testkit"
	"github.com/lancego/lancego/internal/valuejson"
	"github.com/lancego/lancego/layouts"
)

// Helpers of the writer tests that check a file against pylance 14.0.2:
// the same input written by pylance's LanceFileWriter (pylanceWrites) for a
// page-by-page comparison (samePages), and an expected.json made from the
// input itself (expectedFromInput) for real Lance's read-back (lanceBatch).

// writerCase is one input written by our writer and, for comparison, by
// pylance.
type writerCase struct {
	name   string
	ver    string
	schema *arrow.Schema
	recs   []arrow.RecordBatch
	opts   []WriterOption
	// noPages, when set, says why pylance's pages cannot be compared.
	noPages string
	// pylanceReadErr, when set, is the error pylance 14.0.2 gives reading
	// back both our file and its own of the same input (a shape it writes
	// but cannot read); its pages must then equal ours byte for byte.
	pylanceReadErr string
	// layoutOnly compares the pages' layouts and codec trees, not their
	// bytes (General value chunks: our LZ4 and zstd compressors pick other
	// matches than Lance's).
	layoutOnly bool
}

// writeOurs writes c with our writer to dir/<name>.lance.
func (c *writerCase) writeOurs(t *testing.T, dir string) string {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(dir, safeName(c.name)+".lance")
	w, err := Create(ctx, path, c.schema, append([]WriterOption{WithFileVersion(c.ver)}, c.opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range c.recs {
		if err := w.Write(ctx, rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	return path
}

// safeName turns a subtest name into a file name.
func safeName(s string) string {
	return strings.NewReplacer("/", "_", " ", "_", "<", "", ">", "", ",", "_").Replace(s)
}

// writeIPC writes recs to an Arrow IPC file (testkit.WriteIPC).
func writeIPC(t *testing.T, path string, schema *arrow.Schema, recs []arrow.RecordBatch) {
	testkit.WriteIPC(t, path, schema, recs)
}

// expectedFromInput writes the expected.json of recs (schema and values of
// the input, in the corpus conventions) to dir and returns its path.
func expectedFromInput(t *testing.T, dir, name string, schema *arrow.Schema, recs []arrow.RecordBatch) string {
	t.Helper()
	var buf bytes.Buffer
	if err := valuejson.WriteRecords(&buf, schema, recs); err != nil {
		t.Fatal(err)
	}
	var sch bytes.Buffer
	if err := valuejson.Encode(&sch, valuejson.SchemaJSON(schema)); err != nil {
		t.Fatal(err)
	}
	body := strings.TrimSpace(buf.String())
	out := "{\"schema\":" + strings.TrimSpace(sch.String()) + "," + body[1:]
	path := filepath.Join(dir, safeName(name)+".expected.json")
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// pylanceWrites collects inputs for one run of
// testdata/pylance/write_many.py (one Python process for every file).
type pylanceWrites struct {
	lines []string
	// env holds extra "K=V" environment entries for pylance's process
	// (the LANCE_* knobs).
	env []string
}

// add queues the IPC file src to be written by pylance to dst at ver.
func (p *pylanceWrites) add(src, dst, ver string) {
	p.lines = append(p.lines, src+"\t"+dst+"\t"+ver)
}

// run writes the queued files; it returns pylance's error per output file
// ("" when written).
func (p *pylanceWrites) run(t *testing.T, py string) map[string]string {
	t.Helper()
	cmd := exec.Command(py, "testdata/pylance/write_many.py")
	cmd.Env = append(os.Environ(), p.env...)
	cmd.Stdin = strings.NewReader(strings.Join(p.lines, "\n") + "\n")
	cmd.Stderr = nil
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("write_many.py: %v", err)
	}
	res := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		status, rest, _ := strings.Cut(sc.Text(), " ")
		file, msg, _ := strings.Cut(rest, " ")
		if status == "OK" {
			res[file] = ""
		} else {
			res[file] = "pylance: " + msg
		}
	}
	return res
}

// samePages reports the first difference between the pages of two files
// (column count, page count, rows, layout protobuf, buffer bytes unless
// layoutOnly), or nil.
func samePages(ours, theirs string, layoutOnly bool) error {
	ctx := context.Background()
	a, err := Open(ctx, ours)
	if err != nil {
		return err
	}
	defer a.Close()
	b, err := Open(ctx, theirs)
	if err != nil {
		return err
	}
	defer b.Close()
	ab, err := os.ReadFile(ours)
	if err != nil {
		return err
	}
	bb, err := os.ReadFile(theirs)
	if err != nil {
		return err
	}
	if na, nb := len(a.Metadata().Columns), len(b.Metadata().Columns); na != nb {
		return fmt.Errorf("%d columns, pylance %d", na, nb)
	}
	for c := range a.Metadata().Columns {
		if err := sameColumnPages(a, b, ab, bb, c, layoutOnly); err != nil {
			return fmt.Errorf("column %d: %w", c, err)
		}
	}
	return nil
}

// sameColumnPages compares the pages of column c.
func sameColumnPages(a, b *File, ab, bb []byte, c int, layoutOnly bool) error {
	pa, pb := a.Metadata().Columns[c].GetPages(), b.Metadata().Columns[c].GetPages()
	if len(pa) != len(pb) {
		return fmt.Errorf("%d pages, pylance %d", len(pa), len(pb))
	}
	for i := range pa {
		if pa[i].GetLength() != pb[i].GetLength() {
			return fmt.Errorf("page %d: %d rows, pylance %d", i, pa[i].GetLength(), pb[i].GetLength())
		}
		if layoutOnly {
			if err := sameCodecTree(pa[i], pb[i]); err != nil {
				return fmt.Errorf("page %d: %w", i, err)
			}
			continue
		}
		if !sameEncoding(pa[i], pb[i]) {
			return fmt.Errorf("page %d: layout differs:\n ours    %v\n pylance %v", i, pa[i].GetEncoding(), pb[i].GetEncoding())
		}
		ra, _ := a.Metadata().PageRanges(c, i)
		rb, _ := b.Metadata().PageRanges(c, i)
		if len(ra) != len(rb) {
			return fmt.Errorf("page %d: %d buffers, pylance %d", i, len(ra), len(rb))
		}
		for k := range ra {
			x, y := ab[ra[k].Offset:ra[k].Offset+ra[k].Length], bb[rb[k].Offset:rb[k].Offset+rb[k].Length]
			if !bytes.Equal(x, y) {
				at := firstDiff(x, y)
				return fmt.Errorf("page %d buffer %d: %d bytes, pylance %d; from byte %d: %x…, pylance %x…", i, k, len(x), len(y), at, head(x[at:]), head(y[at:]))
			}
		}
	}
	return nil
}

// pageLayoutOf is the 2.1/2.2 PageLayout of a page (a dense 2.3 page as
// the 2.2 layout that reads it), or nil.
func pageLayoutOf(pg *file2pb.ColumnMetadata_Page) *pb21.PageLayout {
	enc, err := format.DecodePageEncoding(pg)
	if err != nil || enc.Layout != nil || enc.Planar.GetStructure().GetDense() == nil {
		return enc.Layout
	}
	l, _ := layouts.DenseAsPageLayout(enc.Planar)
	return l
}

// sameEncoding compares the layouts of two pages: the decoded PageLayout
// protobufs where both have one (prost and Go order a oneof's field
// differently when serializing), else the raw encodings.
func sameEncoding(a, b *file2pb.ColumnMetadata_Page) bool {
	la, lb := pageLayoutOf(a), pageLayoutOf(b)
	if la != nil && lb != nil {
		return proto.Equal(la, lb)
	}
	return proto.Equal(a.GetEncoding(), b.GetEncoding())
}

// firstDiff is the offset of the first byte where a and b differ.
func firstDiff(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// head is the first bytes of b, for messages.
func head(b []byte) []byte { return b[:min(len(b), 32)] }

// checkWriterCases writes every case with our writer and checks that our
// reader and real Lance read the input back (schema and values) and, with
// pylance, that pylance writes the same pages. Without LANCE_PY only our
// reader is checked.
func checkWriterCases(t *testing.T, cases []writerCase) {
	checkWriterCasesEnv(t, cases, nil)
}

// checkWriterCasesEnv is checkWriterCases with pylance's process given the
// extra environment entries env ("K=V").
func checkWriterCasesEnv(t *testing.T, cases []writerCase, env []string) {
	py := lancePython()
	dir := t.TempDir()
	if keep := os.Getenv("LANCE_TEST_KEEP_DIR"); keep != "" {
		dir = keep // the files stay for inspection (lance inspect)
	}
	var batch lanceBatch
	pw := pylanceWrites{env: env}
	ours := map[string]string{}
	for i := range cases {
		c := &cases[i]
		t.Run(c.name, func(t *testing.T) {
			path := roundTripCase(t, c, dir)
			ours[c.name] = path
			exp := expectedFromInput(t, dir, c.name, c.schema, c.recs)
			theirs := filepath.Join(dir, safeName(c.name)+".pylance.lance")
			if c.pylanceReadErr != "" {
				batch.addFailing(c.name, path, exp, c.pylanceReadErr)
				batch.addFailing(c.name+"/pylance's own", theirs, exp, c.pylanceReadErr)
			} else {
				batch.add(c.name, path, exp)
			}
			if py != "" {
				src := filepath.Join(dir, safeName(c.name)+".arrow")
				writeIPC(t, src, c.schema, c.recs)
				pw.add(src, theirs, c.ver)
			}
		})
	}
	if py == "" {
		return
	}
	res := pw.run(t, py) // first: the batch may read pylance's files
	batch.run(t, py)
	for _, c := range cases {
		t.Run("pages/"+c.name, func(t *testing.T) {
			path, ok := ours[c.name]
			if !ok {
				t.Skip("not written")
			}
			if c.noPages != "" {
				t.Skip(c.noPages)
			}
			theirs := filepath.Join(dir, safeName(c.name)+".pylance.lance")
			if msg := res[theirs]; msg != "" {
				t.Fatal(msg)
			}
			if err := samePages(path, theirs, c.layoutOnly); err != nil {
				t.Fatal(err)
			}
			if c.pylanceReadErr != "" {
				sameFileBytes(t, path, theirs)
			}
		})
	}
}

// sameFileBytes fails t unless the files at a and b are equal byte for
// byte.
func sameFileBytes(t *testing.T, a, b string) {
	t.Helper()
	x, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	y, err := os.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(x, y) {
		t.Fatalf("%s (%d bytes) and %s (%d bytes) differ", a, len(x), b, len(y))
	}
}

// roundTripCase writes c and checks our reader returns its input.
func roundTripCase(t *testing.T, c *writerCase, dir string) string {
	t.Helper()
	path := c.writeOurs(t, dir)
	_, want := recordsJSON(t, c.schema, c.recs)
	_, got := readAllJSON(context.Background(), t, path)
	if ok, diff := valuejsonEqual(want, got); !ok {
		t.Fatalf("our reader: %s", diff)
	}
	return path
}
