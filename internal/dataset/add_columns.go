package dataset

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"google.golang.org/protobuf/proto"

	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/format/pb/filepb"
	"github.com/lancego/lancego/format/pb/tablepb"
	"github.com/lancego/lancego/internal/fileread"
	"github.com/lancego/lancego/internal/filewriter"
)

// Adding columns as pylance 14.0.2's add_columns does: one Merge commit.
// Columns from SQL expressions get one new data file per fragment, of
// every physical row (deleted rows included, so row offsets still line
// up), with field ids after the largest the schema or any data file has;
// all-null columns get no data at all (a reader fills fields no data file
// holds with nulls). A Merge fails with ErrCommitConflict over any
// concurrent commit but new indices and fragment reservations (Lance's
// conflict resolver).

// NewColumn is one column AddColumns computes: its name and a SQL
// expression over the dataset's columns (pylance's add_columns({name:
// expr})).
type NewColumn struct {
	Name string
	Expr string
}

// addColumnsBatch is the number of rows evaluated at a time.
const addColumnsBatch = 8192

// AddColumns adds columns computed from SQL expressions over existing
// columns and commits the next version. A name already in the schema (or
// twice), an expression that does not bind, or a value that fails to
// evaluate fails with nothing committed.
func (ds *Dataset) AddColumns(ctx context.Context, cols []NewColumn, opts ...DatasetWriteOption) (*Dataset, error) {
	fail := func(err error) (*Dataset, error) {
		return nil, fmt.Errorf("lance: add columns to %s: %w", ds.url, err)
	}
	if len(cols) == 0 {
		return fail(fmt.Errorf("%w: no column", ErrInvalidArgument))
	}
	vals := make([]*expr.Compiled, len(cols))
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		e, err := expr.Parse(c.Expr)
		if err != nil {
			return fail(fmt.Errorf("%w: column %s = %q: %w", ErrInvalidArgument, c.Name, c.Expr, err))
		}
		if vals[i], err = expr.BindValue(e, ds.arrow, expr.Options{Mem: ds.allocator()}); err != nil {
			return fail(fmt.Errorf("%w: column %s = %q: %w", ErrInvalidArgument, c.Name, c.Expr, err))
		}
		fields[i] = arrow.Field{Name: c.Name, Type: vals[i].Type(), Nullable: true}
	}
	return ds.addColumns(ctx, fields, vals, opts)
}

// AddNullColumns adds nullable columns of the given names and types, all
// null, without writing data (pylance's add_columns(pyarrow fields)). A
// non-nullable field, or a name in use, fails with ErrInvalidArgument.
func (ds *Dataset) AddNullColumns(ctx context.Context, fields []arrow.Field, opts ...DatasetWriteOption) (*Dataset, error) {
	if len(fields) == 0 {
		return nil, fmt.Errorf("lance: add columns to %s: %w: no column", ds.url, ErrInvalidArgument)
	}
	for _, f := range fields {
		if !f.Nullable {
			return nil, fmt.Errorf("lance: add columns to %s: %w: column %s: all-null columns must be nullable", ds.url, ErrInvalidArgument, f.Name)
		}
	}
	return ds.addColumns(ctx, fields, nil, opts)
}

// fillColumns writes the new columns of fragment i (m) to w.
type fillColumns func(ctx context.Context, w *filewriter.File, schema *arrow.Schema, i int, m *Fragment) error

func (ds *Dataset) addColumns(ctx context.Context, add []arrow.Field, vals []*expr.Compiled, opts []DatasetWriteOption) (*Dataset, error) {
	if vals == nil {
		return ds.addColumnsWith(ctx, add, nil, nil, opts)
	}
	return ds.addColumnsWith(ctx, add, func(ctx context.Context, w *filewriter.File, schema *arrow.Schema, i int, m *Fragment) error {
		return ds.evalColumns(ctx, w, schema, vals, i, m)
	}, nil, opts)
}

