package expr

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	sub "github.com/substrait-io/substrait-protobuf/go/substraitpb"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// Substrait import. Query engines push filters as a Substrait
// ExtendedExpression (pyarrow's Expression.to_substrait, lance-c, the
// Rust scanner, Trino): FromSubstrait turns one into Exprs, which Bind
// then resolves like any other tree. Field references are positions in
// the expression's base schema and become columns by name; literals keep
// their exact Substrait type (Const); functions are matched by their
// standard Substrait names (the part of the declared name before ':').
//
// The message is read with the generated protobuf types of
// substrait-protobuf. substrait-go's own expression layer
// (expr.ExtendedFromProto) is not used: version 8 resolves functions only
// through extension URNs, and the producers that matter here (pyarrow /
// Acero 26) still declare them by URI, which it refuses.

// maxSubstraitDepth bounds the nesting FromSubstrait follows.
const maxSubstraitDepth = 256

// FromSubstrait decodes a serialized Substrait ExtendedExpression and
// returns its expressions (most producers send one) with their output
// names. Errors wrap ErrSyntax (bad bytes, unknown references) or
// ErrUnsupported (a function or literal kind with no counterpart here).
func FromSubstrait(data []byte) ([]Expr, []string, error) {
	var m sub.ExtendedExpression
	if err := proto.Unmarshal(data, &m); err != nil {
		return nil, nil, fmt.Errorf("%w: substrait: %w", ErrSyntax, err)
	}
	c := &subConv{funcs: map[uint32]string{}, types: map[uint32]string{}, mem: memory.DefaultAllocator}
	for _, ext := range m.GetExtensions() {
		if f := ext.GetExtensionFunction(); f != nil {
			name, _, _ := strings.Cut(f.GetName(), ":")
			c.funcs[f.GetFunctionAnchor()] = strings.ToLower(name)
		}
		if t := ext.GetExtensionType(); t != nil {
			c.types[t.GetTypeAnchor()] = t.GetName()
		}
	}
	c.names = topLevelNames(m.GetBaseSchema())
	var out []Expr
	var names []string
	for i, r := range m.GetReferredExpr() {
		e := r.GetExpression()
		if e == nil {
			return nil, nil, fmt.Errorf("%w: substrait: referred expression %d is not a scalar expression", ErrUnsupported, i)
		}
		x, err := c.expr(e, 0)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, x)
		name := ""
		if on := r.GetOutputNames(); len(on) > 0 {
			name = on[0]
		}
		names = append(names, name)
	}
	if len(out) == 0 {
		return nil, nil, fmt.Errorf("%w: substrait: no expression", ErrSyntax)
	}
	return out, names, nil
}

// FilterFromSubstrait is FromSubstrait for a filter: the conjunction of
// the message's expressions.
func FilterFromSubstrait(data []byte) (Expr, error) {
	es, _, err := FromSubstrait(data)
	if err != nil {
		return nil, err
	}
	return And(es...), nil
}

// topLevelNames returns the names of the base schema's top-level fields
// (NamedStruct lists every field name depth first).
func topLevelNames(ns *sub.NamedStruct) []string {
	if ns == nil || ns.GetStruct() == nil {
		return nil
	}
	all := ns.GetNames()
	var out []string
	at := 0
	for _, t := range ns.GetStruct().GetTypes() {
		if at >= len(all) {
			break
		}
		out = append(out, all[at])
		at += 1 + nestedNames(t, 0)
	}
	return out
}

// nestedNames counts the names a type's nested struct fields take.
func nestedNames(t *sub.Type, depth int) int {
	if t == nil || depth > maxSubstraitDepth {
		return 0
	}
	switch k := t.GetKind().(type) {
	case *sub.Type_Struct_:
		n := 0
		for _, c := range k.Struct.GetTypes() {
			n += 1 + nestedNames(c, depth+1)
		}
		return n
	case *sub.Type_List_:
		return nestedNames(k.List.GetType(), depth+1)
	case *sub.Type_Map_:
		return nestedNames(k.Map.GetKey(), depth+1) + nestedNames(k.Map.GetValue(), depth+1)
	}
	return 0
}

// subConv converts Substrait expressions.
type subConv struct {
	funcs map[uint32]string
	types map[uint32]string // user-defined type anchors: Arrow's u8, u16, u32, u64
	names []string
	mem   memory.Allocator
}

