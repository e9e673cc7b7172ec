package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// listFuncs are the list, struct and map functions (array_has, get_field,
// element_at, …), with DataFusion's names, aliases and semantics as
// pylance 14.0.2 shows them. Results are Arrow List, Struct and scalar
// arrays; a fixed-size list argument gives a (variable) list result.
var listFuncs = map[string]funcSpec{
	"get_field":    {bind: bindArrGetField},
	"struct":       {bind: bindArrStruct},
	"row":          {bind: bindArrStruct},
	"named_struct": {bind: bindArrNamedStruct},
	"element_at":   {bind: bindArrMapExtract},
	"map_extract":  {bind: bindArrMapExtract},
	"map_keys":     {bind: bindArrMapPart(0)},
	"map_values":   {bind: bindArrMapPart(1)},
	"map_entries":  {bind: bindArrMapPart(2)},

	"make_array":   {bind: bindArrMakeArray},
	"make_list":    {bind: bindArrMakeArray},
	"array_repeat": {bind: bindArrRepeat},
	"list_repeat":  {bind: bindArrRepeat},

	"array_has":      {bind: bindArrHas},
	"array_contains": {bind: bindArrHas},
	"list_has":       {bind: bindArrHas},
	"array_has_any":  {bind: bindArrHasSet(false)},
	"list_has_any":   {bind: bindArrHasSet(false)},
	"arrays_overlap": {bind: bindArrHasSet(false)},
	"array_has_all":  {bind: bindArrHasSet(true)},
	"list_has_all":   {bind: bindArrHasSet(true)},
	"array_position": {bind: bindArrPosition},
	"list_position":  {bind: bindArrPosition},
	"array_indexof":  {bind: bindArrPosition},
	"list_indexof":   {bind: bindArrPosition},

	"array_length": {bind: bindArrLength},
	"list_length":  {bind: bindArrLength},
	"cardinality":  {bind: bindArrCardinality},
	"array_ndims":  {bind: bindArrNdims},
	"list_ndims":   {bind: bindArrNdims},
	"empty":        {bind: bindArrEmpty},
	"array_empty":  {bind: bindArrEmpty},
	"list_empty":   {bind: bindArrEmpty},

	"array_element": {bind: bindArrElement},
	"array_extract": {bind: bindArrElement},
	"list_element":  {bind: bindArrElement},
	"list_extract":  {bind: bindArrElement},
	"array_max":     {bind: bindArrMinMax(1)},
	"list_max":      {bind: bindArrMinMax(1)},
	"array_min":     {bind: bindArrMinMax(-1)},
	"list_min":      {bind: bindArrMinMax(-1)},

	"array_distinct":   {bind: bindArrDistinct},
	"list_distinct":    {bind: bindArrDistinct},
	"array_sort":       {bind: bindArrSort},
	"list_sort":        {bind: bindArrSort},
	"array_slice":      {bind: bindArrSlice},
	"list_slice":       {bind: bindArrSlice},
	"array_concat":     {bind: bindArrConcat},
	"array_cat":        {bind: bindArrConcat},
	"list_concat":      {bind: bindArrConcat},
	"list_cat":         {bind: bindArrConcat},
	"array_append":     {bind: bindArrAppend(false)},
	"list_append":      {bind: bindArrAppend(false)},
	"array_push_back":  {bind: bindArrAppend(false)},
	"list_push_back":   {bind: bindArrAppend(false)},
	"array_prepend":    {bind: bindArrAppend(true)},
	"list_prepend":     {bind: bindArrAppend(true)},
	"array_push_front": {bind: bindArrAppend(true)},
	"list_push_front":  {bind: bindArrAppend(true)},
	"array_remove":     {bind: bindArrRemove(arrRemoveFirst)},
	"list_remove":      {bind: bindArrRemove(arrRemoveFirst)},
	"array_remove_n":   {bind: bindArrRemove(arrRemoveN)},
	"list_remove_n":    {bind: bindArrRemove(arrRemoveN)},
	"array_remove_all": {bind: bindArrRemove(arrRemoveAll)},
	"list_remove_all":  {bind: bindArrRemove(arrRemoveAll)},
	"array_intersect":  {bind: bindArrSetOp(arrSetIntersect)},
	"list_intersect":   {bind: bindArrSetOp(arrSetIntersect)},
	"array_union":      {bind: bindArrSetOp(arrSetUnion)},
	"list_union":       {bind: bindArrSetOp(arrSetUnion)},
	"array_except":     {bind: bindArrSetOp(arrSetExcept)},
	"list_except":      {bind: bindArrSetOp(arrSetExcept)},
	"array_to_string":  {bind: bindArrToString},
	"list_to_string":   {bind: bindArrToString},
	"array_join":       {bind: bindArrToString},
	"list_join":        {bind: bindArrToString},
	"flatten":          {bind: bindArrFlatten},
}

