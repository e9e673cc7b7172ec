// Package expr is lancego's expression engine: the SQL filter dialect
// real Lance (pylance 14.0.2, whose planner is DataFusion's) accepts,
// parsed once, bound to a schema, evaluated over Arrow record batches
// and asked what zone statistics can prune. Every filter lancego takes —
// file and dataset scans, counts, deletes, takes with a filter — goes
// through it, and so can a query engine's pushed-down predicates.
//
// # Pipeline
//
//	e, err := expr.Parse("id % 5 = 0 AND lower(name) LIKE 'ab%'") // text → tree
//	p, err := expr.Bind(e, schema)                                 // tree → typed program
//	keep, err := p.Evaluate(batch)                                  // program × batch → rows
//	mask, err := p.MayMatch(seeds, rowsPerZone, rows)               // program × zone seeds → zones
//
// Parse turns text into a tree of the node types in ast.go (Column,
// Literal, Binary, Call, …). The tree can also be built in Go (Col, Lit,
// Eq, And, Fn, … in build.go) or imported from a Substrait
// ExtendedExpression (FromSubstrait), which is how query engines push
// typed predicates.
//
// Bind resolves columns (case-insensitively unless quoted with
// backticks; struct fields with st.x, list elements with l[1], 1-based),
// converts literals compared with a column to its type losslessly or
// refuses them as Lance does ("i = 3.0" on an int32 column is an error),
// types the rest with DataFusion's coercion rules, checks functions and
// folds constants. The result is a tree of kernels that evaluate whole
// Arrow arrays: no interface call and no allocation per row.
//
// # Semantics
//
// Those of Lance, checked against pylance (the probes and the conformance
// set in testdata/): SQL three-valued logic (a row whose filter is NULL
// is not selected); floats in Arrow's total order with the zeros equal
// (-NaN < -Inf < … < -0.0 = 0.0 < … < +Inf < NaN, and NaN = NaN);
// strings and binaries compared by bytes; integer division that
// truncates; division by zero and failing CASTs fail the evaluation
// (ErrEval) rather than giving NULL.
//
// # Errors
//
// Every error wraps one of ErrSyntax, ErrBind, ErrUnsupported, ErrEval
// or ErrMismatch and names the position (a byte offset in the filter
// text), the column or the function at fault.
package expr
