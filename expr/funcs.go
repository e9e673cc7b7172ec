package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// Functions. Each family (funcs_string.go, funcs_math.go, funcs_time.go,
// funcs_list.go) has a table from lower-case name to funcSpec; bindCall
// looks the name up in every table. A spec's bind checks the arguments
// (types, constants) and returns the bound node, usually a callNode
// with a kernel chosen for the argument types.

// funcSpec binds calls of one function.
type funcSpec struct {
	// bind returns the node for c with bound arguments args.
	bind func(b *binder, c *Call, args []node) (node, error)
	// volatile functions (random, uuid) are never folded into constants.
	volatile bool
}

// kernel computes a function over arguments of ec.n rows each.
type kernel func(ec *evalCtx, args []arrow.Array) (arrow.Array, error)

// callNode is a function applied to its arguments' arrays.
type callNode struct {
	name     string
	args     []node
	typ      arrow.DataType
	k        kernel
	volatile bool
}

func (c *callNode) dataType() arrow.DataType { return c.typ }
func (c *callNode) inputs() []node           { return c.args }

func (c *callNode) eval(ec *evalCtx) (arrow.Array, error) {
	args, err := evalAll(ec, c.args)
	if err != nil {
		return nil, err
	}
	defer releaseArrays(args)
	out, err := c.k(ec, args)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.name, err)
	}
	return out, nil
}

// lookupFunc finds the spec of a function by lower-case name.
func lookupFunc(name string) (funcSpec, bool) {
	for _, table := range []map[string]funcSpec{stringFuncs, mathFuncs, timeFuncs, listFuncs} {
		if s, ok := table[name]; ok {
			return s, true
		}
	}
	return funcSpec{}, false
}

// bindCall binds a function call.
func (b *binder) bindCall(c *Call) (node, error) {
	spec, ok := lookupFunc(c.Name)
	if !ok {
		return nil, fmt.Errorf("%w: unknown function %q (at %d)", ErrBind, c.Name, c.At)
	}
	args := make([]node, len(c.Args))
	for i, a := range c.Args {
		n, err := b.bind(a)
		if err != nil {
			return nil, err
		}
		args[i] = n
	}
	n, err := spec.bind(b, c, args)
	if err != nil {
		return nil, err
	}
	if spec.volatile {
		b.ref(volatileRef)
		if cn, ok := n.(*callNode); ok {
			cn.volatile = true
		}
		return n, nil
	}
	return b.fold(n, nil)
}

// argCountError reports a call with the wrong number of arguments.
func argCountError(c *Call, want string) error {
	return fmt.Errorf("%w: %s takes %s arguments, got %d (at %d)", ErrBind, c.Name, want, len(c.Args), c.At)
}

// argTypeError reports an argument of the wrong type.
func argTypeError(c *Call, i int, n node, want string) error {
	return fmt.Errorf("%w: argument %d of %s must be %s, got %s (at %d)", ErrBind, i+1, c.Name, want, n.dataType(), c.Args[i].Pos())
}