// nestCall returns the node applying k to args, folded when constant.
func (b *binder) nestCall(c *Call, args []node, typ arrow.DataType, k kernel) (node, error) {
	return b.fold(&nestNode{name: c.Name, args: args, typ: typ, k: k}, nil)
}

// nestNull is the NULL constant of type t.
func (b *binder) nestNull(t arrow.DataType) node { return &constNode{val: nullOf(b.mem, t)} }

// nestWantList checks that argument i is a list (List, LargeList or
// FixedSizeList); nullOK also accepts the NULL type.
func nestWantList(c *Call, args []node, i int, nullOK bool) error {
	t := args[i].dataType()
	if isList(t) || (nullOK && t.ID() == arrow.NULL) {
		return nil
	}
	return fmt.Errorf("%w: %s does not support type %s (argument %d at %d)", ErrBind, c.Name, t, i+1, c.Args[i].Pos())
}

// nestWantInt casts argument i to Int64 (an integer or NULL argument).
func (b *binder) nestWantInt(c *Call, args []node, i int) (node, error) {
	t := args[i].dataType()
	switch {
	case t.ID() == arrow.INT64:
		return args[i], nil
	case t.ID() == arrow.NULL:
		return b.nestNull(arrow.PrimitiveTypes.Int64), nil
	case isInteger(t) && t.ID() != arrow.UINT64:
		return b.castTo(args[i], arrow.PrimitiveTypes.Int64, c.Args[i].Pos())
	}
	return nil, argTypeError(c, i, args[i], "an integer")
}

// nestUnifyElem coerces a list argument and an element argument to one
// element type T, returning them as list<T> (of the list's kind) and T.
// strict refuses to compare strings with numbers (array_has,
// array_position, array_remove refuse them in DataFusion).
func (b *binder) nestUnifyElem(c *Call, l, x node, li, xi int, strict bool) (node, node, error) {
	lt, xt := l.dataType(), x.dataType()
	et := nestElem(lt)
	t, ok := nestUnify(et, xt)
	if ok && strict && ((isString(et) && isNumeric(xt)) || (isNumeric(et) && isString(xt))) {
		ok = false
	}
	if !ok {
		return nil, nil, fmt.Errorf("%w: %s: cannot coerce %s (argument %d) and %s (argument %d) to one element type (at %d)", ErrBind, c.Name, lt, li+1, xt, xi+1, c.At)
	}
	ln, err := b.foldCast(l, nestListOf(lt, t))
	if err != nil {
		return nil, nil, err
	}
	xn, err := b.foldCast(x, t)
	if err != nil {
		return nil, nil, err
	}
	return ln, xn, nil
}

// nestUnifyLists coerces list arguments to one element type.
func (b *binder) nestUnifyLists(c *Call, args []node) ([]node, arrow.DataType, error) {
	var t arrow.DataType = arrow.Null
	for i, a := range args {
		u, ok := nestUnify(t, nestElem(a.dataType()))
		if !ok {
			return nil, nil, fmt.Errorf("%w: %s: cannot coerce the element types %s and %s (argument %d at %d)", ErrBind, c.Name, t, nestElem(a.dataType()), i+1, c.Args[i].Pos())
		}
		t = u
	}
	out := make([]node, len(args))
	for i, a := range args {
		n, err := b.foldCast(a, nestListOf(a.dataType(), t))
		if err != nil {
			return nil, nil, err
		}
		out[i] = n
	}
	return out, t, nil
}

