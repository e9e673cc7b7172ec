// Package stemmer is tantivy's Stemmer filter for English: the Snowball (Porter2) English
// stemmer, from github.com/kljensen/snowball.
package stemmer

import (
	"github.com/kljensen/snowball/english"

	"github.com/lancego/lancego/fts/analysis"
)

// Filter stems every term with the English Snowball stemmer.
type Filter struct{}

// Filter implements analysis.TokenFilter.
func (Filter) Filter(t []analysis.Token) []analysis.Token {
	return analysis.Map(t, func(s string) string { return english.Stem(s, true) })
}
