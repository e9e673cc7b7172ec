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
	"strings"
)

//go:embed samples/*.lance
var samples embed.FS

// sampleDataset is a small dataset written by pylance 14.0.2 (a copy of
// testdata/datasets/small: 4 versions, appends and deletes).
//
//go:embed all:samples/dataset
var sampleDataset embed.FS

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
	written := filepath.Join(dir, "demo.lance")
	fmt.Fprintf(out, "writing %d rows with lancego's writer (zone seeds on) to %s\n", demoRows, written)
	if err := writeDemoFile(ctx, written); err != nil {
		return err
	}
	if err := demoSteps(ctx, out, [][]string{
		{"inspect", written},
		{"cat", written, "--rows", "0:4", "--format", "table"},
		{"cat", written, "--take", "49999,7,7", "--format", "json"},
		{"cat", written, "--filter", "id >= 20000 AND id < 20003 AND label IS NOT NULL", "--format", "table", "--stats"},
		{"inspect", written, "--zones"},
	}); err != nil {
		return err
	}
	fmt.Fprintln(out, "\nreading real Lance files (written by Lance core 8.0.0):")
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
	if err := demoDataset(ctx, dir, out); err != nil {
		return err
	}
	return demoObjectStore(ctx, dir, out)
}

// demoDataset copies the sample dataset out and reads it at two versions.
func demoDataset(ctx context.Context, dir string, out io.Writer) error {
	fmt.Fprintln(out, "\nreading a Lance dataset written by pylance 14.0.2 (appends and deletes), at two versions:")
	root := filepath.Join(dir, "dataset.lance")
	err := fs.WalkDir(sampleDataset, "samples/dataset", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		dst := filepath.Join(root, strings.TrimPrefix(p, "samples/dataset"))
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := sampleDataset.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		return err
	}
	return demoSteps(ctx, out, [][]string{
		{"inspect", root, "--versions"},
		{"cat", root, "--version", "2", "--with-row-id", "--format", "table"},
		{"cat", root, "--with-row-id", "--with-row-address", "--format", "table"},
		{"cat", root, "--take", "7,0", "--format", "json"},
		{"cat", root, "--row-ids", "4294967299,8589934592", "--with-row-id", "--format", "json"},
	})
}

func demoFile(ctx context.Context, path string, out io.Writer) error {
	return demoSteps(ctx, out, [][]string{
		{"inspect", path},
		{"cat", path, "--rows", "0:5", "--format", "table"},
		{"cat", path, "--take", "7,2,7", "--format", "json"},
	})
}

// demoSteps runs CLI commands, echoing each first.
func demoSteps(ctx context.Context, out io.Writer, steps [][]string) error {
	for _, s := range steps {
		fmt.Fprintf(out, "\n$ lance %s\n", joinArgs(s))
		if err := run(ctx, s, out, out); err != nil {
			return err
		}
	}
	return nil
}

// joinArgs renders a command line, quoting arguments with spaces.
func joinArgs(a []string) string {
	parts := make([]string, len(a))
	for i, x := range a {
		parts[i] = x
		if strings.ContainsAny(x, " '") {
			parts[i] = `"` + x + `"`
		}
	}
	return strings.Join(parts, " ")
}
