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
	"github.com/lancego/lancego/expr"
)

// runDropColumns implements `lance drop-columns DATASET --columns a,st.b`.
func runDropColumns(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("drop-columns", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cols := fs.String("columns", "", "comma-separated columns to drop (st.a for a struct field)")
	if err := fs.Parse(splitArgs(args, nil)); err != nil {
		return err
	}
	if fs.NArg() != 1 || *cols == "" {
		return fmt.Errorf("drop-columns needs DATASET and --columns a[,b...]")
	}
	ds, err := lance.OpenDataset(ctx, fs.Arg(0))
	if err != nil {
		return err
	}
	defer ds.Close()
	names := splitList(*cols)
	out, err := ds.DropColumns(ctx, names)
	if err != nil {
		return err
	}
	defer out.Close()
	fmt.Fprintf(stdout, "dropped %s: version %d\n", strings.Join(names, ", "), out.Version())
	return nil
}

// runAlterColumns implements `lance alter-columns DATASET [--rename
// old:new[,...]] [--nullable a[,...]] [--not-null a[,...]]`.
func runAlterColumns(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("alter-columns", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rename := fs.String("rename", "", "comma-separated old:new renames (st.a:b renames a struct field)")
	nullable := fs.String("nullable", "", "comma-separated columns to make nullable")
	notNull := fs.String("not-null", "", "comma-separated columns to make non-nullable (refused if one holds a null)")
	if err := fs.Parse(splitArgs(args, nil)); err != nil {
		return err
	}
	if fs.NArg() != 1 || *rename == "" && *nullable == "" && *notNull == "" {
		return fmt.Errorf("alter-columns needs DATASET and at least one of --rename old:new, --nullable COL, --not-null COL")
	}
	alts, err := parseAlterations(*rename, *nullable, *notNull)
	if err != nil {
		return err
	}
	ds, err := lance.OpenDataset(ctx, fs.Arg(0))
	if err != nil {
		return err
	}
	defer ds.Close()
	out, err := ds.AlterColumns(ctx, alts)
	if err != nil {
		return err
	}
	defer out.Close()
	fmt.Fprintf(stdout, "altered %d columns: version %d\n", len(alts), out.Version())
	return nil
}

// parseAlterations turns the alter-columns flags into alterations, one
// per column path.
func parseAlterations(rename, nullable, notNull string) ([]lance.ColumnAlteration, error) {
	var alts []lance.ColumnAlteration
	at := map[string]int{}
	get := func(path string) *lance.ColumnAlteration {
		i, ok := at[path]
		if !ok {
			i = len(alts)
			at[path] = i
			alts = append(alts, lance.ColumnAlteration{Path: path})
		}
		return &alts[i]
	}
	for _, r := range splitList(rename) {
		old, nw, ok := strings.Cut(r, ":")
		if !ok || old == "" || nw == "" {
			return nil, fmt.Errorf("--rename %q: want old:new", r)
		}
		a := get(old)
		if a.Rename != nil {
			return nil, fmt.Errorf("--rename: column %s renamed twice", old)
		}
		a.Rename = &nw
	}
	for _, set := range []struct {
		list string
		val  bool
	}{{nullable, true}, {notNull, false}} {
		for _, c := range splitList(set.list) {
			a := get(c)
			if a.Nullable != nil {
				return nil, fmt.Errorf("column %s in both --nullable and --not-null", c)
			}
			v := set.val
			a.Nullable = &v
		}
	}
	return alts, nil
}

// runAddColumns implements `lance add-columns DATASET [--expr "z = x +
// id, w = ..."] [--null "name:TYPE,..."]`.
func runAddColumns(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("add-columns", flag.ContinueOnError)
	fs.SetOutput(stderr)
	exprs := fs.String("expr", "", `new columns from SQL expressions: "z = x + id, w = upper(s)"`)
	nulls := fs.String("null", "", `new all-null columns: "name:TYPE,..." (SQL types: int, bigint, double, string, ...)`)
	from := fs.String("from", "", "new columns from a file (Parquet, CSV, JSON, Arrow IPC, Lance) whose rows line up with the dataset's live rows")
	if err := fs.Parse(splitArgs(args, nil)); err != nil {
		return err
	}
	given := 0
	for _, f := range []string{*exprs, *nulls, *from} {
		if f != "" {
			given++
		}
	}
	if fs.NArg() != 1 || given != 1 {
		return fmt.Errorf("add-columns needs DATASET and one of --expr \"col = EXPR, ...\", --null \"col:TYPE, ...\" or --from FILE")
	}
	ds, err := lance.OpenDataset(ctx, fs.Arg(0))
	if err != nil {
		return err
	}
	defer ds.Close()
	var out *lance.Dataset
	var names []string
	switch {
	case *from != "":
		in, err := openSource(ctx, *from, "", 8192)
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
				if !yield(rec, nil) {
					return
				}
			}
		})
		defer rdr.Release()
		for _, f := range in.schema.Fields() {
			names = append(names, f.Name)
		}
		prog := newLabeledProgress(stderr, "adding columns")
		out, err = ds.AddColumnsFrom(ctx, rdr, prog.option())
		prog.done()
		if err != nil {
			return err
		}
	case *exprs != "":
		list, err := parseAssignments("--expr", *exprs)
		if err != nil {
			return err
		}
		cols := make([]lance.NewColumn, len(list))
		for i, a := range list {
			cols[i], names = lance.NewColumn{Name: a[0], Expr: a[1]}, append(names, a[0])
		}
		prog := newLabeledProgress(stderr, "adding columns")
		out, err = ds.AddColumns(ctx, cols, prog.option())
		prog.done()
		if err != nil {
			return err
		}
	default:
		fields, err := parseNullColumns(*nulls)
		if err != nil {
			return err
		}
		for _, f := range fields {
			names = append(names, f.Name)
		}
		if out, err = ds.AddNullColumns(ctx, fields); err != nil {
			return err
		}
	}
	defer out.Close()
	fmt.Fprintf(stdout, "added %s: version %d\n", strings.Join(names, ", "), out.Version())
	return nil
}

// parseNullColumns parses "name:TYPE,..." with the SQL type names CAST
// accepts.
func parseNullColumns(s string) ([]arrow.Field, error) {
	var out []arrow.Field
	for _, item := range splitTopLevel(s, ',') {
		name, typ, ok := strings.Cut(strings.TrimSpace(item), ":")
		name, typ = strings.TrimSpace(name), strings.TrimSpace(typ)
		if !ok || name == "" || typ == "" {
			return nil, fmt.Errorf("--null %q: want name:TYPE", item)
		}
		e, err := expr.Parse("CAST(NULL AS " + typ + ")")
		c, isCast := e.(*expr.Cast)
		if err != nil || !isCast || c.Type == nil {
			return nil, fmt.Errorf("--null %q: unknown type %q", item, typ)
		}
		out = append(out, arrow.Field{Name: name, Type: c.Type, Nullable: true})
	}
	return out, nil
}
