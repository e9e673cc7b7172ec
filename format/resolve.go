package format

import (
	"math"
	mathbits "math/bits"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// blobV2ArrowType is the user-visible type of a blob v2 field:
// struct<data: large_binary, uri: utf8>.
func blobV2ArrowType() arrow.DataType {
	return arrow.StructOf(
		arrow.Field{Name: "data", Type: arrow.BinaryTypes.LargeBinary, Nullable: true},
		arrow.Field{Name: "uri", Type: arrow.BinaryTypes.String, Nullable: true},
	)
}

// resolve computes the Arrow types of f and its descendants (post-order).
// Depth is bounded by MaxSchemaDepth, so the recursion is bounded.
func (f *Field) resolve() error {
	for _, c := range f.Children {
		if err := c.resolve(); err != nil {
			return err
		}
	}
	for _, c := range f.BlobDescriptor {
		if err := c.resolve(); err != nil {
			return err
		}
	}
	t, err := f.arrowType()
	if err != nil {
		return err
	}
	f.ArrowType = t
	return nil
}

// arrowType derives f's Arrow type from its logical type and children.
func (f *Field) arrowType() (arrow.DataType, error) {
	switch f.LogicalType {
	case logicalStruct:
		if f.BlobV2 {
			return blobV2ArrowType(), nil
		}
		return arrow.StructOf(f.childArrowFields()...), nil
	case logicalList, logicalListStruct:
		if err := f.wantChildren(1); err != nil {
			return nil, err
		}
		return arrow.ListOfField(f.Children[0].ArrowField()), nil
	case logicalLargeList, logicalLargeListStruct:
		if err := f.wantChildren(1); err != nil {
			return nil, err
		}
		return arrow.LargeListOfField(f.Children[0].ArrowField()), nil
	case logicalMap:
		return f.mapType()
	}
	if strings.HasPrefix(f.LogicalType, logicalFSLStruct) {
		return f.fslStructType()
	}
	if err := f.wantChildren(0); err != nil {
		return nil, err
	}
	t, err := parseLogicalType(f.LogicalType, 0)
	if err != nil {
		return nil, corruptWrap(err, "field %d (%.64q): logical type %.64q", f.ID, f.Name, f.LogicalType)
	}
	return t, nil
}

// fslStructType builds fixed_size_list<item: struct, n> from the single
// struct child of a fixed_size_list:struct:n field.
func (f *Field) fslStructType() (arrow.DataType, error) {
	n, ok := nestedFSLDim(f.LogicalType)
	if !ok {
		return nil, corruptf("field %d (%.64q): logical type %.64q: bad dimension", f.ID, f.Name, f.LogicalType)
	}
	if err := f.wantChildren(1); err != nil {
		return nil, err
	}
	item := f.Children[0]
	if item.LogicalType != logicalStruct {
		return nil, corruptf("field %d (%.64q): fixed-size list item must be a struct, not %.64q", f.ID, f.Name, item.LogicalType)
	}
	if item.BlobV2 || item.Packed {
		return nil, unsupportedEncodingf("field %d (%.64q): fixed-size list of packed or blob structs", f.ID, f.Name)
	}
	return arrow.FixedSizeListOfField(n, f.Children[0].ArrowField()), nil
}

// childArrowFields returns the Arrow fields of f's children.
func (f *Field) childArrowFields() []arrow.Field {
	out := make([]arrow.Field, len(f.Children))
	for i, c := range f.Children {
		out[i] = c.ArrowField()
	}
	return out
}

// wantChildren checks that f has exactly n children.
func (f *Field) wantChildren(n int) error {
	if len(f.Children) != n {
		return corruptf("field %d (%.64q): logical type %.64q needs %d child fields, has %d",
			f.ID, f.Name, f.LogicalType, n, len(f.Children))
	}
	return nil
}

// mapType builds map<key, value> from the single `entries` struct child.
func (f *Field) mapType() (arrow.DataType, error) {
	if err := f.wantChildren(1); err != nil {
		return nil, err
	}
	entries := f.Children[0]
	if entries.LogicalType != logicalStruct || entries.BlobV2 || len(entries.Children) != 2 {
		return nil, corruptf("field %d (%.64q): map entries must be a struct of key and value", f.ID, f.Name)
	}
	key, value := entries.Children[0].ArrowField(), entries.Children[1].ArrowField()
	if key.Nullable {
		return nil, corruptf("field %d (%.64q): map key is nullable", f.ID, f.Name)
	}
	return arrow.MapOfFields(key, value), nil
}

// assignColumns sets Field.Column for every field, Schema.NumColumns and
// the row scale of every column.
func (s *Schema) assignColumns() error {
	for _, f := range s.Fields {
		if !s.Version.Structural() {
			s.columns = f.assignV20(s.columns)
			continue
		}
		var err error
		if s.columns, err = f.assignStructural(s.columns, 1, &s.rowScale); err != nil {
			return err
		}
	}
	s.NumColumns = len(s.columns)
	return nil
}

// assignStructural implements the 2.1+ rule: a pre-order walk over leaves,
// where a packed struct or a blob (v1 or v2) is one column and its
// children get none, and struct/list/map/fixed-size-list layers are not
// columns. scale is the product of the fixed-size-list-of-struct
// dimensions above f; each column's is appended to scales.
func (f *Field) assignStructural(cols []*Field, scale uint64, scales *[]uint64) ([]*Field, error) {
	switch {
	case f.Packed, f.BlobV1, f.BlobV2, !IsNestedLogicalType(f.LogicalType):
		f.Column = len(cols)
		*scales = append(*scales, scale)
		return append(cols, f), nil
	}
	if n, ok := nestedFSLDim(f.LogicalType); ok {
		hi, lo := mathbits.Mul64(scale, uint64(n))
		if hi != 0 || lo > math.MaxUint32 {
			return nil, corruptf("field %d (%.64q): fixed-size list dimensions multiply past 2^32", f.ID, f.Name)
		}
		scale = lo
	}
	var err error
	for _, c := range f.Children {
		if cols, err = c.assignStructural(cols, scale, scales); err != nil {
			return nil, err
		}
	}
	return cols, nil
}

// assignV20 implements the 2.0 rule: every field is a column in pre-order,
// except the children of a packed struct.
func (f *Field) assignV20(cols []*Field) []*Field {
	f.Column = len(cols)
	cols = append(cols, f)
	if f.Packed || f.BlobV2 {
		return cols
	}
	for _, c := range f.Children {
		cols = c.assignV20(cols)
	}
	return cols
}
