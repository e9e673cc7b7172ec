package main

import (
	"context"
	"fmt"
	"io"
)

func runDemo(ctx context.Context, args []string, out io.Writer) error {
	return fmt.Errorf("demo needs the writer")
}