func (c *subConv) expr(e *sub.Expression, depth int) (Expr, error) {
	if depth > maxSubstraitDepth {
		return nil, fmt.Errorf("%w: substrait expression nested deeper than %d levels", ErrSyntax, maxSubstraitDepth)
	}
	switch x := e.GetRexType().(type) {
	case *sub.Expression_Literal_:
		return c.literal(x.Literal)
	case *sub.Expression_Selection:
		return c.field(x.Selection)
	case *sub.Expression_ScalarFunction_:
		return c.call(x.ScalarFunction, depth)
	case *sub.Expression_SingularOrList_:
		v, err := c.expr(x.SingularOrList.GetValue(), depth+1)
		if err != nil {
			return nil, err
		}
		var items []Expr
		for _, o := range x.SingularOrList.GetOptions() {
			it, err := c.expr(o, depth+1)
			if err != nil {
				return nil, err
			}
			items = append(items, it)
		}
		if len(items) == 0 {
			return &Literal{Kind: LitBool, At: -1}, nil
		}
		return In(v, items...), nil
	case *sub.Expression_Cast_:
		in, err := c.expr(x.Cast.GetInput(), depth+1)
		if err != nil {
			return nil, err
		}
		t, err := c.subType(x.Cast.GetType(), 0)
		if err != nil {
			return nil, err
		}
		try := x.Cast.GetFailureBehavior() == sub.Expression_Cast_FAILURE_BEHAVIOR_RETURN_NULL
		return &Cast{X: in, Type: t, Try: try, At: -1}, nil
	case nil:
		return nil, fmt.Errorf("%w: substrait: empty expression", ErrSyntax)
	}
	return nil, fmt.Errorf("%w: substrait expression %T", ErrUnsupported, e.GetRexType())
}

// field converts a direct field reference from the root.
func (c *subConv) field(r *sub.Expression_FieldReference) (Expr, error) {
	if r.GetRootReference() == nil {
		return nil, fmt.Errorf("%w: substrait: only field references from the root are supported", ErrUnsupported)
	}
	seg := r.GetDirectReference().GetStructField()
	if seg == nil {
		return nil, fmt.Errorf("%w: substrait: only struct field references are supported", ErrUnsupported)
	}
	i := int(seg.GetField())
	if i < 0 || i >= len(c.names) {
		return nil, fmt.Errorf("%w: substrait: field %d is outside the base schema (%d fields)", ErrSyntax, i, len(c.names))
	}
	var e Expr = Col(c.names[i])
	return e, c.childFields(&e, seg.GetChild(), 0)
}

// childFields appends nested struct field references to e. A child is
// named by position, resolved at Bind through the FieldIndex node.
func (c *subConv) childFields(e *Expr, seg *sub.Expression_ReferenceSegment, depth int) error {
	for ; seg != nil; depth++ {
		if depth > maxSubstraitDepth {
			return fmt.Errorf("%w: substrait field reference too deep", ErrSyntax)
		}
		sf := seg.GetStructField()
		if sf == nil {
			return fmt.Errorf("%w: substrait: only struct field references are supported", ErrUnsupported)
		}
		*e = &FieldIndex{X: *e, Index: int(sf.GetField()), At: -1}
		seg = sf.GetChild()
	}
	return nil
}

// substraitOps maps Substrait comparison and arithmetic names to operators.
var substraitOps = map[string]BinaryOp{
	"equal": OpEq, "not_equal": OpNotEq, "lt": OpLt, "lte": OpLtEq, "gt": OpGt, "gte": OpGtEq,
	"is_distinct_from": OpIsDistinctFrom, "is_not_distinct_from": OpIsNotDistinctFrom,
	"add": OpPlus, "subtract": OpMinus, "multiply": OpMul, "divide": OpDiv, "modulus": OpMod,
	"concat": OpConcat, "shift_left": OpShiftLeft, "shift_right": OpShiftRight,
}

