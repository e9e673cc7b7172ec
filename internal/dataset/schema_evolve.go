package dataset

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/format/pb/filepb"
	"github.com/lancego/lancego/format/pb/tablepb"
	lanceio "github.com/lancego/lancego/io"
)

// Schema evolution as pylance 14.0.2 does it (Lance's schema_evolution.rs),
// for the changes that rewrite no data: dropping, renaming and re-nulling
// columns commit a Project (the schema changes, data files holding none of
// its fields leave their fragments, indices over removed fields go). Field
// ids never change meaning: a renamed field keeps its id. Under concurrent
// commits a Project rebases over appends, deletes, updates, compactions and
// new indices and fails with ErrCommitConflict over other schema changes,
// overwrites and restores (Lance's conflict_resolver.rs). Adding columns and
// casting them (a Merge writing new data files) are not written yet.

// ColumnAlteration is one change AlterColumns makes to an existing column
// (Lance's ColumnAlteration): at least one of Rename, Nullable, DataType.
type ColumnAlteration struct {
	// Path names the column: "x", or "st.a" for a struct field.
	Path string
	// Rename, when set, is the column's new name (its path keeps the
	// parents: renaming "st.a" to "b" makes "st.b").
	Rename *string
	// Nullable, when set, makes the column nullable (true) or not (false:
	// refused when a live row holds a null).
	Nullable *bool
	// DataType, when set, would cast the column to another type; it is
	// refused with ErrUnsupported for now (a cast rewrites the column's
	// data, which this writer does not do yet).
	DataType arrow.DataType
}

// DropColumns removes columns (top-level names or struct field paths
// "st.a"; a struct left without fields goes too) and commits the next
// version. No data is rewritten: data files holding only dropped fields
// leave their fragments, indices over a dropped field are removed.
// Dropping every column, or a column the dataset does not have, fails
// with ErrInvalidArgument and commits nothing.
func (ds *Dataset) DropColumns(ctx context.Context, names []string, opts ...DatasetWriteOption) (*Dataset, error) {
	fail := func(err error) (*Dataset, error) {
		return nil, fmt.Errorf("lance: drop columns of %s: %w", ds.url, err)
	}
	if len(names) == 0 {
		return fail(fmt.Errorf("%w: no column named", ErrInvalidArgument))
	}
	drop := map[int32]bool{}
	for _, n := range names {
		f := ds.fieldByPath(n)
		if f == nil {
			return fail(fmt.Errorf("%w: column %s does not exist in the dataset", ErrInvalidArgument, n))
		}
		markSubtree(f, drop)
	}
	fields := dropFields(ds.man.Fields, drop)
	if len(fields) == 0 {
		return fail(fmt.Errorf("%w: cannot drop all columns from a dataset", ErrInvalidArgument))
	}
	return ds.commitSchemaOp(ctx, &writeOp{kind: opProject, fields: fields}, opts)
}

// AlterColumns renames columns and changes their nullability (see
// ColumnAlteration), all in one new version committed as a Project, as
// pylance's alter_columns does; no data is rewritten.
func (ds *Dataset) AlterColumns(ctx context.Context, alts []ColumnAlteration, opts ...DatasetWriteOption) (*Dataset, error) {
	fail := func(err error) (*Dataset, error) {
		return nil, fmt.Errorf("lance: alter columns of %s: %w", ds.url, err)
	}
	if len(alts) == 0 {
		return fail(fmt.Errorf("%w: no alteration", ErrInvalidArgument))
	}
	fields := cloneFields(ds.man.Fields)
	byID := map[int32]*filepb.Field{}
	for _, f := range fields {
		byID[f.GetId()] = f
	}
	for _, a := range alts {
		src := ds.fieldByPath(a.Path)
		if src == nil {
			return fail(fmt.Errorf("%w: column %q does not exist in the dataset", ErrInvalidArgument, a.Path))
		}
		if a.Rename == nil && a.Nullable == nil && a.DataType == nil {
			return fail(fmt.Errorf("%w: column %q: nothing to alter", ErrInvalidArgument, a.Path))
		}
		dst := byID[src.ID]
		if a.Nullable != nil && !*a.Nullable && src.Nullable {
			if err := ds.checkNoNulls(ctx, a.Path); err != nil {
				return fail(err)
			}
		}
		if a.Rename != nil {
			if *a.Rename == "" {
				return fail(fmt.Errorf("%w: column %q: empty new name", ErrInvalidArgument, a.Path))
			}
			dst.Name = *a.Rename
		}
		if a.Nullable != nil {
			dst.Nullable = *a.Nullable
		}
		if a.DataType != nil {
			return fail(fmt.Errorf("%w: column %q: changing a column's type (a Merge rewriting its data) is not supported yet", ErrUnsupported, a.Path))
		}
	}
	if err := uniqueNames(fields); err != nil {
		return fail(err)
	}
	return ds.commitSchemaOp(ctx, &writeOp{kind: opProject, fields: fields}, opts)
}