// addColumnsWith adds the columns add: with fill nil all null (no data),
// else each fragment's data file written by fill; done, when set, is
// checked once every fragment is written, before the commit.
func (ds *Dataset) addColumnsWith(ctx context.Context, add []arrow.Field, fill fillColumns, done func() error, opts []DatasetWriteOption) (*Dataset, error) {
	fail := func(err error) (*Dataset, error) {
		return nil, fmt.Errorf("lance: add columns to %s: %w", ds.url, err)
	}
	c, err := newWriteConfig(opts)
	if err != nil {
		return nil, err
	}
	if !ds.store.CanPutIfAbsent() && c.lock == nil {
		return fail(fmt.Errorf("%w: the store cannot write conditionally; pass WithCommitLock", ErrUnsupported))
	}
	seen := map[string]bool{}
	for _, f := range ds.arrow.Fields() {
		seen[f.Name] = true
	}
	for _, f := range add {
		if strings.TrimSpace(f.Name) == "" || strings.Contains(f.Name, ".") {
			return fail(fmt.Errorf("%w: column name %q (empty, or a path)", ErrInvalidArgument, f.Name))
		}
		if seen[f.Name] {
			return fail(fmt.Errorf("%w: column %s already exists in the dataset", ErrInvalidArgument, f.Name))
		}
		seen[f.Name] = true
	}
	op := &writeOp{kind: opMerge, readVersion: ds.man.Version, schemaMeta: ds.man.SchemaMetadata}
	if err := ds.resolveFileVersion(c, op); err != nil {
		return fail(err)
	}
	fv, err := c.fileVersion()
	if err != nil {
		return fail(err)
	}
	schema := arrow.NewSchema(add, nil)
	newFields, leaves, err := filewriter.SchemaFields(schema, fv, nil)
	if err != nil {
		return fail(err)
	}
	base, err := ds.maxFieldID()
	if err != nil {
		return fail(err)
	}
	shiftIDs(newFields, leaves, base+1)
	op.fields = append(cloneFields(ds.man.Fields), newFields...)
	op.newFiles = map[uint64]*tablepb.DataFile{}
	if fill == nil {
		return ds.commitSchemaOp(ctx, op, opts)
	}
	var keys []string
	abandon := func(err error) (*Dataset, error) {
		removeKeys(context.WithoutCancel(ctx), ds.store, keys)
		return fail(err)
	}
	var rows uint64
	for i := range ds.frags {
		df, key, err := ds.writeColumnsFile(ctx, c, i, schema, fv, leaves, fill)
		if key != "" {
			keys = append(keys, key)
		}
		if err != nil {
			return abandon(err)
		}
		op.newFiles[ds.frags[i].ref.ID] = df
		if c.progress != nil { // every physical row of the fragment got its values
			rows += ds.frags[i].ref.PhysicalRows
			c.progress(rows)
		}
	}
	if done != nil {
		if err := done(); err != nil {
			return abandon(err)
		}
	}
	v, err := commit(ctx, ds.store, c, op)
	if err != nil {
		removeKeys(context.WithoutCancel(ctx), ds.store, keys)
		return nil, fmt.Errorf("lance: commit %s: %w", ds.url, err)
	}
	return ds.reopen(ctx, v)
}

// shiftIDs renumbers fields built from 0 to start at first.
func shiftIDs(fields []*filepb.Field, leaves []int32, first int32) {
	for _, f := range fields {
		if f.GetId() >= 0 {
			f.Id += first
		}
		if f.GetParentId() >= 0 {
			f.ParentId += first
		}
	}
	for i := range leaves {
		leaves[i] += first
	}
}

// maxFieldID is Lance's Manifest::max_field_id: the largest field id of
// the schema or of any data file (-1 when none).
func (ds *Dataset) maxFieldID() (int32, error) {
	mx := int32(-1)
	for _, f := range ds.man.Fields {
		mx = max(mx, f.GetId())
	}
	for i := range ds.frags {
		m, err := ds.fragment(i)
		if err != nil {
			return 0, err
		}
		for _, df := range m.Files {
			for _, id := range df.Fields {
				mx = max(mx, id)
			}
		}
	}
	return mx, nil
}

