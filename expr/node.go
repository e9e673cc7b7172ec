package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/scalar"
)

// A bound expression is a tree of nodes, built once by Bind and then
// evaluated batch by batch. Each node evaluates to an Arrow array of the
// batch's length (which the caller releases); a node never calls an
// interface per row: kernels loop over the arrays' buffers.
type node interface {
	// dataType is the type of the arrays eval returns.
	dataType() arrow.DataType
	// eval computes the node over the batch of ec.
	eval(ec *evalCtx) (arrow.Array, error)
}

// evalCtx is the state of one evaluation: the batch's columns by slot.
type evalCtx struct {
	mem   memory.Allocator
	cols  []arrow.Array // the bound columns, by slot
	n     int           // rows in the batch
	owned []arrow.Array // arrays made for cols (expanded dictionaries), released after the evaluation
}

// colNode reads a top-level column of the batch.
type colNode struct {
	slot int
	name string
	typ  arrow.DataType
}

func (c *colNode) dataType() arrow.DataType { return c.typ }

func (c *colNode) eval(ec *evalCtx) (arrow.Array, error) {
	a := ec.cols[c.slot]
	a.Retain()
	return a, nil
}

// constNode is a constant: val holds one row (NULL when val.IsNull(0));
// eval repeats it for every row of the batch. Kernels with a constant
// operand read val directly instead.
type constNode struct {
	val arrow.Array
}

func (c *constNode) dataType() arrow.DataType { return c.val.DataType() }

func (c *constNode) isNull() bool {
	return c.val.DataType().ID() == arrow.NULL || c.val.IsNull(0)
}

func (c *constNode) eval(ec *evalCtx) (arrow.Array, error) {
	return broadcast(ec.mem, c.val, ec.n)
}

// broadcast returns an array of n copies of row 0 of a.
func broadcast(mem memory.Allocator, a arrow.Array, n int) (arrow.Array, error) {
	if a.DataType().ID() == arrow.NULL {
		return arrowNullArray(n), nil
	}
	s, err := scalar.GetScalar(a, 0)
	if err != nil {
		return nil, fmt.Errorf("%w: constant of type %s: %w", ErrUnsupported, a.DataType(), err)
	}
	out, err := scalar.MakeArrayFromScalar(s, n, mem)
	if err != nil {
		return nil, fmt.Errorf("%w: constant of type %s: %w", ErrUnsupported, a.DataType(), err)
	}
	return out, nil
}

// asConst returns n as a constant node, if it is one.
func asConst(n node) (*constNode, bool) {
	c, ok := n.(*constNode)
	return c, ok
}

// isNullConst reports whether n is the constant NULL (of any type).
func isNullConst(n node) bool {
	c, ok := n.(*constNode)
	return ok && c.isNull()
}

// evalConst evaluates a node whose inputs are all constants, giving a
// one-row constant node (constant folding at bind time).
func evalConst(mem memory.Allocator, n node) (*constNode, error) {
	ec := &evalCtx{mem: mem, n: 1}
	a, err := n.eval(ec)
	if err != nil {
		return nil, err
	}
	return &constNode{val: a}, nil
}

// evalAll evaluates nodes, releasing what was made when one fails.
func evalAll(ec *evalCtx, ns []node) ([]arrow.Array, error) {
	out := make([]arrow.Array, len(ns))
	for i, n := range ns {
		a, err := n.eval(ec)
		if err != nil {
			releaseArrays(out[:i])
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}

// releaseArrays releases every non-nil array of as.
func releaseArrays(as []arrow.Array) {
	for _, a := range as {
		if a != nil {
			a.Release()
		}
	}
}