// commitSchemaOp commits a Project or Merge read at ds's version.
func (ds *Dataset) commitSchemaOp(ctx context.Context, op *writeOp, opts []DatasetWriteOption) (*Dataset, error) {
	c, err := newWriteConfig(opts)
	if err != nil {
		return nil, err
	}
	if !ds.store.CanPutIfAbsent() && c.lock == nil {
		return nil, fmt.Errorf("lance: %s %s: %w: the store cannot write conditionally; pass WithCommitLock", op.kind, ds.url, ErrUnsupported)
	}
	op.readVersion = ds.man.Version
	if op.schemaMeta == nil {
		op.schemaMeta = ds.man.SchemaMetadata
	}
	v, err := commit(ctx, ds.store, c, op)
	if err != nil {
		return nil, fmt.Errorf("lance: commit %s: %w", ds.url, err)
	}
	return ds.reopen(ctx, v)
}

// fieldByPath finds a field by its dotted path ("st.a"), or nil.
func (ds *Dataset) fieldByPath(path string) *format.Field {
	parts := strings.Split(path, ".")
	level := ds.schema.Fields
	var f *format.Field
	for _, p := range parts {
		f = nil
		for _, c := range level {
			if c.Name == p {
				f = c
				break
			}
		}
		if f == nil {
			return nil
		}
		level = f.Children
	}
	return f
}

// markSubtree adds the ids of f and its descendants to ids.
func markSubtree(f *format.Field, ids map[int32]bool) {
	ids[f.ID] = true
	for _, c := range f.Children {
		markSubtree(c, ids)
	}
	for _, c := range f.BlobDescriptor {
		markSubtree(c, ids)
	}
}

// dropFields returns fields (pre-order) without the dropped ids, and
// without the structs dropping leaves without any child (Lance's
// Schema::exclude does the same, at any depth).
func dropFields(fields []*filepb.Field, drop map[int32]bool) []*filepb.Field {
	for {
		kids := map[int32]int{}
		had := map[int32]bool{}
		for _, f := range fields {
			had[f.GetParentId()] = true
			if !drop[f.GetId()] {
				kids[f.GetParentId()]++
			}
		}
		more := false
		for _, f := range fields {
			if id := f.GetId(); !drop[id] && had[id] && kids[id] == 0 && f.GetLogicalType() == "struct" {
				drop[id], more = true, true
			}
		}
		if !more {
			break
		}
	}
	var out []*filepb.Field
	for _, f := range fields {
		if !drop[f.GetId()] && !drop[f.GetParentId()] {
			out = append(out, f)
		}
	}
	return out
}

// cloneFields deep-copies manifest fields.
func cloneFields(fields []*filepb.Field) []*filepb.Field {
	out := make([]*filepb.Field, len(fields))
	for i, f := range fields {
		out[i] = proto.Clone(f).(*filepb.Field)
	}
	return out
}

// uniqueNames checks that no two fields of one parent share a name.
func uniqueNames(fields []*filepb.Field) error {
	seen := map[[2]string]bool{}
	for _, f := range fields {
		k := [2]string{fmt.Sprint(f.GetParentId()), f.GetName()}
		if seen[k] {
			return fmt.Errorf("%w: duplicate field name %q in schema", ErrInvalidArgument, f.GetName())
		}
		seen[k] = true
	}
	return nil
}

// checkNoNulls fails when a live row holds a null at path (pylance 14.0.2
// reads the column before making it non-nullable).
func (ds *Dataset) checkNoNulls(ctx context.Context, path string) error {
	var e expr.Expr
	for i, p := range strings.Split(path, ".") {
		if i == 0 {
			e = &expr.Column{Name: p, Quoted: true, At: -1}
		} else {
			e = &expr.Field{X: e, Name: p, At: -1}
		}
	}
	n, err := ds.CountRowsWhere(ctx, &expr.Is{X: e, Test: expr.IsNull, At: -1})
	if err != nil {
		return fmt.Errorf("column %q: counting nulls: %w", path, err)
	}
	if n > 0 {
		return fmt.Errorf("%w: column %q contains NULL values and cannot be made non-nullable", ErrInvalidArgument, path)
	}
	return nil
}

// schemaIDs is the set of field ids of fields.
func schemaIDs(fields []*filepb.Field) map[int32]bool {
	ids := make(map[int32]bool, len(fields))
	for _, f := range fields {
		ids[f.GetId()] = true
	}
	return ids
}

// pruneDataFiles removes from every fragment of m the data files holding
// no field of m's schema (Lance's Project does, and alter_columns after a
// cast).
func pruneDataFiles(m *tablepb.Manifest) {
	ids := schemaIDs(m.GetFields())
	for _, f := range m.GetFragments() {
		f.Files = slices.DeleteFunc(f.Files, func(df *tablepb.DataFile) bool {
			return !slices.ContainsFunc(df.GetFields(), func(id int32) bool { return ids[id] })
		})
	}
}

// applySchemaOp is buildManifest for a Project.
func (op *writeOp) applySchemaOp(m *tablepb.Manifest) {
	m.Fields = op.fields
	pruneDataFiles(m)
}

