package dataset

import (
	"context"
	"fmt"
)

// phrase scores a phrase query on column col.
func (s *ftsSearch) phrase(ctx context.Context, col, text string, slop int) (map[uint64]float32, error) {
	c, err := s.column(ctx, col)
	if err != nil {
		return nil, err
	}
	if c == nil {
		return nil, fmt.Errorf("%w: no INVERTED index on column %q", ErrInvalidArgument, col)
	}
	if !c.position {
		return nil, fmt.Errorf("%w: position is not found but required for phrase queries, try recreating the index with position", ErrInvalidArgument)
	}
	return nil, fmt.Errorf("%w: phrase queries", ErrUnsupported)
}