// substraitFuncs renames Substrait functions to the dialect's.
var substraitFuncs = map[string]string{
	"is_nan": "isnan", "char_length": "character_length", "sign": "signum", "logb": "log",
	"power": "power", "sqrt": "sqrt", "abs": "abs", "exp": "exp", "ln": "ln", "log10": "log10",
	"round": "round", "lower": "lower", "upper": "upper", "starts_with": "starts_with",
	"ends_with": "ends_with", "contains": "contains", "strpos": "strpos", "coalesce": "coalesce",
	"replace": "replace", "ltrim": "ltrim", "rtrim": "rtrim", "trim": "btrim", "reverse": "reverse",
	"repeat": "repeat", "left": "left", "right": "right", "lpad": "lpad", "rpad": "rpad",
	"regexp_match_substring": "regexp_match", "nullif": "nullif", "greatest": "greatest", "least": "least",
}

// call converts a scalar function.
func (c *subConv) call(f *sub.Expression_ScalarFunction, depth int) (Expr, error) {
	name, ok := c.funcs[f.GetFunctionReference()]
	if !ok {
		return nil, fmt.Errorf("%w: substrait: function reference %d is not declared", ErrSyntax, f.GetFunctionReference())
	}
	var args []Expr
	for _, a := range f.GetArguments() {
		v := a.GetValue()
		if v == nil {
			continue // enum options (e.g. overflow behaviour) keep our defaults
		}
		x, err := c.expr(v, depth+1)
		if err != nil {
			return nil, err
		}
		args = append(args, x)
	}
	need := func(n int) error {
		if len(args) != n {
			return fmt.Errorf("%w: substrait function %s takes %d arguments, got %d", ErrSyntax, name, n, len(args))
		}
		return nil
	}
	if op, ok := substraitOps[name]; ok {
		if err := need(2); err != nil {
			return nil, err
		}
		return Op(op, args[0], args[1]), nil
	}
	switch name {
	case "and", "or":
		if name == "and" {
			return And(args...), nil
		}
		return Or(args...), nil
	case "not", "negate", "is_null", "is_not_null", "is_true", "is_false", "is_not_true", "is_not_false":
		if err := need(1); err != nil {
			return nil, err
		}
		switch name {
		case "not":
			return NotOf(args[0]), nil
		case "negate":
			return &Neg{X: args[0], At: -1}, nil
		}
		test := map[string]IsTest{"is_null": IsNull, "is_not_null": IsNotNull, "is_true": IsTrue,
			"is_false": IsFalse, "is_not_true": IsNotTrue, "is_not_false": IsNotFalse}[name]
		return &Is{X: args[0], Test: test, At: -1}, nil
	case "xor":
		if err := need(2); err != nil {
			return nil, err
		}
		return NotEq(args[0], args[1]), nil
	case "and_not":
		if err := need(2); err != nil {
			return nil, err
		}
		return And(args[0], NotOf(args[1])), nil
	case "between":
		if err := need(3); err != nil {
			return nil, err
		}
		return BetweenOf(args[0], args[1], args[2]), nil
	case "like", "ilike":
		if err := need(2); err != nil {
			return nil, err
		}
		return &Like{X: args[0], Pattern: args[1], CaseInsensitive: name == "ilike", At: -1}, nil
	}
	if n, ok := substraitFuncs[name]; ok {
		return Fn(n, args...), nil
	}
	return nil, fmt.Errorf("%w: substrait function %q", ErrUnsupported, name)
}