// retainIndices keeps the index entries whose fields are all in the
// schema fields (system indices always), as Lance's
// retain_relevant_indices does after a Project or Merge.
func retainIndices(entries []indexEntry, fields []*filepb.Field) []indexEntry {
	ids := schemaIDs(fields)
	var out []indexEntry
	for _, e := range entries {
		if isSystemIndex(e.meta) || !slices.ContainsFunc(e.meta.Fields, func(id int32) bool { return !ids[id] }) {
			out = append(out, e)
		}
	}
	return out
}

// checkConcurrent fails a Project, Merge or index commit with ErrCommitConflict when a
// version committed after the one it read did something Lance's conflict
// resolver does not let it rebase over (check_project_txn,
// check_merge_txn). It reads those versions' transactions.
func (op *writeOp) checkConcurrent(ctx context.Context, store *lanceio.Store, cur *latest) error {
	if op.kind != opProject && op.kind != opMerge && op.kind != opIndex || cur.man == nil || cur.version <= op.readVersion {
		return nil
	}
	for v := op.readVersion + 1; v <= cur.version; v++ {
		other, err := committedOp(ctx, store, v)
		if err != nil {
			return fmt.Errorf("%s: reading the transaction of version %d: %w", op.kind, v, err)
		}
		if !rebasesOver(op.kind, other) {
			return fmt.Errorf("%w: the %s read version %d, and version %d committed a concurrent %s", ErrCommitConflict, op.kind, op.readVersion, v, txnOpName(other))
		}
	}
	return nil
}

// rebasesOver says whether a Project, Merge or index commit commits over
// a concurrent transaction of operation other (0: unknown). An index
// commit keeps its coverage over appends (new fragments stay unindexed)
// and deletes (deletion files mask the rows); it gives up over anything
// that rewrites rows or the schema.
func rebasesOver(kind opKind, other protowire.Number) bool {
	if kind == opIndex {
		switch other {
		case TxnAppend, TxnDelete, TxnCreateIndex, TxnReserveFragments, txnUpdateConfig:
			return true
		}
		return false
	}
	switch other {
	case TxnCreateIndex, TxnReserveFragments, txnUpdateConfig, txnClone, txnUpdateBases:
		return true
	case TxnAppend, TxnDelete, TxnRewrite, TxnUpdate, txnDataReplacement:
		return kind == opProject
	}
	return false
}

// Operation numbers this file names that transaction_write.go does not.
const (
	txnUpdateConfig    = 110
	txnDataReplacement = 111
	txnClone           = 113
	txnUpdateBases     = 114
)

// txnOpName names a transaction operation number.
func txnOpName(n protowire.Number) string {
	names := map[protowire.Number]string{TxnAppend: "append", TxnDelete: "delete", TxnOverwrite: "overwrite",
		TxnCreateIndex: "index creation", TxnRewrite: "compaction", TxnMerge: "merge (new columns)", TxnRestore: "restore",
		TxnReserveFragments: "fragment reservation", TxnUpdate: "update", TxnProject: "schema change (project)",
		txnUpdateConfig: "config update", txnDataReplacement: "data replacement", 112: "mem-WAL update",
		txnClone: "clone", txnUpdateBases: "base path update"}
	if s, ok := names[n]; ok {
		return s
	}
	return "unknown operation"
}

// committedOp returns the operation number of the transaction that made
// version v (0 when the manifest names none).
func committedOp(ctx context.Context, store *lanceio.Store, v uint64) (protowire.Number, error) {
	key, _, err := manifestOf(ctx, store, v)
	if err != nil {
		return 0, err
	}
	b, err := readSmall(ctx, store, key, MaxManifestSize)
	if err != nil {
		return 0, err
	}
	m, err := DecodeManifestProto(int64(len(b)), b)
	if err != nil {
		return 0, fmt.Errorf("manifest %s: %w", key, err)
	}
	var txn []byte
	switch {
	case m.TransactionSection != nil:
		off := m.GetTransactionSection()
		if off > uint64(len(b)) || uint64(len(b))-off < 4 {
			return 0, corruptf("manifest %s: transaction section at %d outside %d bytes", key, off, len(b))
		}
		n := uint64(binary.LittleEndian.Uint32(b[off:]))
		if n > uint64(len(b))-off-4 {
			return 0, corruptf("manifest %s: transaction section of %d bytes at %d", key, n, off)
		}
		txn = b[off+4 : off+4+n]
	case m.GetTransactionFile() != "":
		if txn, err = readSmall(ctx, store, TransactionsDir+"/"+m.GetTransactionFile(), MaxManifestSize); err != nil {
			return 0, err
		}
	default:
		return 0, nil
	}
	for pos := 0; pos < len(txn); {
		num, typ, k := protowire.ConsumeTag(txn[pos:])
		if k < 0 {
			return 0, corruptf("transaction of version %d: bad tag at byte %d", v, pos)
		}
		l := protowire.ConsumeFieldValue(num, typ, txn[pos+k:])
		if l < 0 {
			return 0, corruptf("transaction of version %d: bad field %d", v, num)
		}
		if num >= 100 && num < 200 {
			return num, nil
		}
		pos += k + l
	}
	return 0, nil
}
