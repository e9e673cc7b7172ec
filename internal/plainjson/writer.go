package plainjson

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow"
)

// Writer streams record batches as JSON objects, one per row: either one
// JSON array of them (Lines false) or one object per line (JSON Lines).
// Each batch is written when it is passed to Write.
type Writer struct {
	out   io.Writer
	lines bool
	rows  int64
	buf   []byte
}

// NewWriter returns a Writer printing to out; lines selects JSON Lines.
func NewWriter(out io.Writer, lines bool) *Writer {
	return &Writer{out: out, lines: lines}
}

// Write prints the rows of rec.
func (w *Writer) Write(rec arrow.RecordBatch) error {
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	cols := make([]appender, rec.NumCols())
	keys := make([][]byte, rec.NumCols())
	for c, f := range rec.Schema().Fields() {
		a, err := compile(rec.Column(c))
		if err != nil {
			return err
		}
		cols[c] = a
		keys[c] = append(AppendString(nil, f.Name), ':')
	}
	const flushAt = 1 << 16
	buf := w.buf[:0]
	for r := range n {
		switch {
		case w.lines:
		case w.rows == 0:
			buf = append(buf, '[')
		default:
			buf = append(buf, ",\n"...)
		}
		w.rows++
		buf = append(buf, '{')
		for c, a := range cols {
			if c > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, keys[c]...)
			buf = a(buf, r)
		}
		buf = append(buf, '}')
		if w.lines {
			buf = append(buf, '\n')
		}
		if len(buf) >= flushAt {
			if _, err := w.out.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	w.buf = buf[:0]
	_, err := w.out.Write(buf)
	return err
}

// Close ends the output: the closing bracket of the array ("[]" when no
// row was written); nothing for JSON Lines.
func (w *Writer) Close() error {
	if w.lines {
		return nil
	}
	end := "]\n"
	if w.rows == 0 {
		end = "[]\n"
	}
	_, err := io.WriteString(w.out, end)
	return err
}
