package format

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lancego/lancego/format/pb/filepb"
)

// MaxSchemaDepth is the deepest field nesting BuildSchema accepts
// (top-level fields have depth 0).
const MaxSchemaDepth = 64

// Field metadata keys that change how a field is stored.
const (
	PackedKey       = "lance-encoding:packed"
	LegacyPackedKey = "packed"
	BlobKey         = "lance-encoding:blob"
	BlobVersionKey  = "lance-encoding:blob-version"
)

// Field is one field of a Lance schema with its resolved Arrow type and
// column assignment.
type Field struct {
	Name        string
	ID          int32
	ParentID    int32
	LogicalType string
	Nullable    bool
	// Metadata is the stored field metadata, plus ARROW:extension:name when
	// ExtensionName is set.
	Metadata      map[string]string
	ExtensionName string
	// Children are the user-visible child fields (struct members, list
	// item, map entries). Children of a blob v2 field are in BlobDescriptor.
	Children []*Field
	// BlobDescriptor holds the storage descriptor fields of a blob v2
	// field (kind, position, size, blob_id, blob_uri in Lance 8.0.0).
	BlobDescriptor []*Field
	// ArrowType is the user-visible Arrow type.
	ArrowType arrow.DataType
	// Column is the index of the column storing this field, or -1. In 2.1+
	// only leaves, packed structs and blobs have columns; in 2.0 every field
	// except the children of a packed struct has one.
	Column int
	// Packed is true for a struct stored as one packed column.
	Packed bool
	// BlobV1 is true for a binary field stored as a legacy blob.
	BlobV1 bool
	// BlobV2 is true for a blob v2 struct (one column; see BlobDescriptor).
	BlobV2 bool
	// Proto is the stored protobuf field.
	Proto *filepb.Field

	depth int
}

// Schema is the field tree of a Lance file.
type Schema struct {
	Fields   []*Field
	Metadata map[string]string
	// NumColumns is the number of columns the schema implies for Version.
	NumColumns int
	Version    Version

	columns  []*Field
	rowScale []uint64
}

// RowScale returns the number of page rows per file row of column col: 1,
// except below fixed-size lists of structs, whose pages Lance counts in
// items (the product of the lists' dimensions per row). ParseTail divides
// the page lengths of such columns by it, so FileMetadata pages count rows.
func (s *Schema) RowScale(col int) uint64 {
	if s == nil || col < 0 || col >= len(s.rowScale) {
		return 1
	}
	return s.rowScale[col]
}

// ColumnField returns the field stored in column col, or nil.
func (s *Schema) ColumnField(col int) *Field {
	if col < 0 || col >= len(s.columns) {
		return nil
	}
	return s.columns[col]
}

// ArrowSchema returns the user-visible Arrow schema with schema metadata.
func (s *Schema) ArrowSchema() *arrow.Schema {
	fields := make([]arrow.Field, len(s.Fields))
	for i, f := range s.Fields {
		fields[i] = f.ArrowField()
	}
	md := arrow.MetadataFrom(s.Metadata)
	return arrow.NewSchema(fields, &md)
}

// Walk calls fn for every field in pre-order, including blob descriptor
// fields after their blob. It stops descending where fn returns false.
func (s *Schema) Walk(fn func(*Field) bool) {
	for _, f := range s.Fields {
		f.walk(fn)
	}
}

// walk is the recursive part of Schema.Walk.
func (f *Field) walk(fn func(*Field) bool) {
	if !fn(f) {
		return
	}
	for _, c := range f.Children {
		c.walk(fn)
	}
	for _, c := range f.BlobDescriptor {
		c.walk(fn)
	}
}

// ArrowField returns the user-visible Arrow field. For blob v2 the stored
// packed/blob keys are replaced by ARROW:extension:name=lance.blob.v2, which
// is what the writer was given.
func (f *Field) ArrowField() arrow.Field {
	md := f.Metadata
	if f.BlobV2 {
		md = make(map[string]string, len(f.Metadata))
		for k, v := range f.Metadata {
			if k != PackedKey && k != LegacyPackedKey && k != BlobKey && k != BlobVersionKey {
				md[k] = v
			}
		}
		md[ArrowExtensionNameKey] = BlobV2ExtensionName
	}
	af := arrow.Field{Name: f.Name, Type: f.ArrowType, Nullable: f.Nullable}
	if len(md) > 0 {
		af.Metadata = arrow.MetadataFrom(md)
	}
	return af
}

