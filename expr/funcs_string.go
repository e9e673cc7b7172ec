package expr

import (
	"fmt"
	"math"
	"unicode/utf8"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// String functions, with DataFusion's (pylance 14.0.2) argument rules:
// most take only Utf8/LargeUtf8 ("requires String"), a few (length,
// reverse, lpad, left, translate, concat, the regexp functions, …)
// accept any type and cast it to Utf8; a Binary argument of those is
// read as UTF-8 and fails the query when it is not. Results keep the
// first argument's string width (LargeUtf8 in, LargeUtf8 out; lengths
// Int32 for Utf8 and Int64 for LargeUtf8). Where DataFusion answers
// Utf8View (left, right, md5, concat of mixed widths) we answer Utf8.

// stringFuncs are the string functions (lower, upper, starts_with, …).
var stringFuncs = map[string]funcSpec{
	"length":           {bind: bindCharLength},
	"char_length":      {bind: bindCharLength},
	"character_length": {bind: bindCharLength},
	"octet_length":     {bind: bindOctetLength},
	"bit_length":       {bind: bindOctetLength},
	"lower":            {bind: bindCaseMap},
	"upper":            {bind: bindCaseMap},
	"initcap":          {bind: bindCaseMap},
	"starts_with":      {bind: bindStrPredicate},
	"ends_with":        {bind: bindStrPredicate},
	"contains":         {bind: bindStrPredicate},
	"strpos":           {bind: bindStrpos},
	"instr":            {bind: bindStrpos},
	"ascii":            {bind: bindASCII},
	"concat":           {bind: bindConcat},
	"concat_ws":        {bind: bindConcatWs},
	"replace":          {bind: bindReplace},
	"split_part":       {bind: bindSplitPart},
	"btrim":            {bind: bindTrim},
	"ltrim":            {bind: bindTrim},
	"rtrim":            {bind: bindTrim},
	"reverse":          {bind: bindReverse},
	"repeat":           {bind: bindRepeat},
	"lpad":             {bind: bindPad},
	"rpad":             {bind: bindPad},
	"left":             {bind: bindLeftRight},
	"right":            {bind: bindLeftRight},
	"translate":        {bind: bindTranslate},
	"string_to_array":  {bind: bindStringToArray},
	"contains_tokens":  {bind: bindContainsTokens},
	"md5":              {bind: bindMD5},
	"digest":           {bind: bindDigest},
	"encode":           {bind: bindEncode},
	"decode":           {bind: bindDecode},
	"chr":              {bind: bindChr},
	"to_hex":           {bind: bindToHex},
	"regexp_like":      {bind: bindRegexpLike},
	"regexp_match":     {bind: bindRegexpMatch},
	"regexp_replace":   {bind: bindRegexpReplace},
	"regexp_count":     {bind: bindRegexpCount},
}

// strKernel computes a string function. Arguments that are constants
// arrive as one-row arrays (not repeated): read them through strCol and
// intCol, which repeat a one-row array for every row.
type strKernel func(ec *evalCtx, args []arrow.Array) (arrow.Array, error)

// strFuncNode applies a string kernel to its arguments.
type strFuncNode struct {
	name string
	args []node
	typ  arrow.DataType
	k    strKernel
}

func (n *strFuncNode) dataType() arrow.DataType { return n.typ }
func (n *strFuncNode) inputs() []node           { return n.args }

func (n *strFuncNode) eval(ec *evalCtx) (arrow.Array, error) {
	args, err := evalArgsUnbroadcast(ec, n.args)
	if err != nil {
		return nil, err
	}
	defer releaseArrays(args)
	out, err := n.k(ec, args)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", n.name, err)
	}
	return out, nil
}

