// Package lowercase is tantivy's LowerCaser token filter.
package lowercase

import (
	"strings"

	"github.com/lancego/lancego/fts/analysis"
)

// Filter lower-cases every term (Unicode).
type Filter struct{}

// Filter implements analysis.TokenFilter.
func (Filter) Filter(t []analysis.Token) []analysis.Token { return analysis.Map(t, strings.ToLower) }