// writeColumnsFile writes the data file of the new columns of fragment
// i with fill. It returns the file's manifest entry and its key (set once
// the file is created).
func (ds *Dataset) writeColumnsFile(ctx context.Context, c *dsWriteConfig, i int, schema *arrow.Schema,
	fv format.Version, leaves []int32, fill fillColumns) (*tablepb.DataFile, string, error) {
	m, err := ds.fragment(i)
	if err != nil {
		return nil, "", err
	}
	name, err := NewDataFileName()
	if err != nil {
		return nil, "", err
	}
	key := DataDir + "/" + name
	create := func(ctx context.Context, _ string) (filewriter.ObjectWriter, error) { return ds.store.Create(ctx, key) }
	opts := append(append([]filewriter.Option(nil), c.file...), filewriter.WithObjectCreator(create), filewriter.WithLocalCreate())
	w, err := filewriter.Create(ctx, ds.store.URL(key), schema, opts...)
	if err != nil {
		return nil, "", fmt.Errorf("fragment %d: %w", m.ID, err)
	}
	err = fill(ctx, w, schema, i, m)
	if err == nil {
		err = w.Close(ctx)
	}
	if err != nil {
		w.Abort()
		return nil, key, fmt.Errorf("fragment %d: %w", m.ID, err)
	}
	cols := make([]int32, len(leaves))
	for j := range cols {
		cols[j] = int32(j)
	}
	return &tablepb.DataFile{Path: name, Fields: leaves, ColumnIndices: cols,
		FileMajorVersion: uint32(fv.Major()), FileMinorVersion: uint32(fv.Minor()), FileSizeBytes: w.Stats().Bytes}, key, nil
}

// evalColumns writes vals evaluated over every physical row of fragment
// i to w.
func (ds *Dataset) evalColumns(ctx context.Context, w *filewriter.File, schema *arrow.Schema, vals []*expr.Compiled, i int, m *Fragment) error {
	if m.PhysicalRows == 0 {
		return nil
	}
	all := make([]int, ds.arrow.NumFields())
	for j := range all {
		all[j] = j
	}
	if err := ds.prepareFragments(ctx, all, false, []int{i}); err != nil {
		return err
	}
	var werr, serr error
	emit := func(rec arrow.RecordBatch) bool {
		defer rec.Release()
		werr = writeEvaluated(ctx, w, schema, vals, rec)
		return werr == nil
	}
	whole := func(lo, hi uint64) []fileread.RowRange { return []fileread.RowRange{{From: lo, To: hi}} }
	r := fragRange{idx: i, lo: 0, hi: m.PhysicalRows}
	ok := ds.scanSelected(ctx, r, ds.newProjection(all, false, false, false), addColumnsBatch, whole, emit,
		func(_ arrow.RecordBatch, e error) bool { serr = e; return false })
	switch {
	case werr != nil:
		return werr
	case serr != nil:
		return serr
	case !ok:
		return fmt.Errorf("scan stopped")
	}
	return nil
}

// writeEvaluated evaluates vals over rec and writes the columns to w.
func writeEvaluated(ctx context.Context, w *filewriter.File, schema *arrow.Schema, vals []*expr.Compiled, rec arrow.RecordBatch) error {
	cols := make([]arrow.Array, len(vals))
	defer func() {
		for _, a := range cols {
			if a != nil {
				a.Release()
			}
		}
	}()
	for j, v := range vals {
		a, err := v.Eval(rec)
		if err != nil {
			return fmt.Errorf("column %s: %w", schema.Field(j).Name, err)
		}
		cols[j] = a
		if int64(a.Len()) != rec.NumRows() {
			return fmt.Errorf("column %s: %d values for %d rows", schema.Field(j).Name, a.Len(), rec.NumRows())
		}
	}
	out := array.NewRecordBatch(schema, cols, rec.NumRows())
	defer out.Release()
	return w.Write(ctx, out)
}

// applyMerge is buildManifest for a Merge: the new schema, and each
// fragment's new data file. Fragments must be the ones read (a Merge
// does not rebase over commits that change them: checkConcurrent).
func (op *writeOp) applyMerge(m *tablepb.Manifest) error {
	m.Fields, m.SchemaMetadata = op.fields, op.schemaMeta
	op.merged = op.merged[:0]
	for _, f := range m.Fragments {
		if df, ok := op.newFiles[f.GetId()]; ok {
			f.Files = append(f.Files, proto.Clone(df).(*tablepb.DataFile))
		} else if len(op.newFiles) > 0 {
			return fmt.Errorf("%w: fragment %d was added after the columns were computed", ErrCommitConflict, f.GetId())
		}
		op.merged = append(op.merged, f)
	}
	return nil
}
