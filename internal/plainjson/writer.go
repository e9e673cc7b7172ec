package plainjson

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
)

// flushAt is the output buffered before a write to the underlying
// writer, so memory stays bounded whatever the batch size.
const flushAt = 64 << 10

// Writer streams record batches as JSON objects, one per row (keys are
// the column names, in schema order): either one JSON array of them, or,
// for JSON Lines, one object per line. Rows are written out by the Write
// that receives them; nothing is held back across batches.
type Writer struct {
	out   io.Writer
	lines bool
	rows  int64
	buf   []byte
}

// NewWriter returns a Writer printing to out; lines selects JSON Lines
// (one object per line, no enclosing array).
func NewWriter(out io.Writer, lines bool) *Writer {
	return &Writer{out: out, lines: lines}
}

// Write prints the rows of rec. An error wrapping ErrUnsupported names
// the column whose type has no JSON form; nothing of rec is printed then.
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
			return fmt.Errorf("column %q: %w", f.Name, err)
		}
		cols[c] = a
		keys[c] = append(AppendString(nil, f.Name), ':')
	}
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
	if len(buf) == 0 {
		return nil
	}
	_, err := w.out.Write(buf)
	return err
}

// Rows returns the number of rows written so far.
func (w *Writer) Rows() int64 { return w.rows }

// Close ends the output: the closing bracket of the array ("[]" when no
// row was written); nothing for JSON Lines. It does not close the
// underlying writer.
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

// AppendValue appends the JSON of row i of arr (as Writer prints it) to
// dst, for callers printing single values.
func AppendValue(dst []byte, arr arrow.Array, i int) ([]byte, error) {
	a, err := compile(arr)
	if err != nil {
		return dst, err
	}
	return a(dst, i), nil
}
