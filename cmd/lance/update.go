package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	lance "github.com/lancego/lancego"
)

// runUpdate implements `lance update DATASET --set "x = x * 2, s = 'u'"
// [--where EXPR]`.
func runUpdate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("update", flag.ContinueOnError)
	fs.SetOutput(stderr)
	set := fs.String("set", "", "columns to set, \"col = SQL expression\" separated by commas, e.g. \"x = x * 2, s = 'u'\"")
	where := fs.String("where", "", "rows to update: a SQL filter as Lance accepts it (default every row)")
	if err := fs.Parse(splitArgs(args, nil)); err != nil {
		return err
	}
	if fs.NArg() != 1 || *set == "" {
		return fmt.Errorf("update needs DATASET and --set \"col = EXPR[, col = EXPR]\"")
	}
	sets, err := parseSetList(*set)
	if err != nil {
		return err
	}
	ds, err := lance.OpenDataset(ctx, fs.Arg(0))
	if err != nil {
		return err
	}
	defer ds.Close()
	out, n, err := ds.Update(ctx, sets, *where)
	if err != nil {
		return err
	}
	if out == ds {
		fmt.Fprintf(stdout, "no row matches; version %d unchanged\n", ds.Version())
		return nil
	}
	defer out.Close()
	fmt.Fprintf(stdout, "updated %d rows: version %d\n", n, out.Version())
	return nil
}

// parseSetList splits "a = x + 1, b = 'p,q'" into column → expression at
// the commas and the first '=' outside quotes, backticks and brackets
// ('=' of <=, >=, != and == is not an assignment).
func parseSetList(s string) (map[string]string, error) {
	out := map[string]string{}
	for _, item := range splitTopLevel(s, ',') {
		eq := assignmentAt(item)
		if eq < 0 {
			return nil, fmt.Errorf("--set %q: want col = EXPR", strings.TrimSpace(item))
		}
		col := strings.TrimSpace(item[:eq])
		if len(col) >= 2 && col[0] == '`' && col[len(col)-1] == '`' {
			col = col[1 : len(col)-1]
		}
		val := strings.TrimSpace(item[eq+1:])
		if col == "" || val == "" {
			return nil, fmt.Errorf("--set %q: want col = EXPR", strings.TrimSpace(item))
		}
		if _, dup := out[col]; dup {
			return nil, fmt.Errorf("--set: column %q set twice", col)
		}
		out[col] = val
	}
	return out, nil
}

// splitTopLevel splits s at sep outside quotes, backticks and brackets.
func splitTopLevel(s string, sep byte) []string {
	var parts []string
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			depth--
		case c == sep && depth == 0:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// assignmentAt is the index of the first top-level '=' of item that is
// an assignment, or -1.
func assignmentAt(item string) int {
	var quote byte
	for i := 0; i < len(item); i++ {
		c := item[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == '=':
			prev := byte(0)
			if i > 0 {
				prev = item[i-1]
			}
			if prev == '<' || prev == '>' || prev == '!' || (i+1 < len(item) && item[i+1] == '=') {
				return -1
			}
			return i
		}
	}
	return -1
}
