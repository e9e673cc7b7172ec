package fileread

import (
	"errors"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lancego/lancego/expr"
)

// A scan's filter is the conjunction of its top-level conjuncts: the AND
// terms of Filter (or of FilterSQL, parsed when the scan starts) and of
// each of Filters, in that order. By default every conjunct must bind and
// the scan applies them all exactly. With PartialFilter a conjunct that
// does not bind (an unknown function, a construct the engine does not
// evaluate: expr.ErrUnsupported or expr.ErrBind) is left to the caller:
// the scan returns the rows the other conjuncts select, and PlanFilter
// reports, conjunct by conjunct, what the scan applies. This is how a
// query engine pushes down what it can and evaluates the rest itself.

// Conjunct is one top-level AND term of a scan's filter and whether the
// scan applies it.
type Conjunct struct {
	// Expr is the conjunct.
	Expr expr.Expr
	// Err is nil when the scan applies the conjunct exactly; else why it
	// does not (the binding error), and the caller must apply it.
	Err error
}

// Applied reports whether the scan applies the conjunct exactly.
func (c Conjunct) Applied() bool { return c.Err == nil }

// FilterArgs are the filter fields of a file or dataset scan's options.
type FilterArgs struct {
	Filter    expr.Expr
	FilterSQL string
	Filters   []expr.Expr
	Partial   bool
}

// Empty reports whether the arguments hold no filter.
func (a FilterArgs) Empty() bool {
	return a.Filter == nil && a.FilterSQL == "" && len(a.Filters) == 0
}

// filterArgs returns the filter fields of o.
func (o ScanOptions) filterArgs() FilterArgs {
	return FilterArgs{Filter: o.Filter, FilterSQL: o.FilterSQL, Filters: o.Filters, Partial: o.PartialFilter}
}

// hasFilter reports whether o asks for a filter.
func (o ScanOptions) hasFilter() bool { return !o.filterArgs().Empty() }

// BindFilter binds the filter of a scan to schema: it returns the
// predicate of the conjuncts the scan applies (nil when none, or no
// filter) and every conjunct with its state. Errors wrap
// ErrInvalidArgument and name the filter: both Filter and FilterSQL set,
// FilterSQL that does not parse, and (without Partial) a conjunct that
// does not bind.
func BindFilter(a FilterArgs, schema *arrow.Schema, opts expr.Options) (*expr.Predicate, []Conjunct, error) {
	whole, conj, err := conjuncts(a)
	if err != nil || whole == nil {
		return nil, nil, err
	}
	if opts.Now.IsZero() {
		opts.Now = time.Now() // one instant for every conjunct
	}
	if !a.Partial {
		p, err := expr.BindWith(whole, schema, opts)
		if err != nil {
			name := whole.String()
			if a.Filter == nil && len(a.Filters) == 0 {
				name = fmt.Sprintf("%q", a.FilterSQL) // as the caller wrote it
			}
			return nil, nil, fmt.Errorf("%w: filter %s: %w", ErrInvalidArgument, name, err)
		}
		return p, conj, nil
	}
	var keep []expr.Expr
	for k := range conj {
		if _, err := expr.BindWith(conj[k].Expr, schema, opts); err != nil {
			if !errors.Is(err, expr.ErrBind) && !errors.Is(err, expr.ErrUnsupported) {
				return nil, nil, fmt.Errorf("%w: filter %s: %w", ErrInvalidArgument, conj[k].Expr, err)
			}
			conj[k].Err = err
			continue
		}
		keep = append(keep, conj[k].Expr)
	}
	switch {
	case len(keep) == 0:
		return nil, conj, nil
	case len(keep) == len(conj):
		keep = []expr.Expr{whole} // bind the filter as written
	}
	p, err := expr.BindWith(expr.And(keep...), schema, opts)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: filter %s: %w", ErrInvalidArgument, expr.And(keep...), err)
	}
	return p, conj, nil
}

// conjuncts returns the whole filter of a (nil when none) and its
// top-level conjuncts.
func conjuncts(a FilterArgs) (expr.Expr, []Conjunct, error) {
	if a.Filter != nil && a.FilterSQL != "" {
		return nil, nil, fmt.Errorf("%w: both Filter (%s) and FilterSQL (%q) are set", ErrInvalidArgument, a.Filter, a.FilterSQL)
	}
	var parts []expr.Expr
	if a.Filter != nil {
		parts = append(parts, a.Filter)
	}
	if a.FilterSQL != "" {
		e, err := expr.Parse(a.FilterSQL)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: filter %q: %w", ErrInvalidArgument, a.FilterSQL, err)
		}
		parts = append(parts, e)
	}
	for k, e := range a.Filters {
		if e == nil {
			return nil, nil, fmt.Errorf("%w: Filters[%d] is nil", ErrInvalidArgument, k)
		}
		parts = append(parts, e)
	}
	if len(parts) == 0 {
		return nil, nil, nil
	}
	var conj []Conjunct
	for _, p := range parts {
		for _, c := range expr.Conjuncts(p) {
			conj = append(conj, Conjunct{Expr: c})
		}
	}
	return expr.And(parts...), conj, nil
}

// PlanFilter binds the filter of opts to the file schema and returns its
// top-level conjuncts, each with whether a scan with opts applies it
// (see Conjunct); nil without a filter. It reads nothing.
func (f *File) PlanFilter(opts ScanOptions) ([]Conjunct, error) {
	_, conj, err := f.bindFilter(opts)
	return conj, err
}

// bindFilter binds the filter of opts to the file schema.
func (f *File) bindFilter(opts ScanOptions) (*expr.Predicate, []Conjunct, error) {
	return BindFilter(opts.filterArgs(), f.schema, expr.Options{}) // bound constants live as long as the predicate: Go memory
}
