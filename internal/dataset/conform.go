package dataset

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/format"
)

// conform returns column a (read from one data file) as the dataset
// schema's type want: a data file may store a struct's children in another
// order than the schema, or only some of them, at any depth (a fragment
// appended with List<Struct<c, b>> to a List<Struct<a, b, c>> dataset:
// testdata/compat/14.0.2/list_struct_field_reorder). Children are matched
// by name, as Lance projects file columns onto the dataset schema, and
// missing ones read as nulls. The result is a new reference; a is left to
// the caller. A leaf of another type is an error naming the column.
func conform(mem memory.Allocator, a arrow.Array, want arrow.DataType, column string) (arrow.Array, error) {
	if arrow.TypeEqual(a.DataType(), want) {
		a.Retain()
		return a, nil
	}
	d, err := conformData(mem, a.Data(), want, column)
	if err != nil {
		return nil, err
	}
	defer d.Release()
	return array.MakeFromData(d), nil
}

// conformData is conform on array data: the result shares d's buffers
// and is a new reference.
func conformData(mem memory.Allocator, d arrow.ArrayData, want arrow.DataType, path string) (arrow.ArrayData, error) {
	got := d.DataType()
	if arrow.TypeEqual(got, want) {
		d.Retain()
		return d, nil
	}
	mismatch := func() error {
		return fmt.Errorf("%w: column %q is %s in a data file, %s in the dataset schema", format.ErrCorrupt, path, got, want)
	}
	if got.ID() != want.ID() {
		return nil, mismatch()
	}
	var children []arrow.ArrayData
	defer func() {
		for _, c := range children {
			c.Release()
		}
	}()
	switch w := want.(type) {
	case *arrow.StructType:
		g := got.(*arrow.StructType)
		for _, f := range w.Fields() {
			j, ok := g.FieldIdx(f.Name)
			var c arrow.ArrayData
			var err error
			if !ok {
				// a child the file does not store: nulls, as long as the
				// struct's own (unsliced) children
				n := d.Offset() + d.Len()
				null := array.MakeArrayOfNull(mem, f.Type, n)
				c = null.Data()
				c.Retain()
				null.Release()
			} else if j >= len(d.Children()) {
				return nil, mismatch()
			} else if c, err = conformData(mem, d.Children()[j], f.Type, path+"."+f.Name); err != nil {
				return nil, err
			}
			children = append(children, c)
		}
	case arrow.NestedType:
		// lists, large lists, fixed-size lists and maps: one child
		wf, gf := w.Fields(), got.(arrow.NestedType).Fields()
		if len(wf) != 1 || len(gf) != 1 || len(d.Children()) != 1 {
			return nil, mismatch()
		}
		c, err := conformData(mem, d.Children()[0], wf[0].Type, path+"."+wf[0].Name)
		if err != nil {
			return nil, err
		}
		children = append(children, c)
	default:
		return nil, mismatch()
	}
	return array.NewData(want, d.Len(), d.Buffers(), children, d.NullN(), d.Offset()), nil
}
