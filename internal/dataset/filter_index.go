package dataset

// Scalar indices answering a filtered scan, as Lance's planner uses them
// (spec indices.md §1.7-1.9): each top-level conjunct of the filter that
// BTREE, BITMAP, LABEL_LIST, ZONEMAP, NGRAM or BLOOMFILTER indices can answer is compiled into
// a tree of index queries (AND/OR, NOT pushed down to the leaves with SQL
// null semantics); the fragments every used index covers get their
// candidate rows from the indices, the others are scanned as before. When
// every conjunct is answered exactly the candidates are the result (minus
// deleted rows) and only the projection is read for them; otherwise the
// whole filter is evaluated again over the candidates alone.

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/indices"
	"github.com/lancego/lancego/searchcache"
)

// IndexUse says which index answered which conjunct of a filter.
type IndexUse struct {
	// Conjunct is the top-level conjunct of the filter, as SQL.
	Conjunct string `json:"conjunct"`
	// Indices names the indices (name and type) it queried, in order.
	Indices []string `json:"indices"`
	// Exact is false when the indices give candidates the filter rechecks
	// (ZONEMAP comparisons).
	Exact bool `json:"exact"`
}

// IndexScanStats says how a filtered scan used scalar indices.
type IndexScanStats struct {
	// Uses are the conjuncts answered by indices; the others were
	// evaluated by reading their columns.
	Uses []IndexUse `json:"uses"`
	// Exact reports that the indices answered the whole filter, so it was
	// not evaluated over the indexed fragments.
	Exact bool `json:"exact"`
	// IndexedFragments were answered by the indices, ScannedFragments
	// (not covered by every index used) evaluated the filter by scanning.
	IndexedFragments int `json:"indexed_fragments"`
	ScannedFragments int `json:"scanned_fragments"`
	// CandidateRows is the rows the indices selected in the indexed
	// fragments (deleted rows included).
	CandidateRows uint64 `json:"candidate_rows"`
	// Segments is the index segments opened.
	Segments int `json:"segments"`
}

// ixOp is the query of an index leaf.
type ixOp uint8

const (
	ixEq ixOp = iota
	ixIn
	ixRange
	ixIsNull
	ixHasAny // LABEL_LIST
	ixHasAll
	ixContains // NGRAM: contains(c, 'text')
)

// ixNode is a compiled index query: a leaf, or the AND / OR of children.
type ixNode struct {
	and, or []*ixNode
	// leaf
	index  *indices.Index
	op     ixOp
	keys   []indices.Key
	lo, hi indices.Bound
	negate bool   // NOT leaf: the covered rows minus the leaf's and the column's NULL rows
	text   string // ixContains
}

// exact reports whether the node's rows are exactly those selected.
func (n *ixNode) exact() bool {
	for _, c := range append(n.and, n.or...) {
		if !c.exact() {
			return false
		}
	}
	if n.index == nil {
		return true
	}
	return leafExact(n.index.Type, n.op)
}

// leafExact says whether an index type answers op exactly (ZONEMAP: only
// IS NULL, from its null bitmap).
func leafExact(t indices.IndexType, op ixOp) bool {
	return t != indices.TypeZoneMap && t != indices.TypeNGram && t != indices.TypeBloomFilter || op == ixIsNull
}

// indexesOf appends the indices the node queries.
func (n *ixNode) indexesOf(dst []*indices.Index) []*indices.Index {
	if n.index != nil {
		for _, x := range dst {
			if x == n.index {
				return dst
			}
		}
		return append(dst, n.index)
	}
	for _, c := range append(n.and, n.or...) {
		dst = c.indexesOf(dst)
	}
	return dst
}

// ixCompiler compiles conjuncts against the dataset's usable indices.
type ixCompiler struct {
	ds    *Dataset
	byCol map[string][]*indices.Index // top-level column name → usable scalar indices
}

// supportedVersion is the newest index_version of each scalar type this
// reader knows; newer segments are skipped, as Lance skips them.
var supportedVersion = map[indices.IndexType]int32{
	indices.TypeBTree: 1, indices.TypeBitmap: 0, indices.TypeLabelList: 2, indices.TypeZoneMap: 0, indices.TypeNGram: 0, indices.TypeBloomFilter: 0,
}

