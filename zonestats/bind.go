package zonestats

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// nodeKind is the kind of a bound expression node.
type nodeKind uint8

const (
	nAnd nodeKind = iota
	nOr
	nNot
	nCmp
	nIn
	nIsNull
	nIsNotNull
	nIsNaN
)

// node is a bound expression node; leaves refer to a column by index.
type node struct {
	kind nodeKind
	kids []*node
	col  int
	op   Op
	lit  value   // nCmp
	null bool    // nCmp: literal is NULL; nIn: list holds NULL
	list []value // nIn: non-null elements
}

// boundCol is a column referenced by a predicate.
type boundCol struct {
	name string
	info *typeInfo
	cmp  func(a, b *value) int
}

// Predicate is a filter bound to a schema: every column exists and every
// literal has the column's type. Use MayMatch to prune zones and Evaluate
// to filter rows exactly. A Predicate is immutable and safe for
// concurrent use.
type Predicate struct {
	root *node
	cols []boundCol
	expr Expr
}

// Bind resolves the columns of e in schema and coerces its literals to
// the columns' types. Errors wrap ErrBind (unknown column, literal that
// does not fit) or ErrUnsupportedType (comparison on a type without an
// order, IS NAN on a non-float column).
func Bind(e Expr, schema *arrow.Schema) (*Predicate, error) {
	p := &Predicate{expr: e}
	root, err := p.bind(e, schema)
	if err != nil {
		return nil, err
	}
	p.root = root
	return p, nil
}

// String renders the predicate's expression.
func (p *Predicate) String() string { return p.expr.String() }

// Expr returns the unbound expression.
func (p *Predicate) Expr() Expr { return p.expr }

// Columns returns the names of the columns the predicate references, in
// order of first reference.
func (p *Predicate) Columns() []string {
	out := make([]string, len(p.cols))
	for i, c := range p.cols {
		out[i] = c.name
	}
	return out
}

// column returns the index of the named column, adding it if needed.
func (p *Predicate) column(name string, schema *arrow.Schema) (int, error) {
	for i, c := range p.cols {
		if c.name == name {
			return i, nil
		}
	}
	idx := schema.FieldIndices(name)
	if len(idx) == 0 {
		return 0, fmt.Errorf("%w: no column %q", ErrBind, name)
	}
	if len(idx) > 1 {
		return 0, fmt.Errorf("%w: column name %q is ambiguous", ErrBind, name)
	}
	info := newTypeInfo(schema.Field(idx[0]).Type)
	p.cols = append(p.cols, boundCol{name: name, info: info, cmp: compareFunc(info.dom)})
	return len(p.cols) - 1, nil
}

// bind converts one expression node.
func (p *Predicate) bind(e Expr, schema *arrow.Schema) (*node, error) {
	switch x := e.(type) {
	case *logicExpr:
		n := &node{kind: nOr}
		if x.and {
			n.kind = nAnd
		}
		return p.bindKids(n, x.kids, schema)
	case *notExpr:
		return p.bindKids(&node{kind: nNot}, []Expr{x.e}, schema)
	case *cmpExpr:
		return p.bindCmp(x, schema)
	case *inExpr:
		return p.bindIn(x, schema)
	case *nullExpr:
		return p.bindLeaf(x.col, x.not, schema)
	case *nanExpr:
		return p.bindNaN(x, schema)
	}
	return nil, fmt.Errorf("%w: unknown expression %T", ErrBind, e)
}

// bindKids binds the children of a logical node.
func (p *Predicate) bindKids(n *node, kids []Expr, schema *arrow.Schema) (*node, error) {
	for _, k := range kids {
		b, err := p.bind(k, schema)
		if err != nil {
			return nil, err
		}
		n.kids = append(n.kids, b)
	}
	return n, nil
}

// bindLeaf binds IS NULL / IS NOT NULL (any type).
func (p *Predicate) bindLeaf(col string, not bool, schema *arrow.Schema) (*node, error) {
	c, err := p.column(col, schema)
	if err != nil {
		return nil, err
	}
	if not {
		return &node{kind: nIsNotNull, col: c}, nil
	}
	return &node{kind: nIsNull, col: c}, nil
}

// bindNaN binds IS NAN, which needs a float column.
func (p *Predicate) bindNaN(x *nanExpr, schema *arrow.Schema) (*node, error) {
	c, err := p.column(x.col, schema)
	if err != nil {
		return nil, err
	}
	if !p.cols[c].info.isFloat() {
		return nil, typeError("IS NAN", p.cols[c].info.dt)
	}
	return &node{kind: nIsNaN, col: c}, nil
}

// orderedColumn resolves a column that must have an order.
func (p *Predicate) orderedColumn(name string, schema *arrow.Schema) (int, error) {
	c, err := p.column(name, schema)
	if err != nil {
		return 0, err
	}
	if !p.cols[c].info.bounded() {
		return 0, typeError("comparison", p.cols[c].info.dt)
	}
	return c, nil
}

// bindCmp binds a comparison.
func (p *Predicate) bindCmp(x *cmpExpr, schema *arrow.Schema) (*node, error) {
	c, err := p.orderedColumn(x.col, schema)
	if err != nil {
		return nil, err
	}
	n := &node{kind: nCmp, col: c, op: x.op, null: x.lit.IsNull()}
	if !n.null {
		if n.lit, err = coerce(x.lit, p.cols[c].info); err != nil {
			return nil, err
		}
	}
	return n, nil
}

// bindIn binds an IN list.
func (p *Predicate) bindIn(x *inExpr, schema *arrow.Schema) (*node, error) {
	c, err := p.orderedColumn(x.col, schema)
	if err != nil {
		return nil, err
	}
	n := &node{kind: nIn, col: c}
	for _, l := range x.list {
		if l.IsNull() {
			n.null = true
			continue
		}
		v, err := coerce(l, p.cols[c].info)
		if err != nil {
			return nil, err
		}
		n.list = append(n.list, v)
	}
	return n, nil
}
