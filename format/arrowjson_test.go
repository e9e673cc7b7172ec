package format

import (
	"encoding/json"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// arrowTypeNames maps Arrow type ids to the corpus expected.json names.
var arrowTypeNames = map[arrow.Type]string{
	arrow.NULL: "null", arrow.BOOL: "bool",
	arrow.INT8: "int8", arrow.INT16: "int16", arrow.INT32: "int32", arrow.INT64: "int64",
	arrow.UINT8: "uint8", arrow.UINT16: "uint16", arrow.UINT32: "uint32", arrow.UINT64: "uint64",
	arrow.FLOAT16: "float16", arrow.FLOAT32: "float32", arrow.FLOAT64: "float64",
	arrow.STRING: "utf8", arrow.LARGE_STRING: "large_utf8", arrow.BINARY: "binary",
	arrow.LARGE_BINARY: "large_binary", arrow.DATE32: "date32", arrow.DATE64: "date64",
	arrow.FIXED_SIZE_BINARY: "fixed_size_binary", arrow.DECIMAL128: "decimal128",
	arrow.DECIMAL256: "decimal256", arrow.TIME32: "time32", arrow.TIME64: "time64",
	arrow.DURATION: "duration", arrow.TIMESTAMP: "timestamp", arrow.LIST: "list",
	arrow.LARGE_LIST: "large_list", arrow.FIXED_SIZE_LIST: "fixed_size_list",
	arrow.STRUCT: "struct", arrow.MAP: "map", arrow.DICTIONARY: "dictionary",
}

// arrowFieldJSON renders an Arrow field in the corpus expected.json notation.
func arrowFieldJSON(f arrow.Field) map[string]any {
	out := map[string]any{
		"name":     f.Name,
		"nullable": f.Nullable,
		"metadata": f.Metadata.ToMap(),
	}
	addTypeJSON(out, f.Type)
	return out
}

// addTypeJSON adds "type" and the type's extra keys to out.
func addTypeJSON(out map[string]any, t arrow.DataType) {
	out["type"] = arrowTypeNames[t.ID()]
	switch t := t.(type) {
	case *arrow.FixedSizeBinaryType:
		out["byte_width"] = t.ByteWidth
	case *arrow.Decimal128Type:
		out["precision"], out["scale"] = t.Precision, t.Scale
	case *arrow.Decimal256Type:
		out["precision"], out["scale"] = t.Precision, t.Scale
	case *arrow.Time32Type:
		out["unit"] = t.Unit.String()
	case *arrow.Time64Type:
		out["unit"] = t.Unit.String()
	case *arrow.DurationType:
		out["unit"] = t.Unit.String()
	case *arrow.TimestampType:
		out["unit"] = t.Unit.String()
		out["timezone"] = nil
		if t.TimeZone != "" {
			out["timezone"] = t.TimeZone
		}
	case *arrow.FixedSizeListType:
		out["list_size"] = t.Len()
		out["children"] = []any{arrowFieldJSON(t.ElemField())}
	case *arrow.MapType:
		out["keys_sorted"] = t.KeysSorted
		out["children"] = []any{arrowFieldJSON(t.ElemField())}
	case arrow.ListLikeType:
		out["children"] = []any{arrowFieldJSON(t.ElemField())}
	case *arrow.StructType:
		children := make([]any, t.NumFields())
		for i, c := range t.Fields() {
			children[i] = arrowFieldJSON(c)
		}
		out["children"] = children
	case *arrow.DictionaryType:
		out["index_type"] = arrowTypeNames[t.IndexType.ID()]
		out["value_type"] = arrowTypeNames[t.ValueType.ID()]
	}
}

// normalizeJSON round-trips v through encoding/json so values compare with
// reflect.DeepEqual regardless of their Go types.
func normalizeJSON(t testing.TB, v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
