// Package lance builds the analyzer an INVERTED index's stored parameters describe (the `params`
// JSON of its metadata.lance), chaining the base tokenizer and filters in Lance's order:
// RemoveLong(max_token_length) → LowerCase → Stem → StopWords → AsciiFolding.
package lance

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/lancego/lancego/fts/analysis"
	"github.com/lancego/lancego/fts/analysis/asciifold"
	"github.com/lancego/lancego/fts/analysis/length"
	"github.com/lancego/lancego/fts/analysis/lowercase"
	"github.com/lancego/lancego/fts/analysis/raw"
	"github.com/lancego/lancego/fts/analysis/simple"
	"github.com/lancego/lancego/fts/analysis/stemmer"
	"github.com/lancego/lancego/fts/analysis/stop"
	"github.com/lancego/lancego/fts/analysis/whitespace"
)

// ErrUnsupported is returned for tokenizer parameters this package cannot reproduce.
var ErrUnsupported = errors.New("fts: unsupported tokenizer parameters")

// Params are Lance's InvertedIndexParams as stored in the index's `params` JSON.
type Params struct {
	LanceTokenizer  string   `json:"lance_tokenizer"`
	BaseTokenizer   string   `json:"base_tokenizer"`
	Language        string   `json:"language"`
	WithPosition    bool     `json:"with_position"`
	MaxTokenLength  *int     `json:"max_token_length"`
	LowerCase       bool     `json:"lower_case"`
	Stem            bool     `json:"stem"`
	RemoveStopWords bool     `json:"remove_stop_words"`
	CustomStopWords []string `json:"custom_stop_words"`
	ASCIIFolding    bool     `json:"ascii_folding"`
}

// Default returns Lance's default parameters.
func Default() Params {
	n := 40
	return Params{LanceTokenizer: "text", BaseTokenizer: "simple", Language: "English",
		MaxTokenLength: &n, LowerCase: true, Stem: true, RemoveStopWords: true, ASCIIFolding: true}
}

// ParseParams decodes the `params` JSON; absent fields keep Lance's defaults.
func ParseParams(b []byte) (Params, error) {
	p := Default()
	if err := json.Unmarshal(b, &p); err != nil {
		return p, fmt.Errorf("fts: params JSON: %w", err)
	}
	return p, nil
}

// New returns the analyzer for p.
func New(p Params) (*analysis.Analyzer, error) {
	a := &analysis.Analyzer{}
	switch p.BaseTokenizer {
	case "", "simple":
		a.Tokenizer = simple.Tokenizer{}
	case "whitespace":
		a.Tokenizer = whitespace.Tokenizer{}
	case "raw":
		a.Tokenizer = raw.Tokenizer{}
	default:
		return nil, fmt.Errorf("%w: base tokenizer %q", ErrUnsupported, p.BaseTokenizer)
	}
	if p.LanceTokenizer != "" && p.LanceTokenizer != "text" {
		return nil, fmt.Errorf("%w: lance tokenizer %q", ErrUnsupported, p.LanceTokenizer)
	}
	lang := strings.Trim(p.Language, `"`)
	if (p.Stem || (p.RemoveStopWords && p.CustomStopWords == nil)) && lang != "" && lang != "English" {
		return nil, fmt.Errorf("%w: language %q", ErrUnsupported, lang)
	}
	if p.MaxTokenLength != nil {
		a.Filters = append(a.Filters, length.Filter{Limit: *p.MaxTokenLength})
	}
	if p.LowerCase {
		a.Filters = append(a.Filters, lowercase.Filter{})
	}
	if p.Stem {
		a.Filters = append(a.Filters, stemmer.Filter{})
	}
	if p.RemoveStopWords {
		words := stop.English
		if p.CustomStopWords != nil {
			words = p.CustomStopWords
		}
		a.Filters = append(a.Filters, stop.New(words))
	}
	if p.ASCIIFolding {
		a.Filters = append(a.Filters, asciifold.Filter{})
	}
	return a, nil
}
