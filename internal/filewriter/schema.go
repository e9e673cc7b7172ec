package filewriter

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/format/pb/filepb"
	"github.com/lancego/lancego/internal/lerr"
)

// wleaf is one physical column of the file being written: the Arrow fields
// from its top-level field down to the stored leaf.
type wleaf struct {
	column int
	path   []arrow.Field // top-level field first, leaf last
	// child[i] is the index of path[i+1] among the children of path[i].
	child  []int
	params encodingParams
	packed bool // packed struct stored as one column
	blob   bool // legacy blob (large_binary with lance-encoding:blob)
	blobV2 bool // blob v2 struct<data, uri> (lance.blob.v2 extension)
}

// leafType is the Arrow type stored in the column.
func (l *wleaf) leafType() arrow.DataType { return l.path[len(l.path)-1].Type }

// buildSchemaProto flattens schema into Lance's pre-order field list and
// lists the physical columns of each top-level field.
func buildSchemaProto(schema *arrow.Schema, v format.Version, env func(string) string) ([]*filepb.Field, [][]*wleaf, error) {
	b := &schemaBuilder{version: v, env: env}
	tops := make([][]*wleaf, len(schema.Fields()))
	for i, f := range schema.Fields() {
		b.leaves = nil
		if err := b.add(f, -1, nil, nil); err != nil {
			return nil, nil, err
		}
		tops[i] = b.leaves
	}
	return b.fields, tops, nil
}

// checkFSLItems refuses at Create the fixed-size lists the writer cannot
// store, saying what pylance 14.0.2 does with them. It writes fixed-size
// lists, nested or not, of fixed-width items of whole bytes or of booleans
// (bit-packed, as pylance 14.0.2 does from 2.1 on); and from 2.2
// on one level of fixed-size lists of structs, from 2.3 on under or above
// lists too (written as pylance does, see fslStructRefusal).
func checkFSLItems(f arrow.Field, v format.Version, underList bool) error {
	t, ok := f.Type.(*arrow.FixedSizeListType)
	if !ok {
		return nil
	}
	item, depth := t.Elem(), 1
	for {
		inner, ok := item.(*arrow.FixedSizeListType)
		if !ok {
			break
		}
		item, depth = inner.Elem(), depth+1
	}
	why := ""
	switch item.ID() {
	case arrow.STRUCT:
		why = fslStructRefusal(item, depth, v, underList)
		if why == "" {
			return nil
		}
	case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY, arrow.STRING_VIEW, arrow.BINARY_VIEW:
		why = "variable-width items, which pylance 14.0.2 cannot write either"
	case arrow.LIST, arrow.LARGE_LIST, arrow.MAP:
		why = "pylance 14.0.2 refuses it too"
	case arrow.BOOL: // bit-packed items, as pylance 14.0.2 writes them from 2.1 on
		return nil
	default:
		if w, ok := item.(arrow.FixedWidthDataType); ok && w.BitWidth()%8 == 0 && item.ID() != arrow.DICTIONARY {
			return nil
		}
		why = "only fixed-width items of whole bytes are written"
	}
	return fmt.Errorf("%w: field %q: fixed_size_list of %s: %s", lerr.ErrUnsupportedType, f.Name, item, why)
}

// fslStructRefusal says why a fixed-size list of structs nested depth
// fixed-size lists deep is not written at version v, "" when it is.
// pylance 14.0.2 (measured): refuses them at 2.1 ("FixedSizeList<Struct>
// is not enabled"); refuses deeper ones ("Unsupported data type:
// FixedSizeList"); from 2.2 on writes one level in dense pages (the list as
// an item layer whose levels repeat per child), at 2.3 sparse pages with a
// fixed_size_list layer on request or when its sparse rules say so; under
// a list it panics at 2.2 and with a list inside it writes 2.2 pages it
// cannot read back ("Not yet supported FSL<...List<...>>"); at 2.3 it
// writes both, the leaves below the lists in sparse pages (the fixed-size
// list a repeating layer of its own). This writer does the same.
func fslStructRefusal(item arrow.DataType, depth int, v format.Version, underList bool) string {
	switch {
	case depth > 1:
		return "pylance 14.0.2 refuses it too (\"Unsupported data type: FixedSizeList\")"
	case v < format.V2_2:
		return "needs file version 2.2 (pylance 14.0.2 refuses it at 2.1: \"FixedSizeList<Struct> is not enabled\")"
	case v >= format.V2_3:
		return ""
	case underList:
		return "under a list, needs file version 2.3 (pylance 14.0.2 panics on it at 2.2 and writes it sparse at 2.3)"
	case hasListInside(item):
		return "with a list inside, needs file version 2.3 (pylance 14.0.2 cannot read its own 2.2 pages of it; it writes it sparse at 2.3)"
	}
	return ""
}