// constNestStr returns the value of a constant string argument.
func constNestStr(n node) (string, bool, bool) {
	k, ok := asConst(n)
	if !ok {
		return "", false, false
	}
	if k.val.DataType().ID() == arrow.NULL || k.isNull() {
		return "", true, true
	}
	if !isString(k.val.DataType()) {
		return "", false, false
	}
	v := bytesOf(k.val)
	return string(v.at(0)), false, true
}

func bindArrStruct(b *binder, c *Call, args []node) (node, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("%w: 'struct' does not support zero arguments (at %d)", ErrBind, c.At)
	}
	fs := make([]arrow.Field, len(args))
	for i, a := range args {
		fs[i] = arrow.Field{Name: fmt.Sprintf("c%d", i), Type: a.dataType(), Nullable: true}
	}
	st := arrow.StructOf(fs...)
	return b.nestCall(c, args, st, func(ec *evalCtx, a []arrow.Array) (arrow.Array, error) { return nestStructOf(ec, st, a) })
}

func bindArrNamedStruct(b *binder, c *Call, args []node) (node, error) {
	if len(args) == 0 || len(args)%2 != 0 {
		return nil, fmt.Errorf("%w: named_struct requires an even number of arguments, got %d instead (at %d)", ErrBind, len(args), c.At)
	}
	fs := make([]arrow.Field, 0, len(args)/2)
	vals := make([]node, 0, len(args)/2)
	for i := 0; i < len(args); i += 2 {
		name, null, ok := constNestStr(args[i])
		if !ok || null || name == "" {
			return nil, fmt.Errorf("%w: named_struct requires %d-th (0-indexed) field name as non-empty constant string (at %d)", ErrBind, i/2, c.Args[i].Pos())
		}
		fs = append(fs, arrow.Field{Name: name, Type: args[i+1].dataType(), Nullable: true})
		vals = append(vals, args[i+1])
	}
	st := arrow.StructOf(fs...)
	return b.nestCall(c, vals, st, func(ec *evalCtx, a []arrow.Array) (arrow.Array, error) { return nestStructOf(ec, st, a) })
}

func bindArrMapExtract(b *binder, c *Call, args []node) (node, error) {
	if len(args) != 2 {
		return nil, argCountError(c, "2")
	}
	mt, ok := args[0].dataType().(*arrow.MapType)
	if !ok {
		return nil, fmt.Errorf("%w: %s: Expected a Map type, got %s (at %d)", ErrBind, c.Name, args[0].dataType(), c.Args[0].Pos())
	}
	k := args[1]
	if !arrow.TypeEqual(k.dataType(), mt.KeyType()) {
		if _, ok := nestUnify(k.dataType(), mt.KeyType()); !ok {
			return nil, argTypeError(c, 1, k, "a key of type "+mt.KeyType().String())
		}
		var err error
		if k, err = b.foldCast(k, mt.KeyType()); err != nil {
			return nil, err
		}
	}
	return b.nestCall(c, []node{args[0], k}, arrow.ListOf(mt.ItemType()), arrMapExtractKernel)
}

// bindArrMapPart binds map_keys (0), map_values (1), map_entries (2).
func bindArrMapPart(part int) func(b *binder, c *Call, args []node) (node, error) {
	return func(b *binder, c *Call, args []node) (node, error) {
		if len(args) != 1 {
			return nil, argCountError(c, "1")
		}
		mt, ok := args[0].dataType().(*arrow.MapType)
		if !ok {
			return nil, argTypeError(c, 0, args[0], "a map")
		}
		t := arrow.ListOf([]arrow.DataType{mt.KeyType(), mt.ItemType()}[min(part, 1)])
		if part == 2 {
			t = arrow.ListOfNonNullable(mt.Elem())
		}
		return b.nestCall(c, args, t, func(ec *evalCtx, a []arrow.Array) (arrow.Array, error) {
			return arrMapPartKernel(ec, a, part, t)
		})
	}
}