// literal converts a literal to an exactly typed constant.
func (c *subConv) literal(l *sub.Expression_Literal) (Expr, error) {
	mem := c.mem
	switch v := l.GetLiteralType().(type) {
	case *sub.Expression_Literal_Boolean:
		return Typed(boolArray(mem, v.Boolean)), nil
	case *sub.Expression_Literal_I8:
		return Typed(intArray(mem, arrow.PrimitiveTypes.Int8, int64(int8(v.I8)))), nil
	case *sub.Expression_Literal_I16:
		return Typed(intArray(mem, arrow.PrimitiveTypes.Int16, int64(int16(v.I16)))), nil
	case *sub.Expression_Literal_I32:
		return Typed(intArray(mem, arrow.PrimitiveTypes.Int32, int64(v.I32))), nil
	case *sub.Expression_Literal_I64:
		return Typed(intArray(mem, arrow.PrimitiveTypes.Int64, v.I64)), nil
	case *sub.Expression_Literal_Fp32:
		return Typed(floatTo(mem, float64(v.Fp32), arrow.PrimitiveTypes.Float32)), nil
	case *sub.Expression_Literal_Fp64:
		return Typed(floatTo(mem, v.Fp64, arrow.PrimitiveTypes.Float64)), nil
	case *sub.Expression_Literal_String_:
		return Typed(stringArray(mem, arrow.BinaryTypes.String, v.String_)), nil
	case *sub.Expression_Literal_VarChar_:
		return Typed(stringArray(mem, arrow.BinaryTypes.String, v.VarChar.GetValue())), nil
	case *sub.Expression_Literal_FixedChar:
		return Typed(stringArray(mem, arrow.BinaryTypes.String, v.FixedChar)), nil
	case *sub.Expression_Literal_Binary:
		return Typed(binaryArray(mem, arrow.BinaryTypes.Binary, v.Binary)), nil
	case *sub.Expression_Literal_FixedBinary:
		return Typed(binaryArray(mem, &arrow.FixedSizeBinaryType{ByteWidth: len(v.FixedBinary)}, v.FixedBinary)), nil
	case *sub.Expression_Literal_Date:
		b := array.NewDate32Builder(mem)
		defer b.Release()
		b.Append(arrow.Date32(v.Date))
		return Typed(b.NewArray()), nil
	case *sub.Expression_Literal_PrecisionTimestamp_:
		t, err := timestampType(v.PrecisionTimestamp.GetPrecision())
		if err != nil {
			return nil, err
		}
		b := array.NewTimestampBuilder(mem, t)
		defer b.Release()
		b.Append(arrow.Timestamp(v.PrecisionTimestamp.GetValue()))
		return Typed(b.NewArray()), nil
	case *sub.Expression_Literal_Timestamp:
		b := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Microsecond})
		defer b.Release()
		//lint:ignore SA1019 producers built before precision_timestamp still send this literal; it is microseconds.
		b.Append(arrow.Timestamp(v.Timestamp))
		return Typed(b.NewArray()), nil
	case *sub.Expression_Literal_Decimal_:
		d := v.Decimal
		if len(d.GetValue()) != 16 || d.GetPrecision() < 1 || d.GetPrecision() > 38 || d.GetScale() < 0 || d.GetScale() > d.GetPrecision() {
			return nil, fmt.Errorf("%w: substrait decimal literal (precision %d, scale %d, %d bytes)", ErrSyntax, d.GetPrecision(), d.GetScale(), len(d.GetValue()))
		}
		lo := binary.LittleEndian.Uint64(d.GetValue()[:8])
		hi := int64(binary.LittleEndian.Uint64(d.GetValue()[8:]))
		b := array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: d.GetPrecision(), Scale: d.GetScale()})
		defer b.Release()
		b.Append(decimal128.New(hi, lo))
		return Typed(b.NewArray()), nil
	case *sub.Expression_Literal_UserDefined_:
		return c.userLiteral(v.UserDefined)
	case *sub.Expression_Literal_Null:
		t, err := c.subType(v.Null, 0)
		if err != nil {
			return nil, err
		}
		return &Const{Value: nullOf(mem, t), At: -1}, nil
	}
	return nil, fmt.Errorf("%w: substrait literal %T", ErrUnsupported, l.GetLiteralType())
}

// unsignedTypes are Arrow's Substrait extension types for unsigned
// integers (format/substrait/extension_types.yaml).
var unsignedTypes = map[string]arrow.DataType{
	"u8": arrow.PrimitiveTypes.Uint8, "u16": arrow.PrimitiveTypes.Uint16,
	"u32": arrow.PrimitiveTypes.Uint32, "u64": arrow.PrimitiveTypes.Uint64,
}

// userLiteral converts a literal of a user-defined type: Arrow's
// unsigned integers, whose value is a google.protobuf.UInt32Value or
// UInt64Value.
func (c *subConv) userLiteral(u *sub.Expression_Literal_UserDefined) (Expr, error) {
	name := c.types[u.GetTypeReference()]
	t, ok := unsignedTypes[name]
	if !ok {
		return nil, fmt.Errorf("%w: substrait literal of user-defined type %q", ErrUnsupported, name)
	}
	var v uint64
	switch any := u.GetValue(); {
	case any == nil:
		return nil, fmt.Errorf("%w: substrait %s literal without a value", ErrSyntax, name)
	case strings.HasSuffix(any.GetTypeUrl(), "google.protobuf.UInt64Value"):
		var w wrapperspb.UInt64Value
		if err := any.UnmarshalTo(&w); err != nil {
			return nil, fmt.Errorf("%w: substrait %s literal: %w", ErrSyntax, name, err)
		}
		v = w.GetValue()
	case strings.HasSuffix(any.GetTypeUrl(), "google.protobuf.UInt32Value"):
		var w wrapperspb.UInt32Value
		if err := any.UnmarshalTo(&w); err != nil {
			return nil, fmt.Errorf("%w: substrait %s literal: %w", ErrSyntax, name, err)
		}
		v = uint64(w.GetValue())
	default:
		return nil, fmt.Errorf("%w: substrait %s literal holds %s", ErrUnsupported, name, any.GetTypeUrl())
	}
	if v > uintMax(t) {
		return nil, fmt.Errorf("%w: substrait %s literal %d out of range", ErrSyntax, name, v)
	}
	return Typed(uintArray(c.mem, t, v)), nil
}