// scalarIndices returns the dataset's usable scalar indices by column:
// known type and version, every segment with a fragment bitmap, no base
// path, keyed on a top-level field.
func (ds *Dataset) scalarIndices(ctx context.Context) (map[string][]*indices.Index, error) {
	if !ds.man.HasIndexSection {
		return nil, nil
	}
	ck := searchcache.Key{File: fmt.Sprintf("%s@%d", ds.url, ds.man.Version), Column: -1, Page: -1, Kind: "scalar-indices"}
	return searchcache.GetOrLoad(ctx, ds.cfg.Cache, ck, func(ctx context.Context) (map[string][]*indices.Index, int64, error) {
		xs, err := ds.Indices(ctx)
		if err != nil {
			return nil, 0, err
		}
		top := map[int32]string{}
		for _, f := range ds.man.Fields {
			if f.GetParentId() < 0 {
				top[f.GetId()] = f.GetName()
			}
		}
		out := map[string][]*indices.Index{}
		for i := range xs {
			x := &xs[i]
			col, ok := top[firstField(x)]
			if ok && usable(x) {
				out[col] = append(out[col], x)
			}
		}
		return out, int64(len(xs))*512 + 256, nil
	})
}

func firstField(x *indices.Index) int32 {
	if len(x.Fields) == 0 {
		return -1
	}
	return x.Fields[0]
}

// usable reports whether every segment of x can answer queries.
func usable(x *indices.Index) bool {
	v, ok := supportedVersion[x.Type]
	if !ok || len(x.Segments) == 0 {
		return false
	}
	for _, s := range x.Segments {
		if s.IndexVersion > v || s.FragmentBitmap == nil || s.BaseID != nil || s.Type() != x.Type {
			return false
		}
	}
	return true
}

// column resolves a Column node to a top-level column name of the dataset
// (exact match first, then case-insensitive for unquoted names).
func (c *ixCompiler) column(e expr.Expr) (string, arrow.DataType, bool) {
	col, ok := e.(*expr.Column)
	if !ok {
		return "", nil, false
	}
	sch := c.ds.arrow
	if i := sch.FieldIndices(col.Name); len(i) == 1 {
		return col.Name, sch.Field(i[0]).Type, true
	}
	if col.Quoted {
		return "", nil, false
	}
	found := -1
	for i, f := range sch.Fields() {
		if strings.EqualFold(f.Name, col.Name) {
			if found >= 0 {
				return "", nil, false
			}
			found = i
		}
	}
	if found < 0 {
		return "", nil, false
	}
	return sch.Field(found).Name, sch.Field(found).Type, true
}

// pick returns the index of col answering op (exact indices first).
func (c *ixCompiler) pick(col string, label bool, op ixOp) *indices.Index {
	var best *indices.Index
	for _, x := range c.byCol[col] {
		if (x.Type == indices.TypeLabelList) != label || (x.Type == indices.TypeNGram) != (op == ixContains) ||
			x.Type == indices.TypeBloomFilter && op != ixEq && op != ixIn && op != ixIsNull {
			continue
		}
		if best == nil || leafExact(x.Type, op) && !leafExact(best.Type, op) {
			best = x
		}
	}
	return best
}

// compile returns the index query answering e (negated when neg), nil
// when the indices cannot answer it.
func (c *ixCompiler) compile(e expr.Expr, neg bool) *ixNode {
	switch v := e.(type) {
	case *expr.Binary:
		switch v.Op {
		case expr.OpAnd, expr.OpOr:
			l, r := c.compile(v.L, neg), c.compile(v.R, neg)
			if l == nil || r == nil {
				return nil
			}
			if (v.Op == expr.OpAnd) != neg {
				return &ixNode{and: []*ixNode{l, r}}
			}
			return &ixNode{or: []*ixNode{l, r}}
		}
		return c.comparison(v, neg)
	case *expr.Not:
		return c.compile(v.X, !neg)
	case *expr.Is:
		return c.isTest(v, neg)
	case *expr.InList:
		return c.inList(v, neg)
	case *expr.Between:
		return c.between(v, neg)
	case *expr.Call:
		return c.call(v, neg)
	case *expr.Like:
		if p, ok := likePrefix(v); ok {
			return c.prefixLeaf(v.X, p, neg != v.Not)
		}
	}
	return nil
}

