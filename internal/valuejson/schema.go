package valuejson

import (
	"github.com/apache/arrow-go/v18/arrow"
)

// Metadata keys Arrow uses to tag extension types.
const (
	extensionNameKey     = "ARROW:extension:name"
	extensionMetadataKey = "ARROW:extension:metadata"
)

// SchemaJSON returns the expected.json "schema" notation of s: one
// OrderedObject per top-level field, in schema order. See FieldJSON.
func SchemaJSON(s *arrow.Schema) []any {
	out := make([]any, s.NumFields())
	for i, f := range s.Fields() {
		out[i] = FieldJSON(f)
	}
	return out
}

// FieldJSON returns the expected.json notation of one field:
// {"name", "type", <type parameters>, "nullable", "metadata", ["children"]}.
// Type names and parameters follow the corpus README table. Types the table
// does not list use these names: decimal32, decimal64, large_list
// (children [item]), list_view, large_list_view, utf8_view, binary_view,
// run_end_encoded (children [run_ends, values]). An extension type is
// written as its storage type, with ARROW:extension:name (and
// ARROW:extension:metadata when not empty) added to the metadata unless the
// field metadata already has them. Unknown types use arrow's DataType.Name.
func FieldJSON(f arrow.Field) OrderedObject {
	typ, meta := unwrapExtension(f.Type, metadataJSON(f.Metadata))
	out := OrderedObject{{"name", f.Name}, {"type", TypeName(typ)}}
	out = append(out, typeParams(typ)...)
	out = append(out, Member{"nullable", f.Nullable}, Member{"metadata", meta})
	if children := childFields(typ); children != nil {
		kids := make([]any, len(children))
		for i, c := range children {
			kids[i] = FieldJSON(c)
		}
		out = append(out, Member{"children", kids})
	}
	return out
}

// metadataJSON converts field metadata to an object, keeping its order.
func metadataJSON(md arrow.Metadata) OrderedObject {
	out := make(OrderedObject, 0, md.Len())
	for i, k := range md.Keys() {
		out = append(out, Member{k, md.Values()[i]})
	}
	return out
}

// unwrapExtension replaces an extension type by its storage type and adds
// the extension tags to meta.
func unwrapExtension(t arrow.DataType, meta OrderedObject) (arrow.DataType, OrderedObject) {
	ext, ok := t.(arrow.ExtensionType)
	if !ok {
		return t, meta
	}
	if _, has := meta.Get(extensionNameKey); !has {
		meta = append(meta, Member{extensionNameKey, ext.ExtensionName()})
	}
	if ser := ext.Serialize(); ser != "" {
		if _, has := meta.Get(extensionMetadataKey); !has {
			meta = append(meta, Member{extensionMetadataKey, ser})
		}
	}
	return unwrapExtension(ext.StorageType(), meta)
}

// TypeName returns the corpus type name of t ("int32", "utf8",
// "fixed_size_list", "decimal128", ...). Extension types give the name of
// their storage type.
func TypeName(t arrow.DataType) string {
	if ext, ok := t.(arrow.ExtensionType); ok {
		return TypeName(ext.StorageType())
	}
	if name := primitiveName(t.ID()); name != "" {
		return name
	}
	if name := parametricName(t.ID()); name != "" {
		return name
	}
	return t.Name()
}

// primitiveName names the types without parameters.
func primitiveName(id arrow.Type) string {
	switch id {
	case arrow.NULL:
		return "null"
	case arrow.BOOL:
		return "bool"
	case arrow.INT8:
		return "int8"
	case arrow.INT16:
		return "int16"
	case arrow.INT32:
		return "int32"
	case arrow.INT64:
		return "int64"
	case arrow.UINT8:
		return "uint8"
	case arrow.UINT16:
		return "uint16"
	case arrow.UINT32:
		return "uint32"
	case arrow.UINT64:
		return "uint64"
	case arrow.FLOAT16:
		return "float16"
	case arrow.FLOAT32:
		return "float32"
	case arrow.FLOAT64:
		return "float64"
	case arrow.STRING:
		return "utf8"
	case arrow.LARGE_STRING:
		return "large_utf8"
	case arrow.STRING_VIEW:
		return "utf8_view"
	case arrow.BINARY:
		return "binary"
	case arrow.LARGE_BINARY:
		return "large_binary"
	case arrow.BINARY_VIEW:
		return "binary_view"
	case arrow.DATE32:
		return "date32"
	case arrow.DATE64:
		return "date64"
	}
	return ""
}

// parametricName names the types with parameters or children.
func parametricName(id arrow.Type) string {
	switch id {
	case arrow.FIXED_SIZE_BINARY:
		return "fixed_size_binary"
	case arrow.DECIMAL32:
		return "decimal32"
	case arrow.DECIMAL64:
		return "decimal64"
	case arrow.DECIMAL128:
		return "decimal128"
	case arrow.DECIMAL256:
		return "decimal256"
	case arrow.TIME32:
		return "time32"
	case arrow.TIME64:
		return "time64"
	case arrow.TIMESTAMP:
		return "timestamp"
	case arrow.DURATION:
		return "duration"
	case arrow.LIST:
		return "list"
	case arrow.LARGE_LIST:
		return "large_list"
	case arrow.LIST_VIEW:
		return "list_view"
	case arrow.LARGE_LIST_VIEW:
		return "large_list_view"
	case arrow.FIXED_SIZE_LIST:
		return "fixed_size_list"
	case arrow.STRUCT:
		return "struct"
	case arrow.MAP:
		return "map"
	case arrow.DICTIONARY:
		return "dictionary"
	case arrow.RUN_END_ENCODED:
		return "run_end_encoded"
	}
	return ""
}

// typeParams returns the extra keys of parametric types, in the corpus order.
func typeParams(t arrow.DataType) OrderedObject {
	switch tt := t.(type) {
	case *arrow.FixedSizeBinaryType:
		return OrderedObject{{"byte_width", int64(tt.ByteWidth)}}
	case arrow.DecimalType:
		return OrderedObject{{"precision", int64(tt.GetPrecision())}, {"scale", int64(tt.GetScale())}}
	case *arrow.Time32Type:
		return OrderedObject{{"unit", tt.Unit.String()}}
	case *arrow.Time64Type:
		return OrderedObject{{"unit", tt.Unit.String()}}
	case *arrow.DurationType:
		return OrderedObject{{"unit", tt.Unit.String()}}
	case *arrow.TimestampType:
		return OrderedObject{{"unit", tt.Unit.String()}, {"timezone", timezone(tt.TimeZone)}}
	case *arrow.FixedSizeListType:
		return OrderedObject{{"list_size", int64(tt.Len())}}
	case *arrow.MapType:
		return OrderedObject{{"keys_sorted", tt.KeysSorted}}
	case *arrow.DictionaryType:
		return OrderedObject{{"index_type", TypeName(tt.IndexType)}, {"value_type", TypeName(tt.ValueType)}}
	}
	return nil
}

// timezone is the timestamp timezone, or nil when empty.
func timezone(tz string) any {
	if tz == "" {
		return nil
	}
	return tz
}

// childFields returns the children of nested types, nil for others.
func childFields(t arrow.DataType) []arrow.Field {
	switch tt := t.(type) {
	case *arrow.MapType:
		return []arrow.Field{tt.ElemField()}
	case arrow.ListLikeType:
		return []arrow.Field{tt.ElemField()}
	case *arrow.StructType:
		return tt.Fields()
	case *arrow.RunEndEncodedType:
		return tt.Fields()
	}
	return nil
}
