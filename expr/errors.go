package expr

import "errors"

// Sentinel errors. Every error of this package wraps one of them (test
// with errors.Is); the message names the position, column or function.
var (
	// ErrSyntax reports text that does not parse, or a construct the
	// dialect refuses (as Lance refuses it), with its byte position.
	ErrSyntax = errors.New("expr: syntax error")

	// ErrBind reports an expression that does not fit the schema: an
	// unknown column or struct field, an unknown function, a literal
	// that does not convert losslessly to the compared column's type,
	// arguments of the wrong types.
	ErrBind = errors.New("expr: cannot bind")

	// ErrUnsupported reports a construct Lance accepts that this engine
	// does not evaluate (random(), uuid()).
	ErrUnsupported = errors.New("expr: unsupported")

	// ErrEval reports a failure while evaluating over data, as Lance
	// fails the query: division by zero, a CAST of a value that does not
	// convert, an integer overflow where DataFusion checks it.
	ErrEval = errors.New("expr: evaluation failed")

	// ErrMismatch reports a record batch that lacks a bound column or
	// holds it with another type than the one bound.
	ErrMismatch = errors.New("expr: batch does not match the bound schema")
)