// hasListInside reports whether dt holds a list or map at any depth.
func hasListInside(dt arrow.DataType) bool {
	switch t := dt.(type) {
	case *arrow.ListType, *arrow.LargeListType, *arrow.MapType, *arrow.ListViewType, *arrow.LargeListViewType:
		return true
	case *arrow.StructType:
		for _, f := range t.Fields() {
			if hasListInside(f.Type) {
				return true
			}
		}
	case *arrow.FixedSizeListType:
		return hasListInside(t.Elem())
	}
	return false
}

// pathName is the dotted name of f below its ancestors path.
func pathName(path []arrow.Field, f arrow.Field) string {
	var b strings.Builder
	for _, p := range path {
		b.WriteString(p.Name)
		b.WriteByte('.')
	}
	b.WriteString(f.Name)
	return b.String()
}

// underList reports whether a path of ancestors holds a list or map.
func underList(path []arrow.Field) bool {
	for _, p := range path {
		switch p.Type.ID() {
		case arrow.LIST, arrow.LARGE_LIST, arrow.MAP, arrow.LIST_VIEW, arrow.LARGE_LIST_VIEW:
			return true
		}
	}
	return false
}

// schemaBuilder accumulates fields and leaves during flattening.
type schemaBuilder struct {
	version format.Version
	env     func(string) string
	fields  []*filepb.Field
	leaves  []*wleaf
	columns int
}

// add appends f (and its children) with parent id parent.
func (b *schemaBuilder) add(f arrow.Field, parent int32, path []arrow.Field, child []int) error {
	lt, enc, err := logicalType(f.Type)
	if err != nil {
		return fmt.Errorf("field %q: %w", f.Name, err)
	}
	if ext, _ := f.Metadata.GetValue(format.ArrowExtensionNameKey); ext == format.BlobV2ExtensionName {
		return b.addBlobV2(f, parent, path, child)
	}
	if f.Type.ID() == arrow.MAP && b.version < format.V2_2 {
		return fmt.Errorf("%w: field %q: map needs file version 2.2", lerr.ErrUnsupportedType, f.Name)
	}
	named := f
	named.Name = pathName(path, f) // errors name the whole path
	if err := checkFSLItems(named, b.version, underList(path)); err != nil {
		return err
	}
	id := int32(len(b.fields))
	pf := &filepb.Field{Name: f.Name, Id: id, ParentId: parent, LogicalType: lt, Nullable: f.Nullable, Encoding: enc}
	if f.Type.ID() == arrow.DICTIONARY {
		pf.Dictionary = &filepb.Dictionary{}
	}
	pf.Metadata = protoMetadata(f)
	b.fields = append(b.fields, pf)
	path = append(append([]arrow.Field(nil), path...), f)
	if isPackedStruct(f) {
		if err := b.addFieldsOnly(f.Type, id); err != nil {
			return err
		}
		return b.addLeaf(f, path, child)
	}
	if !isNested(f.Type) {
		return b.addLeaf(f, path, child)
	}
	for i, c := range childFields(f.Type) {
		if err := b.add(c, id, path, append(append([]int(nil), child...), i)); err != nil {
			return err
		}
	}
	return nil
}