func bindArrMakeArray(b *binder, c *Call, args []node) (node, error) {
	return b.fold(nestMakeArray(args, c, c.At))
}

// nestMakeArray is make_array(elems…): the elements unified to one type.
func nestMakeArray(elems []node, e Expr, at int) (node, error) {
	var t arrow.DataType = arrow.Null
	for _, n := range elems {
		u, ok := nestUnify(t, n.dataType())
		if !ok {
			return nil, fmt.Errorf("%w: Failed to unify argument types of make_array: [%s, %s] (%s at %d)", ErrBind, t, n.dataType(), e, at)
		}
		t = u
	}
	cast := make([]node, len(elems))
	for i, n := range elems {
		cast[i] = nestCastTo(n, t)
	}
	return &nestNode{name: "make_array", args: cast, typ: arrow.ListOf(t), k: arrMakeArrayKernel}, nil
}

func bindArrRepeat(b *binder, c *Call, args []node) (node, error) {
	if len(args) != 2 {
		return nil, argCountError(c, "2")
	}
	n, err := b.nestWantInt(c, args, 1)
	if err != nil {
		return nil, err
	}
	return b.nestCall(c, []node{args[0], n}, arrow.ListOf(args[0].dataType()), arrRepeatKernel)
}

func bindArrHas(b *binder, c *Call, args []node) (node, error) {
	if len(args) != 2 {
		return nil, argCountError(c, "2")
	}
	if err := nestWantList(c, args, 0, true); err != nil {
		return nil, err
	}
	if args[0].dataType().ID() == arrow.NULL || args[1].dataType().ID() == arrow.NULL {
		return b.nestNull(arrow.FixedWidthTypes.Boolean), nil
	}
	l, x, err := b.nestUnifyElem(c, args[0], args[1], 0, 1, true)
	if err != nil {
		return nil, err
	}
	return b.nestCall(c, []node{l, x}, arrow.FixedWidthTypes.Boolean, arrHasKernel)
}

// bindArrHasSet binds array_has_any (all false) and array_has_all (all true).
func bindArrHasSet(all bool) func(b *binder, c *Call, args []node) (node, error) {
	return func(b *binder, c *Call, args []node) (node, error) {
		if len(args) != 2 {
			return nil, argCountError(c, "2")
		}
		for i := range args {
			if err := nestWantList(c, args, i, true); err != nil {
				return nil, err
			}
			if args[i].dataType().ID() == arrow.NULL {
				return b.nestNull(arrow.FixedWidthTypes.Boolean), nil
			}
		}
		ls, _, err := b.nestUnifyLists(c, args)
		if err != nil {
			return nil, err
		}
		return b.nestCall(c, ls, arrow.FixedWidthTypes.Boolean, func(ec *evalCtx, a []arrow.Array) (arrow.Array, error) {
			return arrHasSetKernel(ec, a, all)
		})
	}
}

func bindArrPosition(b *binder, c *Call, args []node) (node, error) {
	if len(args) != 2 && len(args) != 3 {
		return nil, argCountError(c, "2 or 3")
	}
	if err := nestWantList(c, args, 0, false); err != nil {
		return nil, err
	}
	l, x := args[0], args[1]
	if x.dataType().ID() != arrow.NULL {
		var err error
		if l, x, err = b.nestUnifyElem(c, l, x, 0, 1, true); err != nil {
			return nil, err
		}
	} else {
		x = b.nestNull(nestElem(l.dataType()))
	}
	ins := []node{l, x}
	if len(args) == 3 {
		t := args[2].dataType()
		if t.ID() == arrow.NULL {
			return nil, fmt.Errorf("%w: array_position expected Int64 for start_from, got NULL (at %d)", ErrBind, c.Args[2].Pos())
		}
		from, err := b.nestWantInt(c, args, 2)
		if err != nil {
			return nil, err
		}
		ins = append(ins, from)
	}
	return b.nestCall(c, ins, arrow.PrimitiveTypes.Uint64, arrPositionKernel)
}