// leaf makes a leaf on col's index for op, nil without one; a negated
// leaf needs an exact answer.
func (c *ixCompiler) leaf(col string, label bool, op ixOp, neg bool) *ixNode {
	x := c.pick(col, label, op)
	if x == nil || neg && !leafExact(x.Type, op) {
		return nil
	}
	if x.Type == indices.TypeZoneMap && op == ixIsNull && !zoneHasNullBitmap(x) {
		return nil
	}
	return &ixNode{index: x, op: op, negate: neg}
}

// zoneHasNullBitmap reports whether ZONEMAP details say has_null_bitmap
// (field 3): without it IS NULL is not exact.
func zoneHasNullBitmap(x *indices.Index) bool {
	for _, s := range x.Segments {
		if !protoBoolField(s.Details, 3) {
			return false
		}
	}
	return true
}

func (c *ixCompiler) comparison(v *expr.Binary, neg bool) *ixNode {
	op := v.Op
	col, typ, ok := c.column(v.L)
	lit := v.R
	if !ok {
		if col, typ, ok = c.column(v.R); !ok {
			return nil
		}
		lit = v.L
		op = flip(op)
	}
	k, ok := keyOf(lit, typ)
	if !ok {
		return nil
	}
	in, ex := indices.Bound{Key: k, Inclusive: true}, indices.Bound{Key: k}
	open := indices.Bound{Unbounded: true}
	var n *ixNode
	switch op {
	case expr.OpEq:
		n = c.leaf(col, false, ixEq, neg)
	case expr.OpNotEq:
		n = c.leaf(col, false, ixEq, !neg)
	case expr.OpLt:
		n = c.rangeLeaf(col, open, ex, neg)
	case expr.OpLtEq:
		n = c.rangeLeaf(col, open, in, neg)
	case expr.OpGt:
		n = c.rangeLeaf(col, ex, open, neg)
	case expr.OpGtEq:
		n = c.rangeLeaf(col, in, open, neg)
	}
	if n != nil && n.op == ixEq {
		n.keys = []indices.Key{k}
	}
	return n
}

func (c *ixCompiler) rangeLeaf(col string, lo, hi indices.Bound, neg bool) *ixNode {
	n := c.leaf(col, false, ixRange, neg)
	if n != nil {
		n.lo, n.hi = lo, hi
	}
	return n
}

// flip mirrors a comparison (lit op col → col op' lit).
func flip(op expr.BinaryOp) expr.BinaryOp {
	switch op {
	case expr.OpLt:
		return expr.OpGt
	case expr.OpLtEq:
		return expr.OpGtEq
	case expr.OpGt:
		return expr.OpLt
	case expr.OpGtEq:
		return expr.OpLtEq
	}
	return op
}

func (c *ixCompiler) isTest(v *expr.Is, neg bool) *ixNode {
	col, _, ok := c.column(v.X)
	if !ok {
		return nil
	}
	switch v.Test {
	case expr.IsNull:
		return c.leaf(col, false, ixIsNull, neg)
	case expr.IsNotNull:
		return c.leaf(col, false, ixIsNull, !neg)
	}
	return nil
}

func (c *ixCompiler) inList(v *expr.InList, neg bool) *ixNode {
	col, typ, ok := c.column(v.X)
	if !ok || len(v.List) == 0 {
		return nil
	}
	keys := make([]indices.Key, len(v.List))
	for i, e := range v.List {
		if keys[i], ok = keyOf(e, typ); !ok {
			return nil // NULL in the list, expressions: leave it to the scan
		}
	}
	n := c.leaf(col, false, ixIn, neg != v.Not)
	if n != nil {
		n.keys = keys
	}
	return n
}

func (c *ixCompiler) between(v *expr.Between, neg bool) *ixNode {
	col, typ, ok := c.column(v.X)
	if !ok {
		return nil
	}
	lo, ok1 := keyOf(v.Lo, typ)
	hi, ok2 := keyOf(v.Hi, typ)
	if !ok1 || !ok2 {
		return nil
	}
	return c.rangeLeaf(col, indices.Bound{Key: lo, Inclusive: true}, indices.Bound{Key: hi, Inclusive: true}, neg != v.Not)
}

