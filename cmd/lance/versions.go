package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	lance "github.com/lancego/lancego"
)

// runTag implements `lance tag create|update|list|delete DATASET ...`.
func runTag(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("tag needs a subcommand: create, update, list or delete")
	}
	sub := args[0]
	if !slices.Contains([]string{"create", "update", "list", "delete"}, sub) {
		return fmt.Errorf("unknown tag subcommand %q (create, update, list, delete)", sub)
	}
	fs := flag.NewFlagSet("tag "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	version := fs.Uint64("version", 0, "version the tag refers to (default the latest)")
	asJSON := fs.Bool("json", false, "list: print the tags as one JSON object")
	if err := fs.Parse(splitArgs(args[1:], map[string]bool{"json": true})); err != nil {
		return err
	}
	need := 2
	if sub == "list" {
		need = 1
	}
	if fs.NArg() != need {
		if need == 1 {
			return fmt.Errorf("tag list needs DATASET")
		}
		return fmt.Errorf("tag %s needs DATASET and NAME", sub)
	}
	ds, err := lance.OpenDataset(ctx, fs.Arg(0))
	if err != nil {
		return err
	}
	defer ds.Close()
	name := fs.Arg(1)
	switch sub {
	case "create", "update":
		op := ds.CreateTag
		if sub == "update" {
			op = ds.UpdateTag
		}
		if err := op(ctx, name, *version); err != nil {
			return err
		}
		t, err := ds.Tag(ctx, name)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "tag %s: version %d\n", name, t.Version)
		return nil
	case "delete":
		if err := ds.DeleteTag(ctx, name); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "deleted tag %s\n", name)
		return nil
	case "list":
		tags, err := ds.Tags(ctx)
		if err != nil {
			return err
		}
		if *asJSON {
			b, err := json.Marshal(tags)
			if err != nil {
				return err
			}
			fmt.Fprintln(stdout, string(b))
			return nil
		}
		return printTags(stdout, tags)
	}
	return nil
}

// printTags prints one line per tag, newest version first, then by name
// (pylance's tags.list_ordered()).
func printTags(w io.Writer, tags map[string]lance.Tag) error {
	list := make([]lance.Tag, 0, len(tags))
	for _, t := range tags {
		list = append(list, t)
	}
	slices.SortFunc(list, func(a, b lance.Tag) int {
		if a.Version != b.Version {
			if a.Version > b.Version {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	if len(list) == 0 {
		fmt.Fprintln(w, "no tags")
	}
	for _, t := range list {
		line := fmt.Sprintf("%s\tversion %d", t.Name, t.Version)
		if t.Branch != "" {
			line += "\tbranch " + t.Branch
		}
		if !t.CreatedAt.IsZero() {
			line += "\tcreated " + t.CreatedAt.UTC().Format(time.RFC3339)
		}
		fmt.Fprintln(w, line)
	}
	return nil
}

// runRestore implements `lance restore DATASET --version V | --tag T`.
func runRestore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("restore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	version := fs.Uint64("version", 0, "version to restore")
	tag := fs.String("tag", "", "tag whose version to restore")
	if err := fs.Parse(splitArgs(args, nil)); err != nil {
		return err
	}
	if fs.NArg() != 1 || (*version == 0) == (*tag == "") {
		return fmt.Errorf("restore needs DATASET and one of --version V or --tag T")
	}
	opt := lance.WithVersion(*version)
	if *tag != "" {
		opt = lance.WithTag(*tag)
	}
	ds, err := lance.OpenDataset(ctx, fs.Arg(0), opt)
	if err != nil {
		return err
	}
	defer ds.Close()
	out, err := ds.Restore(ctx)
	if err != nil {
		return err
	}
	defer out.Close()
	n, err := out.CountRows(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "restored version %d as version %d: %d rows\n", ds.Version(), out.Version(), n)
	return nil
}

// runCleanup implements `lance cleanup DATASET [--older-than DURATION]
// [--retain-versions N] [--delete-unverified] [--ignore-tagged]`.
func runCleanup(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("cleanup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	older := fs.String("older-than", "", "remove versions older than this: a Go duration (36h) or days/weeks (7d, 2w); 0 for every old version (default 14d)")
	retain := fs.Int("retain-versions", 0, "keep the newest N versions")
	unverified := fs.Bool("delete-unverified", false, "also remove unreferenced files less than 7 days old (only when nothing else writes the dataset)")
	ignoreTagged := fs.Bool("ignore-tagged", false, "keep old tagged versions silently instead of failing")
	asJSON := fs.Bool("json", false, "print the statistics as one JSON object")
	bools := map[string]bool{"delete-unverified": true, "ignore-tagged": true, "json": true}
	if err := fs.Parse(splitArgs(args, bools)); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("cleanup needs DATASET")
	}
	o := lance.CleanupOptions{RetainVersions: *retain, DeleteUnverified: *unverified, IgnoreTaggedOldVersions: *ignoreTagged}
	if *older != "" {
		d, err := parseAge(*older)
		if err != nil {
			return fmt.Errorf("--older-than: %w", err)
		}
		o.OlderThan = max(d, time.Nanosecond) // 0: every version older than now
	}
	ds, err := lance.OpenDataset(ctx, fs.Arg(0))
	if err != nil {
		return err
	}
	defer ds.Close()
	st, err := ds.Cleanup(ctx, o)
	if err != nil {
		return err
	}
	if *asJSON {
		b, err := json.Marshal(st)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, string(b))
		return nil
	}
	fmt.Fprintf(stdout, "removed %d versions, %d data files, %d deletion files, %d transaction files, %d index files: %d bytes\n",
		st.OldVersions, st.DataFilesRemoved, st.DeletionFilesRemoved, st.TransactionFilesRemoved, st.IndexFilesRemoved, st.BytesRemoved)
	if st.FailedDeletes > 0 {
		fmt.Fprintf(stdout, "%d files could not be removed\n", st.FailedDeletes)
	}
	return nil
}

// parseAge parses a Go duration, or a number of days or weeks ("7d",
// "1.5d", "2w"); "0" is zero.
func parseAge(s string) (time.Duration, error) {
	if d, err := time.ParseDuration(s); err == nil {
		if d < 0 {
			return 0, fmt.Errorf("negative duration %q", s)
		}
		return d, nil
	}
	unit := time.Duration(0)
	switch {
	case strings.HasSuffix(s, "d"):
		unit = 24 * time.Hour
	case strings.HasSuffix(s, "w"):
		unit = 7 * 24 * time.Hour
	default:
		return 0, fmt.Errorf("bad duration %q (say 36h, 7d or 2w)", s)
	}
	n, err := strconv.ParseFloat(s[:len(s)-1], 64)
	if err != nil || n < 0 || n > 100000 {
		return 0, fmt.Errorf("bad duration %q (say 36h, 7d or 2w)", s)
	}
	return time.Duration(n * float64(unit)), nil
}
