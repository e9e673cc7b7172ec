package expr

import (
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Options tune binding. The zero value is ready to use.
type Options struct {
	// Now is the instant now(), current_date and current_timestamp see:
	// one instant for the whole query, as in Lance. Zero means the time
	// of the Bind call.
	Now time.Time
	// Mem allocates the arrays evaluation builds. Nil means
	// memory.DefaultAllocator.
	Mem memory.Allocator
}

// Compiled is an expression bound to a schema, of any type: the value of
// an update's SET or of a new column. It is immutable and safe for
// concurrent use.
type Compiled struct {
	root  node
	slots []slot
	src   Expr
	mem   memory.Allocator
	// dictOK says, per slot, whether a batch may hold the column as a
	// dictionary array evaluated as such (dict.go).
	dictOK []bool
}

// Predicate is a filter bound to a schema: a Compiled of boolean type.
// A row is selected when the filter is TRUE (not FALSE, not NULL).
type Predicate struct {
	Compiled
}

// Compile parses filter and binds it to schema (Parse, then Bind).
func Compile(filter string, schema *arrow.Schema) (*Predicate, error) {
	e, err := Parse(filter)
	if err != nil {
		return nil, err
	}
	return Bind(e, schema)
}

// Bind binds a filter to schema with default options: see BindWith.
func Bind(e Expr, schema *arrow.Schema) (*Predicate, error) {
	return BindWith(e, schema, Options{})
}

// BindWith binds a filter to schema: columns are resolved (see Column),
// literals compared with a column are converted to its type or refused
// (as Lance does), functions and operators are checked, constants are
// folded. The filter must be boolean. Errors wrap ErrBind (or
// ErrUnsupported) and name the offending part and its position.
func BindWith(e Expr, schema *arrow.Schema, opts Options) (*Predicate, error) {
	b := newBinder(schema, opts)
	r, err := b.resolve(e)
	if err != nil {
		return nil, err
	}
	root, err := b.bind(coerceRegexpMatch(r))
	if err != nil {
		return nil, err
	}
	root = b.dictWrap(root, 0)
	switch root.dataType().ID() {
	case arrow.BOOL:
	case arrow.NULL:
		return nil, fmt.Errorf("%w: the filter %s does not return a boolean", ErrBind, e)
	default:
		return nil, fmt.Errorf("%w: the filter %s does not return a boolean (it is %s)", ErrBind, e, root.dataType())
	}
	return &Predicate{Compiled{root: root, slots: b.slots, src: e, mem: b.mem, dictOK: b.dictColumns()}}, nil
}

// BindValue binds an expression of any type to schema (for SET clauses
// and computed columns), with DataFusion's typing and no literal
// resolution.
func BindValue(e Expr, schema *arrow.Schema, opts Options) (*Compiled, error) {
	b := newBinder(schema, opts)
	root, err := b.bind(e)
	if err != nil {
		return nil, err
	}
	root = b.dictWrap(root, 0)
	return &Compiled{root: root, slots: b.slots, src: e, mem: b.mem, dictOK: b.dictColumns()}, nil
}

func newBinder(schema *arrow.Schema, opts Options) *binder {
	b := &binder{schema: schema, now: opts.Now, mem: opts.Mem}
	if b.now.IsZero() {
		b.now = time.Now()
	}
	if b.mem == nil {
		b.mem = memory.DefaultAllocator
	}
	return b
}

// Expr returns the unbound expression.
func (c *Compiled) Expr() Expr { return c.src }

// String renders the expression.
func (c *Compiled) String() string { return c.src.String() }

// Type returns the type of the values Eval returns.
func (c *Compiled) Type() arrow.DataType { return c.root.dataType() }

// Columns returns the schema names of the top-level columns the
// expression reads, in order of first reference. A batch given to Eval
// or Evaluate must hold them (by name, with the bound types).
func (c *Compiled) Columns() []string {
	out := make([]string, len(c.slots))
	for i, s := range c.slots {
		out[i] = s.name
	}
	return out
}

// Eval computes the expression for every row of rec; the caller
// releases the result. Evaluation errors (division by zero, a failing
// CAST) wrap ErrEval; a batch without a bound column wraps ErrMismatch.
func (c *Compiled) Eval(rec arrow.RecordBatch) (arrow.Array, error) {
	ec, err := c.context(rec)
	if err != nil {
		return nil, err
	}
	defer releaseArrays(ec.owned)
	return c.root.eval(ec)
}

// context finds the bound columns in rec.
func (c *Compiled) context(rec arrow.RecordBatch) (*evalCtx, error) {
	ec := &evalCtx{mem: c.mem, n: int(rec.NumRows()), cols: make([]arrow.Array, len(c.slots))}
	sc := rec.Schema()
	for i, s := range c.slots {
		idx := sc.FieldIndices(s.name)
		if len(idx) == 0 {
			return nil, fmt.Errorf("%w: no column %q in the batch", ErrMismatch, s.name)
		}
		col := rec.Column(idx[0])
		if !arrow.TypeEqual(col.DataType(), s.typ) {
			var err error
			if col, err = c.dictionaryInput(ec, i, col); err != nil {
				releaseArrays(ec.owned)
				return nil, err
			}
		}
		ec.cols[i] = col
	}
	return ec, nil
}

// dictionaryInput accepts a dictionary array of slot i's bound type as
// the slot's column: as is when the slot may be a dictionary, else
// expanded (owned by ec).
func (c *Compiled) dictionaryInput(ec *evalCtx, i int, col arrow.Array) (arrow.Array, error) {
	s := c.slots[i]
	dt, ok := col.DataType().(*arrow.DictionaryType)
	if !ok || !arrow.TypeEqual(dt.ValueType, s.typ) {
		return nil, fmt.Errorf("%w: column %q is %s in the batch, bound as %s", ErrMismatch, s.name, col.DataType(), s.typ)
	}
	da := col.(*array.Dictionary)
	if i < len(c.dictOK) && c.dictOK[i] && dt.IndexType.ID() == arrow.INT32 {
		return da, nil
	}
	plain, err := expandDictionary(ec, da)
	if err != nil {
		return nil, err
	}
	ec.owned = append(ec.owned, plain)
	return plain, nil
}

// Evaluate returns, for every row of rec, whether the filter selects it.
func (p *Predicate) Evaluate(rec arrow.RecordBatch) ([]bool, error) {
	return p.EvaluateInto(nil, rec)
}

// EvaluateInto is Evaluate reusing dst's storage.
func (p *Predicate) EvaluateInto(dst []bool, rec arrow.RecordBatch) ([]bool, error) {
	a, err := p.Eval(rec)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	return toBools(a, dst), nil
}
