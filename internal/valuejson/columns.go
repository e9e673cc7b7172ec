package valuejson

import (
	"fmt"
	"io"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
)

// Columns returns the document {"num_rows": N, "columns": {"<name>": [...]}}
// for one record batch, with columns in schema order. num_rows is an int64.
func Columns(rec arrow.RecordBatch) (OrderedObject, error) {
	cols := make(OrderedObject, rec.NumCols())
	for j := range cols {
		name := rec.ColumnName(j)
		vals, err := Column(rec.Column(j))
		if err != nil {
			return nil, fmt.Errorf("column %q: %w", name, err)
		}
		cols[j] = Member{name, vals}
	}
	return OrderedObject{{"num_rows", rec.NumRows()}, {"columns", cols}}, nil
}

// WriteRecords writes the document {"num_rows": N, "columns": {...}} for
// the concatenation of recs (all with the given schema) to w, followed by a
// newline. It is a convenience wrapper around Writer.
func WriteRecords(w io.Writer, schema *arrow.Schema, recs []arrow.RecordBatch) error {
	jw := NewWriter(schema)
	for _, rec := range recs {
		if err := jw.Append(rec); err != nil {
			return err
		}
	}
	_, err := jw.WriteTo(w)
	return err
}

// Writer builds the document {"num_rows": N, "columns": {"<name>": [...]}}
// from a stream of record batches (for example the batches of a scan).
//
// The document is column-major and starts with the total row count, so
// nothing can be written before the last batch. Append therefore encodes
// each batch's values at once into one compact JSON buffer per column and
// keeps no reference to the batch: the caller may release it as soon as
// Append returns. Memory use is the size of the JSON text. WriteTo then
// writes the header, the buffered columns and a newline.
//
// A Writer is not safe for concurrent use.
type Writer struct {
	schema *arrow.Schema
	cols   [][]byte
	rows   int64
}

// NewWriter returns a Writer for batches with the given schema.
func NewWriter(schema *arrow.Schema) *Writer {
	return &Writer{schema: schema, cols: make([][]byte, schema.NumFields())}
}

// NumRows returns the number of rows appended so far.
func (w *Writer) NumRows() int64 { return w.rows }

// Append encodes the rows of rec. rec must have the Writer's column count
// and column types (names and metadata are not checked). On error nothing
// of rec is recorded and the Writer stays usable.
func (w *Writer) Append(rec arrow.RecordBatch) error {
	if err := w.check(rec); err != nil {
		return err
	}
	encoded := make([][]byte, len(w.cols))
	for j := range w.cols {
		buf, err := appendColumn(w.cols[j], rec.Column(j))
		if err != nil {
			return fmt.Errorf("valuejson: column %q: %w", w.schema.Field(j).Name, err)
		}
		encoded[j] = buf
	}
	w.cols = encoded
	w.rows += rec.NumRows()
	return nil
}

// check verifies that rec matches the Writer's schema by column count and types.
func (w *Writer) check(rec arrow.RecordBatch) error {
	if int(rec.NumCols()) != len(w.cols) {
		return fmt.Errorf("valuejson: record has %d columns, schema has %d", rec.NumCols(), len(w.cols))
	}
	for j := range w.cols {
		want, got := w.schema.Field(j).Type, rec.Column(j).DataType()
		if !arrow.TypeEqual(want, got) {
			return fmt.Errorf("valuejson: column %q has type %s, schema says %s", w.schema.Field(j).Name, got, want)
		}
	}
	return nil
}

// appendColumn appends the JSON values of arr to dst, separated by commas
// (with a leading comma when dst already holds values).
func appendColumn(dst []byte, arr arrow.Array) ([]byte, error) {
	g, err := compile(arr, corpusStyle)
	if err != nil {
		return nil, err
	}
	for i := 0; i < arr.Len(); i++ {
		if len(dst) > 0 {
			dst = append(dst, ',')
		}
		if dst, err = appendJSON(dst, g(i)); err != nil {
			return nil, err
		}
	}
	return dst, nil
}

// WriteTo writes the document and a trailing newline to out. It may be
// called more than once; further batches may be appended in between.
func (w *Writer) WriteTo(out io.Writer) (int64, error) {
	cw := &countWriter{w: out}
	head := append([]byte(`{"num_rows":`), strconv.FormatInt(w.rows, 10)...)
	cw.write(append(head, `,"columns":{`...))
	for j, col := range w.cols {
		var name []byte
		if j > 0 {
			name = append(name, ',')
		}
		name = appendString(name, w.schema.Field(j).Name)
		cw.write(append(name, ':', '['))
		cw.write(col)
		cw.write([]byte{']'})
	}
	cw.write([]byte("}}\n"))
	return cw.n, cw.err
}

// countWriter counts written bytes and remembers the first error.
type countWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countWriter) write(p []byte) {
	if c.err != nil {
		return
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
}