// BuildSchema resolves the flattened, pre-order field list of a stored
// schema into a tree, parses every logical type into Arrow types and
// assigns column indices for file version v. Hostile inputs (duplicate or
// negative ids, unknown or later parents, children of non-nested fields,
// nesting deeper than MaxSchemaDepth, malformed types) give errors
// wrapping ErrCorrupt.
func BuildSchema(pb *filepb.Schema, v Version) (*Schema, error) {
	top, err := linkFields(pb.GetFields())
	if err != nil {
		return nil, err
	}
	s := &Schema{Fields: top, Metadata: stringMap(pb.GetMetadata()), Version: v}
	for _, f := range top {
		if err := f.resolve(); err != nil {
			return nil, err
		}
	}
	if err := s.assignColumns(); err != nil {
		return nil, err
	}
	return s, nil
}

// newField copies a protobuf field and classifies its storage flags.
func newField(p *filepb.Field) *Field {
	f := &Field{
		Name:          p.GetName(),
		ID:            p.GetId(),
		ParentID:      p.GetParentId(),
		LogicalType:   p.GetLogicalType(),
		Nullable:      p.GetNullable(),
		Metadata:      stringMap(p.GetMetadata()),
		ExtensionName: p.GetExtensionName(),
		Column:        -1,
		Proto:         p,
	}
	if f.ExtensionName != "" {
		f.Metadata[ArrowExtensionNameKey] = f.ExtensionName
	}
	_, blob := f.Metadata[BlobKey]
	isStruct := f.LogicalType == logicalStruct
	f.Packed = isStruct && (strings.EqualFold(f.Metadata[PackedKey], "true") ||
		strings.EqualFold(f.Metadata[LegacyPackedKey], "true"))
	f.BlobV2 = isStruct && blob
	f.BlobV1 = blob && isBinaryLike(f.LogicalType)
	return f
}

// isBinaryLike reports string and binary logical types.
func isBinaryLike(lt string) bool {
	switch lt {
	case "string", "large_string", "binary", "large_binary", "json":
		return true
	}
	return false
}

// linker accumulates the field tree while walking the flattened list.
type linker struct {
	byID map[int32]*Field
	top  []*Field
	blob *Field // blob v2 field that id=-1 descriptor fields attach to
}

// linkFields builds the field tree from the flattened pre-order list.
func linkFields(pbs []*filepb.Field) ([]*Field, error) {
	l := &linker{byID: make(map[int32]*Field, len(pbs))}
	for i, p := range pbs {
		if err := l.add(i, newField(p)); err != nil {
			return nil, err
		}
	}
	return l.top, nil
}

// add links field number i into the tree.
func (l *linker) add(i int, f *Field) error {
	if f.ID == -1 && f.ParentID == -1 {
		if l.blob == nil {
			return corruptf("schema field %d (%.64q): id -1 outside a blob v2 descriptor", i, f.Name)
		}
		f.depth = l.blob.depth + 1
		l.blob.BlobDescriptor = append(l.blob.BlobDescriptor, f)
		return nil
	}
	l.blob = nil
	if f.ID < 0 || f.ParentID < -1 {
		return corruptf("schema field %d (%.64q): bad id %d / parent id %d", i, f.Name, f.ID, f.ParentID)
	}
	if _, dup := l.byID[f.ID]; dup {
		return corruptf("schema field %d (%.64q): duplicate id %d", i, f.Name, f.ID)
	}
	if err := l.attach(i, f); err != nil {
		return err
	}
	l.byID[f.ID] = f
	if f.BlobV2 {
		l.blob = f
	}
	return nil
}

// attach adds f to its parent (which must precede it) or to the top level.
func (l *linker) attach(i int, f *Field) error {
	if f.ParentID == -1 {
		l.top = append(l.top, f)
		return nil
	}
	parent, ok := l.byID[f.ParentID]
	if !ok {
		return corruptf("schema field %d (%.64q): parent id %d not defined before it", i, f.Name, f.ParentID)
	}
	if !IsNestedLogicalType(parent.LogicalType) {
		if strings.HasPrefix(parent.LogicalType, "fixed_size_list:struct") || strings.HasPrefix(parent.LogicalType, "fixed_size_list:list") {
			return unsupportedEncodingf("schema field %d (%.64q): %.64q (a fixed-size list of nested values, written by newer Lance versions) is not supported", f.ParentID, parent.Name, parent.LogicalType)
		}
		return corruptf("schema field %d (%.64q): parent %d has non-nested type %.64q", i, f.Name, f.ParentID, parent.LogicalType)
	}
	f.depth = parent.depth + 1
	if f.depth > MaxSchemaDepth {
		return corruptf("schema field %d (%.64q): nesting deeper than %d", i, f.Name, MaxSchemaDepth)
	}
	if parent.BlobV2 {
		parent.BlobDescriptor = append(parent.BlobDescriptor, f)
	} else {
		parent.Children = append(parent.Children, f)
	}
	return nil
}
