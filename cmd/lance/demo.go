package main

import (
	"context"
	"embed"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

//go:embed samples/*.lance
var samples embed.FS

// runDemo copies the embedded sample files into a temporary folder, then
// inspects them and reads rows by scan and by take, as a user would.
func runDemo(ctx context.Context, args []string, out io.Writer) error {
	fl := flag.NewFlagSet("demo", flag.ContinueOnError)
	keep := fl.Bool("keep", false, "keep the temporary folder")
	if err := fl.Parse(args); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "lance-demo-")
	if err != nil {
		return err
	}
	if *keep {
		fmt.Fprintf(out, "files are kept in %s\n", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	names, err := fs.Glob(samples, "samples/*.lance")
	if err != nil {
		return err
	}
	for _, name := range names {
		path := filepath.Join(dir, filepath.Base(name))
		b, err := samples.ReadFile(name)
		if err != nil {
			return err
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return err
		}
		if err := demoFile(ctx, path, out); err != nil {
			return err
		}
	}
	return nil
}

func demoFile(ctx context.Context, path string, out io.Writer) error {
	steps := [][]string{
		{"inspect", path},
		{"cat", path, "--rows", "0:5", "--format", "table"},
		{"cat", path, "--take", "7,2,7", "--format", "json"},
	}
	for _, s := range steps {
		fmt.Fprintf(out, "\n$ lance %s\n", joinArgs(s))
		if err := run(ctx, s, out, out); err != nil {
			return err
		}
	}
	return nil
}

func joinArgs(a []string) string {
	s := ""
	for i, x := range a {
		if i > 0 {
			s += " "
		}
		s += x
	}
	return s
}
