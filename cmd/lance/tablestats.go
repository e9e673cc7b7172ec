package main

import (
	"context"
	"errors"
	"io"
)

// runTableStats implements `lance stats DATASET [--json]`.
func runTableStats(ctx context.Context, args []string, out io.Writer) error {
	return errors.New("lance stats: not implemented yet")
}