// evalArgsUnbroadcast evaluates nodes, giving constants as their one-row
// arrays (retained) instead of repeating them.
func evalArgsUnbroadcast(ec *evalCtx, ns []node) ([]arrow.Array, error) {
	out := make([]arrow.Array, len(ns))
	for i, n := range ns {
		if c, ok := asConst(n); ok {
			c.val.Retain()
			out[i] = c.val
			continue
		}
		a, err := n.eval(ec)
		if err != nil {
			releaseArrays(out[:i])
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}

// strCol reads a string or binary argument row by row; a one-row array
// stands for every row.
type strCol struct {
	off32  []int32
	off64  []int64
	data   []byte
	valid  []byte // validity bitmap, nil when there is no NULL
	voff   int    // offset of row 0 in valid
	single bool
	null   bool // every row is NULL
}

// newStrCol views a (Large)String or (Large)Binary array, or a NULL one.
func newStrCol(a arrow.Array, n int) strCol {
	c := strCol{single: a.Len() == 1 && n != 1}
	if a.Len() == 0 && n > 0 {
		c.null = true
		return c
	}
	switch x := a.(type) {
	case *array.String:
		c.off32 = x.ValueOffsets()
	case *array.LargeString:
		c.off64 = x.ValueOffsets()
	case *array.Binary:
		c.off32 = x.ValueOffsets()
	case *array.LargeBinary:
		c.off64 = x.ValueOffsets()
	default:
		c.null = true
		return c
	}
	if bufs := a.Data().Buffers(); len(bufs) > 2 && bufs[2] != nil {
		c.data = bufs[2].Bytes()
	}
	if a.NullN() > 0 {
		if a.NullN() == a.Len() {
			c.null = true
		}
		c.valid = a.NullBitmapBytes()
		c.voff = a.Data().Offset()
	}
	return c
}

// get returns row i and whether it is not NULL.
func (c *strCol) get(i int) ([]byte, bool) {
	if c.null {
		return nil, false
	}
	if c.single {
		i = 0
	}
	if c.valid != nil && !bitutil.BitIsSet(c.valid, c.voff+i) {
		return nil, false
	}
	var lo, hi int64
	if c.off32 != nil {
		if i+1 >= len(c.off32) {
			return nil, false
		}
		lo, hi = int64(c.off32[i]), int64(c.off32[i+1])
	} else {
		if i+1 >= len(c.off64) {
			return nil, false
		}
		lo, hi = c.off64[i], c.off64[i+1]
	}
	if lo < 0 || lo > hi || hi > int64(len(c.data)) {
		return nil, false
	}
	return c.data[lo:hi], true
}

// intCol reads an integer argument as int64 row by row.
type intCol struct {
	vals   []int64
	valid  []byte
	voff   int
	single bool
	null   bool
}

// newIntCol views an integer array (or a NULL one). uint64 values above
// the int64 range fail, as DataFusion's cast to Int64 does.
func newIntCol(a arrow.Array, n int) (intCol, error) {
	c := intCol{single: a.Len() == 1 && n != 1}
	if a.Len() == 0 && n > 0 || a.DataType().ID() == arrow.NULL || a.NullN() == a.Len() {
		c.null = true
		return c, nil
	}
	switch x := a.(type) {
	case *array.Int64:
		c.vals = x.Int64Values()
	case *array.Int32:
		c.vals = widen(x.Int32Values())
	case *array.Int16:
		c.vals = widen(x.Int16Values())
	case *array.Int8:
		c.vals = widen(x.Int8Values())
	case *array.Uint8:
		c.vals = widen(x.Uint8Values())
	case *array.Uint16:
		c.vals = widen(x.Uint16Values())
	case *array.Uint32:
		c.vals = widen(x.Uint32Values())
	case *array.Uint64:
		vs := x.Uint64Values()
		c.vals = make([]int64, len(vs))
		for i, v := range vs {
			if v > math.MaxInt64 && x.IsValid(i) {
				return c, fmt.Errorf("%w: %d does not fit Int64", ErrEval, v)
			}
			c.vals[i] = int64(v)
		}
	default:
		return c, fmt.Errorf("%w: integer argument of type %s", ErrEval, a.DataType())
	}
	if a.NullN() > 0 {
		c.valid = a.NullBitmapBytes()
		c.voff = a.Data().Offset()
	}
	return c, nil
}

func widen[T int8 | int16 | int32 | uint8 | uint16 | uint32](vs []T) []int64 {
	out := make([]int64, len(vs))
	for i, v := range vs {
		out[i] = int64(v)
	}
	return out
}

// get returns row i and whether it is not NULL.
func (c *intCol) get(i int) (int64, bool) {
	if c.null {
		return 0, false
	}
	if c.single {
		i = 0
	}
	if i >= len(c.vals) || c.valid != nil && !bitutil.BitIsSet(c.valid, c.voff+i) {
		return 0, false
	}
	return c.vals[i], true
}

// strOut builds a string or binary result of n rows.
type strOut struct {
	data  []byte
	offs  []int64
	valid []uint64 // nil while no row is NULL
	n     int
}

func newStrOut(n, dataHint int) *strOut {
	o := &strOut{n: n, offs: make([]int64, 1, n+1)}
	if dataHint > 0 {
		o.data = make([]byte, 0, dataHint)
	}
	return o
}

// add appends a value.
func (o *strOut) add(b []byte) {
	o.data = append(o.data, b...)
	o.commit()
}

// commit ends the value whose bytes were appended to o.data.
func (o *strOut) commit() { o.offs = append(o.offs, int64(len(o.data))) }

// null appends a NULL.
func (o *strOut) null() {
	row := len(o.offs) - 1
	if o.valid == nil {
		o.valid = allValid(o.n)
	}
	if row < o.n {
		o.valid[row>>6] &^= 1 << (row & 63)
	}
	o.commit()
}

// allValid returns validity words with the first n bits set.
func allValid(n int) []uint64 {
	w := make([]uint64, (n+63)/64)
	for i := range w {
		w[i] = ^uint64(0)
	}
	maskTail(w, n)
	return w
}

// maxValueBytes bounds the bytes of one result array with 32-bit offsets.
const maxValueBytes = math.MaxInt32

// finish builds the array of type typ ((Large)String or (Large)Binary).
func (o *strOut) finish(mem memory.Allocator, typ arrow.DataType) (arrow.Array, error) {
	n := len(o.offs) - 1
	large := typ.ID() == arrow.LARGE_STRING || typ.ID() == arrow.LARGE_BINARY
	if !large && len(o.data) > maxValueBytes {
		return nil, fmt.Errorf("%w: result of %d bytes exceeds the 2 GiB of a %s array", ErrEval, len(o.data), typ)
	}
	ob := memory.NewResizableBuffer(mem)
	if large {
		ob.Resize(8 * (n + 1))
		copy(arrow.Int64Traits.CastFromBytes(ob.Bytes()), o.offs)
	} else {
		ob.Resize(4 * (n + 1))
		dst := arrow.Int32Traits.CastFromBytes(ob.Bytes())
		for i, v := range o.offs {
			dst[i] = int32(v)
		}
	}
	db := memory.NewResizableBuffer(mem)
	db.Resize(len(o.data))
	copy(db.Bytes(), o.data)
	vb, nulls := validityBuffer(mem, o.valid, n)
	d := array.NewData(typ, n, []*memory.Buffer{vb, ob, db}, nil, nulls, 0)
	defer d.Release()
	ob.Release()
	db.Release()
	if vb != nil {
		vb.Release()
	}
	return array.MakeFromData(d), nil
}

// validityBuffer turns validity words into a bitmap buffer (nil when no
// row is NULL) and the NULL count.
func validityBuffer(mem memory.Allocator, valid []uint64, n int) (*memory.Buffer, int) {
	if valid == nil {
		return nil, 0
	}
	set := 0
	for i := 0; i < n; i++ {
		if valid[i>>6]&(1<<(i&63)) != 0 {
			set++
		}
	}
	if set == n {
		return nil, 0
	}
	vb := memory.NewResizableBuffer(mem)
	vb.Resize((n + 7) / 8)
	putWords(vb.Bytes(), valid)
	return vb, n - set
}

// intResult builds an Int32 or Int64 array from vals (NULL where the bit
// of valid is clear; valid nil: no NULL).
func intResult(mem memory.Allocator, typ arrow.DataType, vals []int64, valid []uint64) arrow.Array {
	n := len(vals)
	buf := memory.NewResizableBuffer(mem)
	if typ.ID() == arrow.INT32 {
		buf.Resize(4 * n)
		dst := arrow.Int32Traits.CastFromBytes(buf.Bytes())
		for i, v := range vals {
			dst[i] = int32(v)
		}
	} else {
		buf.Resize(8 * n)
		copy(arrow.Int64Traits.CastFromBytes(buf.Bytes()), vals)
	}
	vb, nulls := validityBuffer(mem, valid, n)
	d := array.NewData(typ, n, []*memory.Buffer{vb, buf}, nil, nulls, 0)
	defer d.Release()
	buf.Release()
	if vb != nil {
		vb.Release()
	}
	return array.MakeFromData(d)
}

// boolOut builds a boolean result.
type boolOut struct {
	data, valid []uint64
	n           int
}

func newBoolOut(n int) *boolOut {
	return &boolOut{data: make([]uint64, (n+63)/64), valid: allValid(n), n: n}
}

func (o *boolOut) set(i int, v bool) {
	if v {
		o.data[i>>6] |= 1 << (i & 63)
	}
}

func (o *boolOut) null(i int) { o.valid[i>>6] &^= 1 << (i & 63) }

func (o *boolOut) finish(mem memory.Allocator) arrow.Array {
	return boolArrayFromWords(mem, o.data, o.valid, o.n)
}

// Argument typing.

// isStringOrNull reports whether t is Utf8, LargeUtf8 or the NULL type.
func isStringOrNull(t arrow.DataType) bool { return isString(t) || t.ID() == arrow.NULL }

// wantStrings checks that the arguments at idx are strings (or NULL), as
// DataFusion's String signatures do.
func wantStrings(c *Call, args []node, idx ...int) error {
	for _, i := range idx {
		if i < len(args) && !isStringOrNull(args[i].dataType()) {
			return fmt.Errorf("%w: function '%s' requires String, but received %s (argument %d at %d)",
				ErrBind, c.Name, args[i].dataType(), i+1, c.Args[i].Pos())
		}
	}
	return nil
}

// wantInts checks that the arguments at idx are integers (or NULL).
func wantInts(c *Call, args []node, idx ...int) error {
	for _, i := range idx {
		if i < len(args) && !isInteger(args[i].dataType()) && args[i].dataType().ID() != arrow.NULL {
			return fmt.Errorf("%w: function '%s' requires Int64, but received %s (argument %d at %d)",
				ErrBind, c.Name, args[i].dataType(), i+1, c.Args[i].Pos())
		}
	}
	return nil
}

// toStringArg coerces argument i to a string as DataFusion's coercible
// string signatures do: strings and NULL stay, Binary is read as UTF-8
// (checked when evaluated), anything else is CAST to Utf8.
func (b *binder) toStringArg(c *Call, args []node, i int) error {
	n := args[i]
	t := n.dataType()
	switch {
	case isStringOrNull(t):
		return nil
	case t.ID() == arrow.BINARY || t.ID() == arrow.LARGE_BINARY:
		args[i] = &utf8Node{x: n}
		return nil
	case t.ID() == arrow.FIXED_SIZE_BINARY, isList(t), t.ID() == arrow.STRUCT, t.ID() == arrow.MAP:
		return fmt.Errorf("%w: function '%s' requires String, but received %s (argument %d at %d)",
			ErrBind, c.Name, t, i+1, c.Args[i].Pos())
	}
	cn, err := b.castTo(n, arrow.BinaryTypes.String, c.Args[i].Pos())
	if err != nil {
		return err
	}
	args[i] = cn
	return nil
}

// stringResultType is the type of a result that keeps the width of a
// string argument of type t (Utf8 for NULL and coerced types).
func stringResultType(t arrow.DataType) arrow.DataType {
	if t.ID() == arrow.LARGE_STRING {
		return arrow.BinaryTypes.LargeString
	}
	return arrow.BinaryTypes.String
}

// lengthType is Int64 for LargeUtf8, else Int32 (DataFusion's lengths).
func lengthType(t arrow.DataType) arrow.DataType {
	if t.ID() == arrow.LARGE_STRING {
		return arrow.PrimitiveTypes.Int64
	}
	return arrow.PrimitiveTypes.Int32
}

// utf8Node reads a Binary or LargeBinary value as (Large)Utf8, failing
// on bytes that are not UTF-8 (DataFusion's cast of binary to string).
type utf8Node struct{ x node }

func (u *utf8Node) dataType() arrow.DataType {
	if u.x.dataType().ID() == arrow.LARGE_BINARY {
		return arrow.BinaryTypes.LargeString
	}
	return arrow.BinaryTypes.String
}

func (u *utf8Node) inputs() []node { return []node{u.x} }

func (u *utf8Node) eval(ec *evalCtx) (arrow.Array, error) {
	a, err := u.x.eval(ec)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	col := newStrCol(a, a.Len())
	col.single = false
	for i := 0; i < a.Len(); i++ {
		if v, ok := col.get(i); ok && !utf8.Valid(v) {
			return nil, fmt.Errorf("%w: Encountered non UTF-8 data in row %d of a binary value read as a string", ErrEval, i)
		}
	}
	d := a.Data()
	nd := array.NewData(u.dataType(), d.Len(), d.Buffers(), nil, d.NullN(), d.Offset())
	defer nd.Release()
	return array.MakeFromData(nd), nil
}

// argRange checks the number of arguments.
func argRange(c *Call, lo, hi int) error {
	if len(c.Args) >= lo && len(c.Args) <= hi {
		return nil
	}
	want := fmt.Sprintf("%d to %d", lo, hi)
	if lo == hi {
		want = fmt.Sprint(lo)
	}
	return argCountError(c, want)
}

// newStrFunc returns the node of a string function.
func newStrFunc(c *Call, args []node, typ arrow.DataType, k strKernel) *strFuncNode {
	return &strFuncNode{name: c.Name, args: args, typ: typ, k: k}
}

// bytesString views b as a string without copying (b must not change
// while the string is used).
func bytesString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