// addFieldsOnly appends the child fields of a packed struct (they get no
// columns: the struct is stored whole).
func (b *schemaBuilder) addFieldsOnly(dt arrow.DataType, parent int32) error {
	for _, c := range childFields(dt) {
		lt, enc, err := logicalType(c.Type)
		if err != nil {
			return fmt.Errorf("field %q: %w", c.Name, err)
		}
		id := int32(len(b.fields))
		b.fields = append(b.fields, &filepb.Field{Name: c.Name, Id: id, ParentId: parent, LogicalType: lt,
			Nullable: c.Nullable, Encoding: enc, Metadata: protoMetadata(c)})
		if err := b.addFieldsOnly(c.Type, id); err != nil {
			return err
		}
	}
	return nil
}

// protoMetadata converts Arrow field metadata (nil when empty).
func protoMetadata(f arrow.Field) map[string][]byte {
	if !f.HasMetadata() {
		return nil
	}
	md := map[string][]byte{}
	for i, k := range f.Metadata.Keys() {
		md[k] = []byte(f.Metadata.Values()[i])
	}
	return md
}

// addLeaf records a physical column for the last field of path.
func (b *schemaBuilder) addLeaf(f arrow.Field, path []arrow.Field, child []int) error {
	params, err := parseEncodingParams(leafEncodingKeys(f, path), b.env)
	if err != nil {
		return fmt.Errorf("field %q: %w", f.Name, err)
	}
	l := &wleaf{column: b.columns, path: path, child: child, params: params, packed: isPackedStruct(f)}
	// Like pylance 14.0.2: legacy blob pages at 2.1 and 2.2, refused at 2.3
	// ("Lance 2.3 does not write Blob v1 pages").
	if v, _ := f.Metadata.GetValue(format.BlobKey); v == "true" && isLargeBinary(f.Type) {
		if b.version >= format.V2_3 {
			return fmt.Errorf("%w: field %q: file version %s writes no legacy blob (%s) pages; use a blob v2 column", lerr.ErrUnsupportedType, f.Name, b.version, format.BlobKey)
		}
		l.blob = true
	}
	b.columns++
	b.leaves = append(b.leaves, l)
	return nil
}

func isLargeBinary(dt arrow.DataType) bool { return dt.ID() == arrow.LARGE_BINARY }

// leafEncodingKeys gives a leaf the lance-encoding:* settings Lance
// reads for it: the structural choice (structural-encoding) comes from the
// top-level field alone, as Lance's structural encoder is handed the root
// field's metadata (a list's structural-encoding applies to its items; an
// item's own structural-encoding is ignored), while every other key
// (compression, bss, rle-threshold, dict-*, ...) is read from the leaf's
// own field only: a compression key on a list or struct field does not
// reach its children (pylance 14.0.2 checked in TestEncodingKeyMatrix).
func leafEncodingKeys(f arrow.Field, path []arrow.Field) arrow.Field {
	root := f
	if len(path) > 0 {
		root = path[0]
	}
	rootStructural, hasRoot := root.Metadata.GetValue(metaStructural)
	var keys, vals []string
	for i, k := range f.Metadata.Keys() {
		if k != metaStructural {
			keys, vals = append(keys, k), append(vals, f.Metadata.Values()[i])
		}
	}
	if hasRoot {
		keys, vals = append(keys, metaStructural), append(vals, rootStructural)
	}
	out := f
	out.Metadata = arrow.NewMetadata(keys, vals)
	return out
}

// isPackedStruct reports a struct field with lance-encoding:packed=true.
func isPackedStruct(f arrow.Field) bool {
	if f.Type.ID() != arrow.STRUCT {
		return false
	}
	for _, k := range []string{format.PackedKey, format.LegacyPackedKey} {
		if v, ok := f.Metadata.GetValue(k); ok && (v == "true" || v == "1") {
			return true
		}
	}
	return false
}

// isNested reports types whose children get their own fields.
func isNested(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.STRUCT, arrow.LIST, arrow.LARGE_LIST, arrow.MAP:
		return true
	case arrow.FIXED_SIZE_LIST: // of structs (checkFSLItems refuses the rest but primitives)
		return dt.(*arrow.FixedSizeListType).Elem().ID() == arrow.STRUCT
	}
	return false
}

