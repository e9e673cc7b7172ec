package dataset

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/internal/fileread"
)

// A renamed struct child (alter_columns st.b → st.bb) keeps its field id;
// Lance finds it in older data files by that id, under its old name.
// conform matches struct children by name, so before conforming a column
// of a data file whose field ids are the dataset's, its children are
// relabelled with the dataset's names by id (children the dataset no
// longer has get a name no dataset field can have). Data files whose ids
// are not the dataset's (written with positional ids) keep their names.

// droppedChild prefixes the relabelled name of a child the dataset dropped.
const droppedChild = "\x00dropped "

// relabelByID returns the Arrow type of top-level column col of data file
// f (listed in the manifest as df) with struct children renamed to the
// dataset's names of their ids, or nil when no name changes or the file's
// ids cannot be trusted to be the dataset's.
func relabelByID(f *fileread.File, col int, df *DataFile, top *format.Field) arrow.DataType {
	fields := f.Metadata().Schema.Fields
	if col < 0 || col >= len(fields) || fields[col].ID != top.ID || !idsListed(fields[col], df.Fields) {
		return nil
	}
	t := f.Schema().Field(col).Type
	out, changed := relabelType(t, fields[col], top)
	if !changed {
		return nil
	}
	return out
}

// idsListed reports whether every leaf id of a file field is among the
// ids the manifest lists for its data file: the file numbers its fields
// as the dataset does.
func idsListed(f *format.Field, ids []int32) bool {
	if len(f.Children) == 0 {
		return slices.Contains(ids, f.ID)
	}
	for _, c := range f.Children {
		if !idsListed(c, ids) {
			return false
		}
	}
	return true
}

// relabelType renames the struct children of t (the file's type of file
// field ff) after the dataset field want of the same id.
func relabelType(t arrow.DataType, ff, want *format.Field) (arrow.DataType, bool) {
	switch x := t.(type) {
	case *arrow.StructType:
		if len(ff.Children) != x.NumFields() {
			return t, false
		}
		changed := false
		fs := make([]arrow.Field, x.NumFields())
		for i, c := range x.Fields() {
			fc := ff.Children[i]
			var wc *format.Field
			if want != nil {
				for _, w := range want.Children {
					if w.ID == fc.ID {
						wc = w
						break
					}
				}
			}
			if wc == nil {
				c.Name, changed = droppedChild+c.Name, true
			} else if wc.Name != c.Name {
				c.Name, changed = wc.Name, true
			}
			ct, ch := relabelType(c.Type, fc, wc)
			c.Type, changed = ct, changed || ch
			fs[i] = c
		}
		if !changed {
			return t, false
		}
		return arrow.StructOf(fs...), true
	case *arrow.ListType, *arrow.LargeListType, *arrow.FixedSizeListType:
		if len(ff.Children) != 1 || want == nil || len(want.Children) != 1 {
			return t, false
		}
		elem := x.(arrow.ListLikeType).ElemField()
		et, ch := relabelType(elem.Type, ff.Children[0], want.Children[0])
		if !ch {
			return t, false
		}
		elem.Type = et
		switch y := x.(type) {
		case *arrow.ListType:
			return arrow.ListOfField(elem), true
		case *arrow.LargeListType:
			return arrow.LargeListOfField(elem), true
		case *arrow.FixedSizeListType:
			return arrow.FixedSizeListOfField(y.Len(), elem), true
		}
	}
	return t, false
}

// retype returns a with type t, which differs from a's only in names (a
// new reference sharing a's buffers).
func retype(a arrow.Array, t arrow.DataType) arrow.Array {
	d := retypeData(a.Data(), t)
	defer d.Release()
	return array.MakeFromData(d)
}

func retypeData(d arrow.ArrayData, t arrow.DataType) arrow.ArrayData {
	var kids []arrow.DataType
	switch x := t.(type) {
	case *arrow.StructType:
		for _, f := range x.Fields() {
			kids = append(kids, f.Type)
		}
	case arrow.ListLikeType:
		kids = []arrow.DataType{x.Elem()}
	}
	children := make([]arrow.ArrayData, len(d.Children()))
	for i, c := range d.Children() {
		if i < len(kids) {
			children[i] = retypeData(c, kids[i])
		} else {
			c.Retain()
			children[i] = c
		}
	}
	out := array.NewData(t, d.Len(), d.Buffers(), children, d.NullN(), d.Offset())
	for _, c := range children {
		c.Release()
	}
	return out
}

// conformRelabelled is conform for a column whose file type relabel
// renames (nil: none).
func conformRelabelled(mem memory.Allocator, a arrow.Array, relabel, want arrow.DataType, column string) (arrow.Array, error) {
	if relabel == nil || !sameShape(relabel, a.DataType()) {
		return conform(mem, a, want, column)
	}
	r := retype(a, relabel)
	defer r.Release()
	return conform(mem, r, want, column)
}

// sameShape reports whether two types differ at most in field names.
func sameShape(a, b arrow.DataType) bool {
	if a.ID() != b.ID() {
		return false
	}
	switch x := a.(type) {
	case *arrow.StructType:
		y := b.(*arrow.StructType)
		if x.NumFields() != y.NumFields() {
			return false
		}
		for i := range x.NumFields() {
			if !sameShape(x.Field(i).Type, y.Field(i).Type) {
				return false
			}
		}
		return true
	case arrow.ListLikeType:
		if f, ok := a.(*arrow.FixedSizeListType); ok && f.Len() != b.(*arrow.FixedSizeListType).Len() {
			return false
		}
		return sameShape(x.Elem(), b.(arrow.ListLikeType).Elem())
	}
	return arrow.TypeEqual(a, b)
}
