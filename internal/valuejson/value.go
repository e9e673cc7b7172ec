package valuejson

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// Value returns the corpus JSON value of row i of arr (see the package
// documentation for the conventions). The result shares no memory with arr.
// It returns an error for an unsupported Arrow type (the message names the
// type) or an out-of-range row. Callers converting many rows of one array
// should use Column, which inspects the type only once.
func Value(arr arrow.Array, i int) (any, error) {
	if i < 0 || i >= arr.Len() {
		return nil, fmt.Errorf("valuejson: row %d out of range [0, %d)", i, arr.Len())
	}
	g, err := compile(arr, corpusStyle)
	if err != nil {
		return nil, err
	}
	return g(i), nil
}

// Column returns the corpus JSON values of all rows of arr, in order.
// The result shares no memory with arr.
func Column(arr arrow.Array) ([]any, error) {
	g, err := compile(arr, corpusStyle)
	if err != nil {
		return nil, err
	}
	out := make([]any, arr.Len())
	for i := range out {
		out[i] = g(i)
	}
	return out, nil
}
