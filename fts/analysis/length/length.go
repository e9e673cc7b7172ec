// Package length is tantivy's RemoveLongFilter: tokens of limit bytes or more are dropped.
package length

import "github.com/lancego/lancego/fts/analysis"

// Filter drops tokens whose byte length is >= Limit.
type Filter struct{ Limit int }

// Filter implements analysis.TokenFilter.
func (f Filter) Filter(t []analysis.Token) []analysis.Token {
	return analysis.Keep(t, func(s string) bool { return len(s) < f.Limit })
}