// call compiles array_has_any / array_has_all / array_contains /
// array_has over a LABEL_LIST column, and contains over an NGRAM one.
func (c *ixCompiler) call(v *expr.Call, neg bool) *ixNode {
	if v.Name == "contains" {
		return c.contains(v, neg)
	}
	if v.Name == "starts_with" && len(v.Args) == 2 {
		if lit, ok := v.Args[1].(*expr.Literal); ok && lit.Kind == expr.LitString {
			return c.prefixLeaf(v.Args[0], lit.Str, neg)
		}
		return nil
	}
	var op ixOp
	switch v.Name {
	case "array_has_any", "list_has_any", "arrays_overlap":
		op = ixHasAny
	case "array_has_all", "list_has_all":
		op = ixHasAll
	case "array_contains", "array_has", "list_has", "list_contains":
		op = ixHasAny
	default:
		return nil
	}
	if len(v.Args) != 2 {
		return nil
	}
	col, typ, ok := c.column(v.Args[0])
	if !ok {
		return nil
	}
	elem, ok := listElem(typ)
	if !ok {
		return nil
	}
	var items []expr.Expr
	a, isArr := v.Args[1].(*expr.Array)
	switch {
	case v.Name == "array_contains" || v.Name == "array_has" || v.Name == "list_has" || v.Name == "list_contains":
		if isArr {
			return nil
		}
		items = []expr.Expr{v.Args[1]}
	case isArr:
		items = a.Elems
	default:
		return nil
	}
	if len(items) == 0 {
		return nil
	}
	keys := make([]indices.Key, len(items))
	for i, e := range items {
		if keys[i], ok = keyOf(e, elem); !ok {
			return nil
		}
	}
	n := c.leaf(col, true, op, neg)
	if n != nil {
		n.keys = keys
	}
	return n
}

// contains compiles contains(c, 'text') over an NGRAM index: candidates
// (rechecked), so never negated, and only when the text has a trigram
// (otherwise the index says nothing and the column is scanned, as Lance
// does).
func (c *ixCompiler) contains(v *expr.Call, neg bool) *ixNode {
	if len(v.Args) != 2 {
		return nil
	}
	col, typ, ok := c.column(v.Args[0])
	lit, isLit := v.Args[1].(*expr.Literal)
	if !ok || !isLit || lit.Kind != expr.LitString || typ.ID() != arrow.STRING && typ.ID() != arrow.LARGE_STRING ||
		len(indices.NGramTokens(nil, lit.Str)) == 0 {
		return nil
	}
	n := c.leaf(col, false, ixContains, neg)
	if n != nil {
		n.text = lit.Str
	}
	return n
}

// temporalKey is the key of a typed literal (date '…', timestamp '…': a
// Cast of a string) compared with a date32 or time-zone-less timestamp
// column: the days, or the column's units, since the epoch. Texts this
// does not parse exactly (other forms, time zones, precision finer than
// the column's) are left to the scan.
func temporalKey(c *expr.Cast, typ arrow.DataType) (indices.Key, bool) {
	lit, ok := c.X.(*expr.Literal)
	if !ok || lit.Kind != expr.LitString || c.Try {
		return indices.Key{}, false
	}
	switch col := typ.(type) {
	case *arrow.Date32Type:
		if _, ok := c.Type.(*arrow.Date32Type); !ok {
			return indices.Key{}, false
		}
		t, err := time.Parse("2006-01-02", lit.Str)
		if err != nil {
			return indices.Key{}, false
		}
		return indices.IntKey(t.Unix() / 86400), true
	case *arrow.TimestampType:
		want, ok := c.Type.(*arrow.TimestampType)
		if !ok || col.TimeZone != "" || want.TimeZone != "" {
			return indices.Key{}, false
		}
		for _, layout := range []string{"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999", "2006-01-02"} {
			t, err := time.Parse(layout, lit.Str)
			if err != nil {
				continue
			}
			per := int64(col.Unit.Multiplier()) // nanoseconds per unit
			ns := t.UnixNano()
			if t.Year() < 1678 || t.Year() > 2261 || ns%per != 0 {
				return indices.Key{}, false
			}
			return indices.IntKey(ns / per), true
		}
	}
	return indices.Key{}, false
}