// timestampType returns the timestamp type of a Substrait precision.
func timestampType(p int32) (*arrow.TimestampType, error) {
	switch p {
	case 0:
		return &arrow.TimestampType{Unit: arrow.Second}, nil
	case 3:
		return &arrow.TimestampType{Unit: arrow.Millisecond}, nil
	case 6:
		return &arrow.TimestampType{Unit: arrow.Microsecond}, nil
	case 9:
		return &arrow.TimestampType{Unit: arrow.Nanosecond}, nil
	}
	return nil, fmt.Errorf("%w: substrait timestamp precision %d", ErrUnsupported, p)
}

// subType converts a Substrait type to Arrow.
func (c *subConv) subType(t *sub.Type, depth int) (arrow.DataType, error) {
	if depth > maxSubstraitDepth {
		return nil, fmt.Errorf("%w: substrait type nested too deep", ErrSyntax)
	}
	switch k := t.GetKind().(type) {
	case *sub.Type_Bool:
		return arrow.FixedWidthTypes.Boolean, nil
	case *sub.Type_I8_:
		return arrow.PrimitiveTypes.Int8, nil
	case *sub.Type_I16_:
		return arrow.PrimitiveTypes.Int16, nil
	case *sub.Type_I32_:
		return arrow.PrimitiveTypes.Int32, nil
	case *sub.Type_I64_:
		return arrow.PrimitiveTypes.Int64, nil
	case *sub.Type_Fp32:
		return arrow.PrimitiveTypes.Float32, nil
	case *sub.Type_Fp64:
		return arrow.PrimitiveTypes.Float64, nil
	case *sub.Type_String_, *sub.Type_Varchar, *sub.Type_FixedChar_:
		return arrow.BinaryTypes.String, nil
	case *sub.Type_Binary_:
		return arrow.BinaryTypes.Binary, nil
	case *sub.Type_FixedBinary_:
		n := k.FixedBinary.GetLength()
		if n <= 0 {
			return nil, fmt.Errorf("%w: substrait fixed binary of length %d", ErrSyntax, n)
		}
		return &arrow.FixedSizeBinaryType{ByteWidth: int(n)}, nil
	case *sub.Type_Date_:
		return arrow.FixedWidthTypes.Date32, nil
	case *sub.Type_Timestamp_:
		return &arrow.TimestampType{Unit: arrow.Microsecond}, nil
	case *sub.Type_PrecisionTimestamp_:
		return timestampType(k.PrecisionTimestamp.GetPrecision())
	case *sub.Type_Decimal_:
		p, s := k.Decimal.GetPrecision(), k.Decimal.GetScale()
		if p < 1 || p > 38 || s < 0 || s > p {
			return nil, fmt.Errorf("%w: substrait decimal(%d, %d)", ErrSyntax, p, s)
		}
		return &arrow.Decimal128Type{Precision: p, Scale: s}, nil
	case *sub.Type_UserDefined_:
		name := c.types[k.UserDefined.GetTypeReference()]
		if ut, ok := unsignedTypes[name]; ok {
			return ut, nil
		}
		return nil, fmt.Errorf("%w: substrait user-defined type %q", ErrUnsupported, name)
	case *sub.Type_List_:
		et, err := c.subType(k.List.GetType(), depth+1)
		if err != nil {
			return nil, err
		}
		return arrow.ListOf(et), nil
	}
	return nil, fmt.Errorf("%w: substrait type %T", ErrUnsupported, t.GetKind())
}
