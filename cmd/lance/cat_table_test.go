package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	lance "github.com/lancego/lancego"
)

func TestTableCell(t *testing.T) {
	for _, c := range []struct {
		in    string
		limit int
		want  string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"eleven char", 10, "eleven ch…"},
		{"ünïcødé ünïcødé", 8, "ünïcødé…"},
		{"a\tb\nc\rd", 0, `a\tb\nc\rd`},
		{"tab\there", 6, `tab\t…`},
		{"whole", 0, "whole"},
		{"xy", 1, "…"},
		{"", 3, ""},
	} {
		if got := tableCell(c.in, c.limit); got != c.want {
			t.Errorf("tableCell(%q, %d) = %q, want %q", c.in, c.limit, got, c.want)
		}
	}
}

// TestCatTableWidth writes a file with a 300-character string and a
// multi-line one and checks lance cat's table: cells cut at --max-width
// with the marker, newlines escaped (one line per row), whole with 0.
func TestCatTableWidth(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "wide.lance")
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "s", Type: arrow.BinaryTypes.String}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 2}, nil)
	long := strings.Repeat("abcdefghij", 30)
	b.Field(1).(*array.StringBuilder).AppendValues([]string{long, "two\nlines"}, nil)
	rec := b.NewRecordBatch()
	defer rec.Release()
	writeBatch(t, path, rec)
	var out bytes.Buffer
	if err := run(ctx, []string{"cat", path}, &out, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 || !strings.Contains(lines[1], long[:defaultTableWidth-1]+tableMarker) || strings.Contains(lines[1], long[:defaultTableWidth]) ||
		!strings.Contains(lines[2], `two\nlines`) {
		t.Fatalf("table:\n%s", out.String())
	}
	out.Reset()
	if err := run(ctx, []string{"cat", path, "--max-width", "0"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), long) {
		t.Fatalf("--max-width 0 cut the value:\n%s", out.String())
	}
	out.Reset()
	if err := run(ctx, []string{"cat", path, "--format", "csv"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), long) || !strings.Contains(out.String(), "\"two\nlines\"") {
		t.Fatalf("csv must stay whole and quoted:\n%s", out.String())
	}
}

// countingWriter records the rows (lines) of every Write call.
type countingWriter struct{ lines []int }

func (c *countingWriter) Write(p []byte) (int, error) {
	c.lines = append(c.lines, bytes.Count(p, []byte("\n")))
	return len(p), nil
}

// TestCatJSONLStreams checks that --format jsonl writes each batch as it
// is read (a Write of at most --batch-size whole lines per batch), not the
// whole result at the end.
func TestCatJSONLStreams(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "rows.lance")
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	for i := range 1000 {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	writeBatch(t, path, rec)
	var out countingWriter
	if err := run(ctx, []string{"cat", path, "--format", "jsonl", "--batch-size", "10"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, n := range out.lines {
		if n > 10 {
			t.Fatalf("a write of %d lines: the output is not streamed per batch (%v)", n, out.lines)
		}
		total += n
	}
	if total != 1000 || len(out.lines) < 100 {
		t.Fatalf("%d lines in %d writes, want 1000 in >= 100", total, len(out.lines))
	}
}

// TestProgressLine checks the progress line: quiet unless stderr is a
// terminal (a buffer or a pipe gets nothing), labeled, and a count that
// starts again (a compaction's next group) adds to the total.
func TestProgressLine(t *testing.T) {
	var quiet bytes.Buffer
	p := newLabeledProgress(&quiet, "compacting")
	p.update(10)
	p.done()
	if quiet.Len() != 0 {
		t.Fatalf("progress wrote %q to a non-terminal", quiet.String())
	}
	var out bytes.Buffer
	p = &progress{out: &out, on: true, label: "compacting"}
	p.update(100)
	p.cur, p.last = 100, time.Time{} // let the next update print
	p.update(30)                     // a new group's writer
	p.done()
	if s := out.String(); !strings.Contains(s, "compacting: 100 rows") || !strings.Contains(s, "compacting: 130 rows") || !strings.HasSuffix(s, "\r\033[K") {
		t.Fatalf("progress line %q", s)
	}
}

// writeBatch writes rec as the Lance file at path (default options).
func writeBatch(t *testing.T, path string, rec arrow.RecordBatch) {
	t.Helper()
	ctx := context.Background()
	w, err := lance.Create(ctx, path, rec.Schema())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
}