// likePrefix returns p when pattern is "p%" with no other wildcard and no
// escape (LIKE 'p%' = starts_with(c, p)).
func likePrefix(v *expr.Like) (string, bool) {
	lit, ok := v.Pattern.(*expr.Literal)
	if !ok || lit.Kind != expr.LitString || v.CaseInsensitive || v.Escape != 0 && v.Escape != '\\' {
		return "", false
	}
	p := lit.Str
	if !strings.HasSuffix(p, "%") {
		return "", false
	}
	p = p[:len(p)-1]
	if strings.ContainsAny(p, "%_\\") {
		return "", false
	}
	return p, true
}

// prefixLeaf compiles "col starts with p" into the range [p, the next
// string after every string starting with p) on col's index.
func (c *ixCompiler) prefixLeaf(x expr.Expr, p string, neg bool) *ixNode {
	col, typ, ok := c.column(x)
	if !ok || typ.ID() != arrow.STRING && typ.ID() != arrow.LARGE_STRING {
		return nil
	}
	lo := indices.Bound{Key: indices.StringKey(p), Inclusive: true}
	hi := indices.Bound{Unbounded: true}
	b := []byte(p)
	for len(b) > 0 && b[len(b)-1] == 0xff {
		b = b[:len(b)-1]
	}
	if len(b) > 0 {
		b[len(b)-1]++
		hi = indices.Bound{Key: indices.StringKey(string(b))}
	}
	return c.rangeLeaf(col, lo, hi, neg)
}

// listElem returns the element type of a list column.
func listElem(t arrow.DataType) (arrow.DataType, bool) {
	switch l := t.(type) {
	case *arrow.ListType:
		return l.Elem(), true
	case *arrow.LargeListType:
		return l.Elem(), true
	}
	return nil, false
}

// keyOf converts a literal compared with a column of type typ into an
// index key; false for anything else (NULL, casts, expressions, a kind
// the column's values do not compare with).
func keyOf(e expr.Expr, typ arrow.DataType) (indices.Key, bool) {
	if c, ok := e.(*expr.Cast); ok {
		return temporalKey(c, typ)
	}
	lit, ok := e.(*expr.Literal)
	if !ok {
		return indices.Key{}, false
	}
	switch typ.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
		switch lit.Kind {
		case expr.LitInt:
			return indices.IntKey(lit.Int), true
		case expr.LitFloat:
			if math.IsNaN(lit.Float) {
				return indices.Key{}, false
			}
			return indices.FloatKey(lit.Float), true
		}
	case arrow.FLOAT32, arrow.FLOAT64:
		switch lit.Kind {
		case expr.LitInt:
			return indices.FloatKey(float64(lit.Int)), true
		case expr.LitFloat:
			if math.IsNaN(lit.Float) || typ.ID() == arrow.FLOAT32 && float64(float32(lit.Float)) != lit.Float {
				return indices.Key{}, false // NaN and rounding to float32: leave them to the scan
			}
			return indices.FloatKey(lit.Float), true
		}
	case arrow.STRING, arrow.LARGE_STRING:
		if lit.Kind == expr.LitString {
			return indices.StringKey(lit.Str), true
		}
	case arrow.BINARY, arrow.LARGE_BINARY:
		if lit.Kind == expr.LitBinary || lit.Kind == expr.LitString {
			return indices.StringKey(lit.Str), true
		}
	case arrow.BOOL:
		if lit.Kind == expr.LitBool {
			return indices.BoolKey(lit.Bool), true
		}
	}
	return indices.Key{}, false
}

// protoBoolField reports whether varint field num of message b is
// non-zero (false when absent or malformed).
func protoBoolField(b []byte, num protowire.Number) bool {
	for len(b) > 0 {
		n, typ, k := protowire.ConsumeTag(b)
		if k < 0 {
			return false
		}
		if n == num && typ == protowire.VarintType {
			v, m := protowire.ConsumeVarint(b[k:])
			return m > 0 && v != 0
		}
		m := protowire.ConsumeFieldValue(n, typ, b[k:])
		if m < 0 {
			return false
		}
		b = b[k+m:]
	}
	return false
}
