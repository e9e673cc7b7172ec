package expr

import (
	"fmt"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// maxBindDepth bounds the nesting the binder follows (the parser bounds
// it too; trees built in Go are checked here).
const maxBindDepth = 512

// slot is a top-level column a bound expression reads.
type slot struct {
	name string // the schema's spelling
	typ  arrow.DataType
}

// binder resolves an Expr against a schema.
type binder struct {
	schema *arrow.Schema
	slots  []slot
	now    time.Time
	mem    memory.Allocator
	depth  int
	// refs lists the slot of every column reference bound, in order
	// (volatileRef for a volatile call); covered says which are inside a
	// dictNode (dict.go).
	refs    []int
	covered []bool
}

// ref records a reference to slot s (or volatileRef).
func (b *binder) ref(s int) {
	b.refs = append(b.refs, s)
	b.covered = append(b.covered, false)
}

// bind converts e into a node. Literals whose type Lance resolves from a
// compared column are coerced by resolve before bind sees them.
func (b *binder) bind(e Expr) (node, error) {
	b.depth++
	defer func() { b.depth-- }()
	if b.depth > maxBindDepth {
		return nil, fmt.Errorf("%w: expression nested deeper than %d levels", ErrBind, maxBindDepth)
	}
	switch x := e.(type) {
	case nil:
		return nil, fmt.Errorf("%w: nil expression", ErrBind)
	case *Const:
		if x.Value == nil || x.Value.Len() != 1 {
			return nil, fmt.Errorf("%w: a Const holds one row (at %d)", ErrBind, x.At)
		}
		x.Value.Retain()
		return &constNode{val: x.Value}, nil
	case *Column:
		return b.bindColumn(x)
	case *Literal:
		return b.bindLiteral(x)
	case *Binary:
		return b.bindBinary(x)
	case *Not:
		return b.bindNot(x)
	case *Neg:
		return b.bindNeg(x)
	case *Is:
		return b.bindIs(x)
	case *InList:
		return b.bindIn(x)
	case *Between:
		return b.bindBetween(x)
	case *Like:
		xn, err := b.bind(x.X)
		if err != nil {
			return nil, err
		}
		pn, err := b.bind(x.Pattern)
		if err != nil {
			return nil, err
		}
		return b.fold(b.bindLike(x, xn, pn))
	case *Cast:
		xn, err := b.bind(x.X)
		if err != nil {
			return nil, err
		}
		return b.fold(newCast(xn, x.Type, x.Try, x.At))
	case *Field:
		return b.fold(b.bindField(x))
	case *Index:
		return b.fold(b.bindIndex(x))
	case *FieldIndex:
		return b.bindFieldIndex(x)
	case *Array:
		return b.bindArray(x, nil)
	case *Call:
		return b.bindCall(x)
	}
	return nil, fmt.Errorf("%w: unknown expression node %T", ErrBind, e)
}

// fold evaluates n once when every input is constant (constant folding),
// so kernels see constants as constants. Errors pass through.
func (b *binder) fold(n node, err error) (node, error) {
	if err != nil || n == nil {
		return n, err
	}
	if !allConst(n) {
		return n, nil
	}
	c, err := evalConst(b.mem, n)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// lookupField finds a field by name: an exact match, else (for an
// unquoted name) the one field equal to it ignoring case.
func lookupField(fields []arrow.Field, name string, quoted bool) (int, error) {
	for i := range fields {
		if fields[i].Name == name {
			return i, nil
		}
	}
	if !quoted {
		found := -1
		for i := range fields {
			if strings.EqualFold(fields[i].Name, name) {
				if found >= 0 {
					return -1, fmt.Errorf("%w: column name %q is ambiguous (%q, %q)", ErrBind, name, fields[found].Name, fields[i].Name)
				}
				found = i
			}
		}
		if found >= 0 {
			return found, nil
		}
	}
	return -1, nil
}

// fieldNames lists the names of fields for an error message.
func fieldNames(fields []arrow.Field) string {
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.Name
	}
	return strings.Join(names, ", ")
}

// bindColumn binds a top-level column reference to a slot.
func (b *binder) bindColumn(c *Column) (node, error) {
	i, err := lookupField(b.schema.Fields(), c.Name, c.Quoted)
	if err != nil {
		return nil, err
	}
	if i < 0 {
		return nil, fmt.Errorf("%w: no column %q (at %d); the columns are %s", ErrBind, c.Name, c.At, fieldNames(b.schema.Fields()))
	}
	f := b.schema.Field(i)
	for s, sl := range b.slots {
		if sl.name == f.Name {
			b.ref(s)
			return &colNode{slot: s, name: f.Name, typ: f.Type}, nil
		}
	}
	b.slots = append(b.slots, slot{name: f.Name, typ: f.Type})
	b.ref(len(b.slots) - 1)
	return &colNode{slot: len(b.slots) - 1, name: f.Name, typ: f.Type}, nil
}

// bindNot binds NOT x (x must be boolean).
func (b *binder) bindNot(x *Not) (node, error) {
	start := len(b.refs)
	n, err := b.bind(coerceRegexpMatch(x.X))
	if err != nil {
		return nil, err
	}
	if err := wantBool(n, x.X, "NOT"); err != nil {
		return nil, err
	}
	n = b.dictWrap(n, start)
	return b.fold(&notNode{x: n}, nil)
}

// bindIs binds x IS [NOT] NULL/TRUE/FALSE.
func (b *binder) bindIs(x *Is) (node, error) {
	n, err := b.bind(x.X)
	if err != nil {
		return nil, err
	}
	if x.Test != IsNull && x.Test != IsNotNull {
		if err := wantBool(n, x.X, x.Test.String()); err != nil {
			return nil, err
		}
	}
	return b.fold(&isNode{x: n, test: x.Test}, nil)
}

// bindBetween binds x [NOT] BETWEEN lo AND hi as (x >= lo AND x <= hi),
// negated for NOT (resolve converted the bounds where Lance does).
func (b *binder) bindBetween(x *Between) (node, error) {
	lo, hi := x.Lo, x.Hi
	ge, err := b.compare(OpGtEq, x.X, lo, x.At)
	if err != nil {
		return nil, err
	}
	le, err := b.compare(OpLtEq, x.X, hi, x.At)
	if err != nil {
		return nil, err
	}
	var n node = &logicNode{and: true, kids: []node{ge, le}}
	if x.Not {
		n = &notNode{x: n}
	}
	return b.fold(n, nil)
}

// wantBool checks that n is boolean (or the NULL constant).
func wantBool(n node, e Expr, what string) error {
	switch n.dataType().ID() {
	case arrow.BOOL, arrow.NULL:
		return nil
	}
	return fmt.Errorf("%w: %s needs a boolean, %s (at %d) is %s", ErrBind, what, e, e.Pos(), n.dataType())
}

// allConst reports whether every input of n is a constant.
func allConst(n node) bool {
	switch x := n.(type) {
	case *constNode:
		return true
	case *colNode:
		return false
	case *callNode:
		if x.volatile {
			return false
		}
		for _, k := range x.args {
			if !allConst(k) {
				return false
			}
		}
		return true
	case interface{ inputs() []node }:
		for _, k := range x.inputs() {
			if !allConst(k) {
				return false
			}
		}
		return true
	}
	return false
}

// arrowNullArray returns an array of n nulls of type null.
func arrowNullArray(n int) arrow.Array { return array.NewNull(n) }

// bindFieldIndex binds a positional struct child as the Field it names.
func (b *binder) bindFieldIndex(x *FieldIndex) (node, error) {
	xn, err := b.bind(x.X)
	if err != nil {
		return nil, err
	}
	st, ok := xn.dataType().(*arrow.StructType)
	if !ok {
		return nil, fmt.Errorf("%w: %s is %s, not a struct (at %d)", ErrBind, x.X, xn.dataType(), x.At)
	}
	if x.Index < 0 || x.Index >= st.NumFields() {
		return nil, fmt.Errorf("%w: struct %s has no child %d (it has %d)", ErrBind, x.X, x.Index, st.NumFields())
	}
	return b.fold(b.bindField(&Field{X: x.X, Name: st.Field(x.Index).Name, At: x.At}))
}
