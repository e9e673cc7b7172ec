package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

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
	prog := newLabeledProgress(stderr, "updating")
	out, n, err := ds.Update(ctx, sets, *where, prog.option())
	prog.done()
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
	list, err := parseAssignments("--set", s)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(list))
	for _, a := range list {
		out[a[0]] = a[1]
	}
	return out, nil
}

// parseAssignments parses "col = EXPR, col2 = EXPR2" in order (flag
// names the option in errors); a column assigned twice is an error.
func parseAssignments(flag, s string) ([][2]string, error) {
	var out [][2]string
	seen := map[string]bool{}
	for _, item := range splitTopLevel(s, ',') {
		eq := assignmentAt(item)
		if eq < 0 {
			return nil, fmt.Errorf("%s %q: want col = EXPR", flag, strings.TrimSpace(item))
		}
		col := strings.TrimSpace(item[:eq])
		if len(col) >= 2 && col[0] == '`' && col[len(col)-1] == '`' {
			col = col[1 : len(col)-1]
		}
		val := strings.TrimSpace(item[eq+1:])
		if col == "" || val == "" {
			return nil, fmt.Errorf("%s %q: want col = EXPR", flag, strings.TrimSpace(item))
		}
		if seen[col] {
			return nil, fmt.Errorf("%s: column %q set twice", flag, col)
		}
		seen[col] = true
		out = append(out, [2]string{col, val})
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

// runMergeInsert implements `lance merge-insert DATASET SRC --on id[,k2]
// [--when-matched update-all|delete|fail|do-nothing]
// [--when-not-matched insert-all|do-nothing]
// [--when-not-matched-by-source delete|keep] [--from FORMAT]`: SRC is a
// Lance, Arrow IPC, Parquet or CSV file (as convert reads them).
func runMergeInsert(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("merge-insert", flag.ContinueOnError)
	fs.SetOutput(stderr)
	on := fs.String("on", "", "key columns, comma separated")
	matched := fs.String("when-matched", "update-all", "update-all, delete, fail or do-nothing")
	notMatched := fs.String("when-not-matched", "insert-all", "insert-all or do-nothing")
	bySource := fs.String("when-not-matched-by-source", "keep", "keep or delete")
	from := fs.String("from", "", "format of SRC: lance, ipc, parquet or csv (default: from its name and bytes)")
	if err := fs.Parse(splitArgs(args, nil)); err != nil {
		return err
	}
	if fs.NArg() != 2 || *on == "" {
		return fmt.Errorf("merge-insert needs DATASET, SRC and --on KEY[,KEY]")
	}
	o := lance.MergeInsertOptions{On: strings.Split(*on, ",")}
	var ok bool
	if o.WhenMatched, ok = map[string]lance.WhenMatched{"update-all": lance.MatchedUpdateAll, "delete": lance.MatchedDelete,
		"fail": lance.MatchedFail, "do-nothing": lance.MatchedDoNothing}[*matched]; !ok {
		return fmt.Errorf("merge-insert: --when-matched %q (want update-all, delete, fail or do-nothing)", *matched)
	}
	if o.WhenNotMatched, ok = map[string]lance.WhenNotMatched{"insert-all": lance.NotMatchedInsertAll, "do-nothing": lance.NotMatchedDoNothing}[*notMatched]; !ok {
		return fmt.Errorf("merge-insert: --when-not-matched %q (want insert-all or do-nothing)", *notMatched)
	}
	if o.WhenNotMatchedBySource, ok = map[string]lance.WhenNotMatchedBySource{"keep": lance.NotMatchedBySourceKeep, "delete": lance.NotMatchedBySourceDelete}[*bySource]; !ok {
		return fmt.Errorf("merge-insert: --when-not-matched-by-source %q (want keep or delete)", *bySource)
	}
	in, err := openSource(ctx, fs.Arg(1), *from, 8192)
	if err != nil {
		return err
	}
	defer in.close()
	rdr := array.ReaderFromIter(in.schema, func(yield func(arrow.RecordBatch, error) bool) {
		for {
			rec, err := in.next(ctx)
			if err != nil || rec == nil {
				if err != nil {
					yield(nil, err)
				}
				return
			}
			if !yield(rec, nil) { // the reader owns rec now (it releases it on Next)
				return
			}
		}
	})
	defer rdr.Release()
	ds, err := lance.OpenDataset(ctx, fs.Arg(0))
	if err != nil {
		return err
	}
	defer ds.Close()
	prog := newLabeledProgress(stderr, "merging")
	out, st, err := ds.MergeInsert(ctx, rdr, o, prog.option())
	prog.done()
	if err != nil {
		return err
	}
	if out == ds {
		fmt.Fprintf(stdout, "nothing to merge; version %d unchanged\n", ds.Version())
		return nil
	}
	defer out.Close()
	fmt.Fprintf(stdout, "inserted %d, updated %d, deleted %d rows: version %d\n", st.Inserted, st.Updated, st.Deleted, out.Version())
	return nil
}

// runCompact implements `lance compact DATASET
// [--target-rows-per-fragment N] [--materialize-deletions-threshold F]`.
func runCompact(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("compact", flag.ContinueOnError)
	fs.SetOutput(stderr)
	target := fs.Uint64("target-rows-per-fragment", 1<<20, "merge fragments with fewer rows into runs of at least this many")
	threshold := fs.Float64("materialize-deletions-threshold", 0.1, "rewrite fragments whose deleted share is above this (1: never)")
	fs.Int("max-rows-per-group", 1024, "accepted for pylance compatibility (Lance 2.x files have no row groups)")
	if err := fs.Parse(splitArgs(args, nil)); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("compact takes one DATASET")
	}
	ds, err := lance.OpenDataset(ctx, fs.Arg(0))
	if err != nil {
		return err
	}
	defer ds.Close()
	prog := newLabeledProgress(stderr, "compacting")
	out, st, err := ds.Compact(ctx, lance.CompactOptions{TargetRowsPerFragment: *target, MaterializeDeletionsThreshold: float32(*threshold)}, prog.option())
	prog.done()
	if err != nil {
		return err
	}
	if out == ds {
		fmt.Fprintf(stdout, "nothing to compact; version %d unchanged\n", ds.Version())
		return nil
	}
	defer out.Close()
	fmt.Fprintf(stdout, "compacted %d fragments (%d files) into %d (%d files): version %d has %d fragments\n",
		st.FragmentsRemoved, st.FilesRemoved, st.FragmentsAdded, st.FilesAdded, out.Version(), out.NumFragments())
	return nil
}