// childFields returns the child fields stored for a nested type.
func childFields(dt arrow.DataType) []arrow.Field {
	switch t := dt.(type) {
	case *arrow.StructType:
		return t.Fields()
	case *arrow.MapType:
		return []arrow.Field{{Name: "entries", Type: t.Elem(), Nullable: false}}
	case *arrow.ListType:
		return []arrow.Field{t.ElemField()}
	case *arrow.LargeListType:
		return []arrow.Field{t.ElemField()}
	case *arrow.FixedSizeListType:
		return []arrow.Field{t.ElemField()}
	}
	return nil
}

// logicalType returns Lance's logical type string and Field.encoding for dt.
func logicalType(dt arrow.DataType) (string, filepb.Encoding, error) {
	plain := filepb.Encoding_PLAIN
	switch t := dt.(type) {
	case *arrow.StructType:
		return "struct", filepb.Encoding_NONE, nil
	case *arrow.MapType:
		return "map", plain, nil
	case *arrow.ListType:
		return listName("list", t.Elem()), plain, nil
	case *arrow.LargeListType:
		return listName("large_list", t.Elem()), plain, nil
	case *arrow.FixedSizeListType:
		inner, _, err := logicalType(t.Elem())
		if err != nil {
			return "", 0, err
		}
		if ext, _ := t.ElemField().Metadata.GetValue(format.ArrowExtensionNameKey); ext == format.BFloat16ExtensionName {
			inner = format.BFloat16ExtensionName
		}
		return "fixed_size_list:" + inner + ":" + strconv.Itoa(int(t.Len())), plain, nil
	case *arrow.DictionaryType:
		v, _, err := logicalType(t.ValueType)
		if err != nil {
			return "", 0, err
		}
		k, _, err := logicalType(t.IndexType)
		if err != nil {
			return "", 0, err
		}
		return "dict:" + v + ":" + k + ":false", filepb.Encoding_DICTIONARY, nil
	}
	s, err := scalarLogicalType(dt)
	if err != nil {
		return "", 0, err
	}
	switch dt.ID() {
	case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY:
		return s, filepb.Encoding_VAR_BINARY, nil
	}
	return s, plain, nil
}

func listName(base string, elem arrow.DataType) string {
	if elem.ID() == arrow.STRUCT {
		return base + ".struct"
	}
	return base
}

// scalarName names non-parameterized Arrow types ("" if dt has parameters).
func scalarName(id arrow.Type) string {
	switch id {
	case arrow.NULL:
		return "null"
	case arrow.BOOL:
		return "bool"
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
		return strings.ToLower(id.String())
	case arrow.FLOAT16:
		return "halffloat"
	case arrow.FLOAT32:
		return "float"
	case arrow.FLOAT64:
		return "double"
	case arrow.STRING:
		return "string"
	case arrow.LARGE_STRING:
		return "large_string"
	case arrow.BINARY:
		return "binary"
	case arrow.LARGE_BINARY:
		return "large_binary"
	case arrow.DATE32:
		return "date32:day"
	case arrow.DATE64:
		return "date64:ms"
	}
	return ""
}

// scalarLogicalType names primitive and temporal types.
func scalarLogicalType(dt arrow.DataType) (string, error) {
	if s := scalarName(dt.ID()); s != "" {
		return s, nil
	}
	switch t := dt.(type) {
	case *arrow.Decimal128Type:
		return fmt.Sprintf("decimal:128:%d:%d", t.Precision, t.Scale), nil
	case *arrow.Decimal256Type:
		return fmt.Sprintf("decimal:256:%d:%d", t.Precision, t.Scale), nil
	case *arrow.FixedSizeBinaryType:
		return "fixed_size_binary:" + strconv.Itoa(t.ByteWidth), nil
	case *arrow.Time32Type:
		return "time32:" + unitName(t.Unit), nil
	case *arrow.Time64Type:
		return "time64:" + unitName(t.Unit), nil
	case *arrow.DurationType:
		return "duration:" + unitName(t.Unit), nil
	case *arrow.TimestampType:
		tz := t.TimeZone
		if tz == "" {
			tz = "-"
		}
		return "timestamp:" + unitName(t.Unit) + ":" + tz, nil
	}
	return "", fmt.Errorf("%w: %s", lerr.ErrUnsupportedType, dt)
}

func unitName(u arrow.TimeUnit) string {
	return [...]string{"s", "ms", "us", "ns"}[u]
}
