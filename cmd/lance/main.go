// Command lance inspects and reads Lance files.
//
//	lance inspect URL [--json]
//	lance cat URL [--columns a,b] [--rows START:END] [--take 5,1,9] [--format json|table|csv]
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
)

const usage = `usage:
  lance inspect URL [--json]
      version, rows, schema, and every page of every column with its layout,
      codecs, rows and byte sizes
  lance cat URL [--columns a,b] [--rows START:END] [--take 5,1,9] [--format json|table|csv]
      print rows; json prints {"num_rows": N, "columns": {...}} in the corpus
      value conventions
  lance demo
      write a sample Lance file into a temporary folder, then inspect and read it

URL is a local path or a file:// URL.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "lance:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, usage)
		return nil
	}
	switch args[0] {
	case "inspect":
		return runInspect(ctx, args[1:], stdout)
	case "cat":
		return runCat(ctx, args[1:], stdout)
	case "demo":
		return runDemo(ctx, args[1:], stdout)
	}
	return fmt.Errorf("unknown command %q\n%s", args[0], usage)
}

// splitArgs moves flags (and their values) before positional arguments so
// that `lance cat URL --columns a` parses like `lance cat --columns a URL`.
// boolFlags names the flags that take no value.
func splitArgs(args []string, boolFlags map[string]bool) []string {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if !strings.Contains(name, "=") && !boolFlags[name] && i+1 < len(args) {
			flags = append(flags, args[i+1])
			i++
		}
	}
	return append(flags, pos...)
}
