package expr

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Casts follow arrow-rs's cast kernel with DataFusion's options: CAST is
// not "safe" (a value that does not convert fails the query, ErrEval),
// TRY_CAST is (such a value becomes NULL). The same node serves the
// binder's implicit coercions (b.castTo). Type pairs arrow-rs refuses
// (date → double, boolean → decimal, …) are refused at bind time.

// castNode casts its input to type to.
type castNode struct {
	x   node
	to  arrow.DataType
	try bool
	at  int
	k   castKernel
}

// castKernel converts a (of the node's input type) to cc.to.
type castKernel func(cc *castCtx, a arrow.Array) (arrow.Array, error)

// castCtx is what a cast kernel needs besides its input.
type castCtx struct {
	mem memory.Allocator
	to  arrow.DataType
	try bool
}

func (c *castNode) dataType() arrow.DataType { return c.to }
func (c *castNode) inputs() []node           { return []node{c.x} }

func (c *castNode) eval(ec *evalCtx) (arrow.Array, error) {
	a, err := c.x.eval(ec)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	out, err := c.k(&castCtx{mem: ec.mem, to: c.to, try: c.try}, a)
	if err != nil {
		if errors.Is(err, ErrEval) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: Cast error: %w (CAST to %s at %d)", ErrEval, err, c.to, c.at)
	}
	return out, nil
}

// newCast returns the node casting x to type to (try: NULL where a value
// does not convert, else an error). Casting to x's own type returns x.
func newCast(x node, to arrow.DataType, try bool, at int) (node, error) {
	from := x.dataType()
	if to == nil {
		return nil, fmt.Errorf("%w: cast to a nil type (at %d)", ErrBind, at)
	}
	if arrow.TypeEqual(from, to) {
		return x, nil
	}
	k := castKernelFor(from, to)
	if k == nil {
		return nil, fmt.Errorf("%w: Unsupported CAST from %s to %s (at %d)", ErrBind, from, to, at)
	}
	return &castNode{x: x, to: to, try: try, at: at, k: k}, nil
}

// castKernelFor picks the kernel converting from to to, nil when the
// pair cannot be cast.
func castKernelFor(from, to arrow.DataType) castKernel {
	if from.ID() == arrow.NULL {
		return castFromNull
	}
	if to.ID() == arrow.NULL {
		return nil
	}
	fc, tc := castClass(from), castClass(to)
	if tc == clsString && (from.ID() == arrow.LIST || from.ID() == arrow.LARGE_LIST) {
		elem := from.(arrow.ListLikeType).Elem()
		if castKernelFor(elem, arrow.BinaryTypes.String) == nil {
			return nil
		}
		return castListToString
	}
	switch {
	case tc == clsString && fc != clsOther:
		return castToString
	case fc == clsString:
		return stringCastKernel(from, to)
	case fc == clsBinary && (tc == clsBinary):
		return castBinaryToBinary
	case fc == clsInt || fc == clsFloat || fc == clsBool:
		switch tc {
		case clsInt, clsFloat:
			if fc == clsBool {
				return castBoolToNumber
			}
			return castNumeric
		case clsBool:
			if fc == clsBool {
				return nil
			}
			return castNumberToBool
		case clsDecimal:
			if fc == clsBool {
				return nil
			}
			return castToDecimal
		case clsTimestamp, clsDate32:
			if fc == clsBool {
				return nil
			}
			return castNumeric
		}
		return nil
	case fc == clsDecimal:
		switch tc {
		case clsDecimal:
			return castDecimalToDecimal
		case clsInt:
			return castDecimalToInt
		case clsFloat:
			return castDecimalToFloat
		}
		return nil
	case fc == clsDate32 || fc == clsTimestamp || fc == clsDate64:
		return temporalCastKernel(fc, tc)
	}
	if castIsNested(from) || castIsNested(to) {
		if compute.CanCast(from, to) {
			return castWithCompute
		}
	}
	return nil
}

// Cast classes.
const (
	clsOther = iota
	clsInt
	clsFloat
	clsBool
	clsDecimal
	clsString
	clsBinary
	clsDate32
	clsDate64
	clsTimestamp
)

// castClass returns the cast class of t.
func castClass(t arrow.DataType) int {
	switch t.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64,
		arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
		return clsInt
	case arrow.FLOAT32, arrow.FLOAT64:
		return clsFloat
	case arrow.BOOL:
		return clsBool
	case arrow.DECIMAL128:
		return clsDecimal
	case arrow.STRING, arrow.LARGE_STRING:
		return clsString
	case arrow.BINARY, arrow.LARGE_BINARY:
		return clsBinary
	case arrow.DATE32:
		return clsDate32
	case arrow.DATE64:
		return clsDate64
	case arrow.TIMESTAMP:
		return clsTimestamp
	}
	return clsOther
}

// castIsNested reports list, struct and map types (cast by arrow-go's
// compute, element by element).
func castIsNested(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.LIST, arrow.LARGE_LIST, arrow.FIXED_SIZE_LIST, arrow.STRUCT, arrow.MAP:
		return true
	}
	return false
}

// castFromNull gives a NULL of the target type for every row.
func castFromNull(cc *castCtx, a arrow.Array) (arrow.Array, error) {
	return array.MakeArrayOfNull(cc.mem, cc.to, a.Len()), nil
}

// castWithCompute casts nested values with arrow-go's cast kernels.
func castWithCompute(cc *castCtx, a arrow.Array) (arrow.Array, error) {
	opts := compute.SafeCastOptions(cc.to)
	ctx := compute.WithAllocator(context.Background(), cc.mem)
	out, err := compute.CastArray(ctx, a, opts)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// failValue reports a value that does not convert: with TRY_CAST the row
// becomes NULL (false: go on), else the error.
func (cc *castCtx) failValue(ns *nullSetter, i int, format string, args ...any) error {
	if cc.try {
		ns.setNull(i)
		return nil
	}
	return fmt.Errorf(format, args...)
}
