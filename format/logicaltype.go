package format

import (
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// Arrow extension metadata keys and extension names used by Lance.
const (
	ArrowExtensionNameKey     = "ARROW:extension:name"
	ArrowExtensionMetadataKey = "ARROW:extension:metadata"
	BFloat16ExtensionName     = "lance.bfloat16"
	BlobV2ExtensionName       = "lance.blob.v2"
)

// maxLogicalTypeDepth bounds the nesting of fixed_size_list/dict logical
// type strings.
const maxLogicalTypeDepth = 32

// Nested logical types. Their Arrow type depends on child fields.
const (
	logicalStruct          = "struct"
	logicalList            = "list"
	logicalLargeList       = "large_list"
	logicalListStruct      = "list.struct"
	logicalLargeListStruct = "large_list.struct"
	logicalMap             = "map"
)

// logicalFSLStruct prefixes the logical type of a fixed-size list of
// structs, fixed_size_list:struct:n, whose item is a child field (newer
// Lance writes them at 2.3; its 2.1 refuses them).
const logicalFSLStruct = "fixed_size_list:struct:"

// IsNestedLogicalType reports whether lt (struct, list, large_list,
// list.struct, large_list.struct, map or fixed_size_list:struct:n) needs
// child fields to resolve.
func IsNestedLogicalType(lt string) bool {
	switch lt {
	case logicalStruct, logicalList, logicalLargeList, logicalListStruct, logicalLargeListStruct, logicalMap:
		return true
	}
	return strings.HasPrefix(lt, logicalFSLStruct)
}

// nestedFSLDim returns n of fixed_size_list:struct:n (ok false if lt is
// not one or n is not in [1, MaxInt32]).
func nestedFSLDim(lt string) (int32, bool) {
	rest, ok := strings.CutPrefix(lt, logicalFSLStruct)
	if !ok {
		return 0, false
	}
	n, err := parsePositiveInt32(rest)
	return n, err == nil
}

// primitiveLogicalType maps the parameterless logical type strings.
func primitiveLogicalType(lt string) arrow.DataType {
	switch lt {
	case "null":
		return arrow.Null
	case "bool":
		return arrow.FixedWidthTypes.Boolean
	case "int8":
		return arrow.PrimitiveTypes.Int8
	case "uint8":
		return arrow.PrimitiveTypes.Uint8
	case "int16":
		return arrow.PrimitiveTypes.Int16
	case "uint16":
		return arrow.PrimitiveTypes.Uint16
	case "int32":
		return arrow.PrimitiveTypes.Int32
	case "uint32":
		return arrow.PrimitiveTypes.Uint32
	case "int64":
		return arrow.PrimitiveTypes.Int64
	case "uint64":
		return arrow.PrimitiveTypes.Uint64
	case "halffloat":
		return arrow.FixedWidthTypes.Float16
	case "float":
		return arrow.PrimitiveTypes.Float32
	case "double":
		return arrow.PrimitiveTypes.Float64
	case "string":
		return arrow.BinaryTypes.String
	case "binary":
		return arrow.BinaryTypes.Binary
	case "large_string":
		return arrow.BinaryTypes.LargeString
	case "large_binary", "json":
		return arrow.BinaryTypes.LargeBinary
	case "date32:day":
		return arrow.FixedWidthTypes.Date32
	case "date64:ms":
		return arrow.FixedWidthTypes.Date64
	}
	return nil
}

// ParseLogicalType converts a non-nested Lance logical type string to its
// Arrow type: primitives, decimal:{128,256}:p:s, date/time/timestamp/
// duration, fixed_size_binary:n, fixed_size_list:<elem>:n (elem may itself
// contain colons, or be lance.bfloat16) and dict:<value>:<key>:<ordered>.
// Nested types (see IsNestedLogicalType) and unknown strings give an error
// wrapping ErrCorrupt.
func ParseLogicalType(lt string) (arrow.DataType, error) {
	t, err := parseLogicalType(lt, 0)
	if err != nil {
		return nil, corruptWrap(err, "logical type %.64q", lt)
	}
	return t, nil
}

// parseLogicalType is ParseLogicalType with a nesting depth.
func parseLogicalType(lt string, depth int) (arrow.DataType, error) {
	if depth > maxLogicalTypeDepth {
		return nil, logicalTypeError("nested too deeply")
	}
	if t := primitiveLogicalType(lt); t != nil {
		return t, nil
	}
	if IsNestedLogicalType(lt) {
		return nil, logicalTypeError(lt + " needs child fields")
	}
	parts := strings.Split(lt, ":")
	switch parts[0] {
	case "time32", "time64", "duration":
		return parseTimeType(parts)
	case "timestamp":
		return parseTimestamp(parts)
	case "decimal":
		return parseDecimal(parts)
	case "fixed_size_binary":
		return parseFixedSizeBinary(parts)
	case "fixed_size_list":
		return parseFixedSizeList(parts, depth)
	case "dict":
		return parseDict(parts, depth)
	}
	return nil, errBadLogicalType
}

// logicalTypeError is a parse failure inside a logical type string.
type logicalTypeError string

// Error implements error.
func (e logicalTypeError) Error() string { return string(e) }

// errBadLogicalType marks an unrecognized logical type string.
const errBadLogicalType = logicalTypeError("unknown or malformed logical type")

// parseTimeUnit parses s, ms, us or ns.
func parseTimeUnit(s string) (arrow.TimeUnit, error) {
	switch s {
	case "s":
		return arrow.Second, nil
	case "ms":
		return arrow.Millisecond, nil
	case "us":
		return arrow.Microsecond, nil
	case "ns":
		return arrow.Nanosecond, nil
	}
	return 0, logicalTypeError("bad time unit " + strconv.Quote(s))
}

// parseTimeType parses time32:{s,ms}, time64:{us,ns} and duration:unit.
func parseTimeType(parts []string) (arrow.DataType, error) {
	if len(parts) != 2 {
		return nil, errBadLogicalType
	}
	u, err := parseTimeUnit(parts[1])
	if err != nil {
		return nil, err
	}
	switch {
	case parts[0] == "duration":
		return &arrow.DurationType{Unit: u}, nil
	case parts[0] == "time32" && u <= arrow.Millisecond:
		return &arrow.Time32Type{Unit: u}, nil
	case parts[0] == "time64" && u >= arrow.Microsecond:
		return &arrow.Time64Type{Unit: u}, nil
	}
	return nil, logicalTypeError("bad unit for " + parts[0])
}

// parseTimestamp parses timestamp:unit:tz where tz "-" means none. A time
// zone containing ':' (e.g. "+05:30") is accepted.
func parseTimestamp(parts []string) (arrow.DataType, error) {
	if len(parts) < 3 {
		return nil, errBadLogicalType
	}
	u, err := parseTimeUnit(parts[1])
	if err != nil {
		return nil, err
	}
	tz := strings.Join(parts[2:], ":")
	if tz == "-" {
		tz = ""
	}
	return &arrow.TimestampType{Unit: u, TimeZone: tz}, nil
}

// parseDecimal parses decimal:{128,256}:precision:scale.
func parseDecimal(parts []string) (arrow.DataType, error) {
	if len(parts) != 4 {
		return nil, errBadLogicalType
	}
	p, err1 := strconv.ParseUint(parts[2], 10, 8)
	s, err2 := strconv.ParseInt(parts[3], 10, 8)
	if err1 != nil || err2 != nil || p == 0 {
		return nil, logicalTypeError("bad decimal precision or scale")
	}
	switch {
	case parts[1] == "128" && p <= 38:
		return &arrow.Decimal128Type{Precision: int32(p), Scale: int32(s)}, nil
	case parts[1] == "256" && p <= 76:
		return &arrow.Decimal256Type{Precision: int32(p), Scale: int32(s)}, nil
	}
	return nil, logicalTypeError("bad decimal width or precision")
}

// parsePositiveInt32 parses a size in [1, MaxInt32].
func parsePositiveInt32(s string) (int32, error) {
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil || n <= 0 {
		return 0, logicalTypeError("bad size " + strconv.Quote(s))
	}
	return int32(n), nil
}

// parseFixedSizeBinary parses fixed_size_binary:n.
func parseFixedSizeBinary(parts []string) (arrow.DataType, error) {
	if len(parts) != 2 {
		return nil, errBadLogicalType
	}
	n, err := parsePositiveInt32(parts[1])
	if err != nil {
		return nil, err
	}
	return &arrow.FixedSizeBinaryType{ByteWidth: int(n)}, nil
}

// parseFixedSizeList parses fixed_size_list:<elem>:n; the item field is
// named "item" and nullable, as Lance does.
func parseFixedSizeList(parts []string, depth int) (arrow.DataType, error) {
	if len(parts) < 3 {
		return nil, errBadLogicalType
	}
	n, err := parsePositiveInt32(parts[len(parts)-1])
	if err != nil {
		return nil, err
	}
	elem := strings.Join(parts[1:len(parts)-1], ":")
	item := arrow.Field{Name: "item", Nullable: true}
	if elem == BFloat16ExtensionName {
		item.Type = &arrow.FixedSizeBinaryType{ByteWidth: 2}
		item.Metadata = arrow.NewMetadata(
			[]string{ArrowExtensionNameKey, ArrowExtensionMetadataKey},
			[]string{BFloat16ExtensionName, ""})
	} else if item.Type, err = parseLogicalType(elem, depth+1); err != nil {
		return nil, err
	}
	return arrow.FixedSizeListOfField(n, item), nil
}

// parseDict parses dict:<value>:<key>:<ordered>; value may contain colons.
func parseDict(parts []string, depth int) (arrow.DataType, error) {
	if len(parts) < 4 {
		return nil, errBadLogicalType
	}
	n := len(parts)
	key, err := parseLogicalType(parts[n-2], depth+1)
	if err != nil {
		return nil, err
	}
	if !arrow.IsInteger(key.ID()) {
		return nil, logicalTypeError("dictionary key type is not an integer")
	}
	value, err := parseLogicalType(strings.Join(parts[1:n-2], ":"), depth+1)
	if err != nil {
		return nil, err
	}
	ordered, err := strconv.ParseBool(parts[n-1])
	if err != nil {
		return nil, logicalTypeError("bad dictionary ordered flag")
	}
	return &arrow.DictionaryType{IndexType: key, ValueType: value, Ordered: ordered}, nil
}
