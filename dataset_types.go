package lance

import (
	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/internal/dataset"
)

// ReadOptions selects the columns of a dataset read (Take, TakeRowIDs,
// and through DatasetScanOptions, scans). The zero value reads every data
// column.
type ReadOptions struct {
	// Columns are top-level column names; empty means all.
	Columns []string
	// WithRowID appends _rowid (uint64): the stable row id when the
	// dataset has stable row ids, else the row address.
	WithRowID bool
	// WithRowAddress appends _rowaddr (uint64): fragment id << 32 | the
	// row's offset in its fragment (deleted rows counted).
	WithRowAddress bool
}

func (o ReadOptions) internal() dataset.ReadOptions {
	return dataset.ReadOptions{Columns: o.Columns, WithRowID: o.WithRowID, WithRowAddress: o.WithRowAddress}
}

// DatasetScanOptions selects what a dataset scan (Dataset.Scan, Batches,
// ScanSplit) returns: the columns (ReadOptions), a window of the result
// rows, the batch size and a filter. The zero value reads every row and
// data column.
type DatasetScanOptions struct {
	ReadOptions
	// Offset skips that many result rows; Limit > 0 stops after that many.
	// With a filter they count filtered rows.
	Offset, Limit uint64
	// BatchSize bounds the rows per batch (DefaultBatchSize if 0). Batches
	// may be smaller: a batch never spans fragments, and deleted or
	// filtered rows are dropped from it.
	BatchSize int
	// Filter, when set, returns only the rows it selects (a filter of
	// package expr: the SQL dialect Lance accepts). It may reference the
	// data columns (a struct field reads its top-level column) and _rowid,
	// _rowaddr and _rowoffset (uint64: see ReadOptions and
	// RowOffsetColumn). Fragments and zones the data files' zone seeds
	// prove empty are not read; the filter's columns are read first, the
	// projection only for the matching rows.
	Filter expr.Expr
	// FilterSQL is Filter as text (expr.Parse), parsed when the scan
	// starts; setting both is an error.
	FilterSQL string
	// Filters are more conjuncts of the filter: a row is returned when
	// Filter (or FilterSQL) and each of Filters select it.
	Filters []expr.Expr
	// PartialFilter leaves a top-level conjunct that does not bind (an
	// unknown function, a construct the engine does not evaluate) to the
	// caller instead of failing the scan, which applies the others;
	// Dataset.PlanFilter tells which (see Conjunct).
	PartialFilter bool
	// NoScalarIndex evaluates the filter by reading its columns even where
	// the dataset's scalar indices (BTREE, BITMAP, LABEL_LIST, ZONEMAP)
	// could answer it: pylance's use_scalar_index=False. By default a
	// conjunct an index answers reads the index, not the column.
	NoScalarIndex bool
	// OnIndexStats, when set, is called once, as the scan starts, with how
	// it uses scalar indices.
	OnIndexStats func(IndexScanStats)
}

func (o DatasetScanOptions) internal() dataset.DatasetScanOptions {
	d := dataset.DatasetScanOptions{
		ReadOptions: o.ReadOptions.internal(), Offset: o.Offset, Limit: o.Limit,
		BatchSize: o.BatchSize, Filter: o.Filter, FilterSQL: o.FilterSQL,
		Filters: o.Filters, PartialFilter: o.PartialFilter, NoScalarIndex: o.NoScalarIndex,
	}
	if f := o.OnIndexStats; f != nil {
		d.OnIndexStats = func(s dataset.IndexScanStats) { f(indexScanStats(s)) }
	}
	return d
}

// IndexScanStats says how a filtered scan used scalar indices
// (DatasetScanOptions.OnIndexStats).
type IndexScanStats struct {
	// Uses are the conjuncts answered by indices; the others were
	// evaluated by reading their columns.
	Uses []IndexUse `json:"uses"`
	// Exact reports that the indices answered the whole filter, so it was
	// not evaluated over the indexed fragments.
	Exact bool `json:"exact"`
	// IndexedFragments were answered by the indices; ScannedFragments
	// (not covered by every index used) evaluated the filter by scanning.
	IndexedFragments int `json:"indexed_fragments"`
	ScannedFragments int `json:"scanned_fragments"`
	// CandidateRows is the rows the indices selected in the indexed
	// fragments (deleted rows included).
	CandidateRows uint64 `json:"candidate_rows"`
	// Segments is the index segments opened.
	Segments int `json:"segments"`
}

// IndexUse is one conjunct of a filter answered by scalar indices.
type IndexUse struct {
	// Conjunct is the top-level conjunct of the filter, as SQL.
	Conjunct string `json:"conjunct"`
	// Indices names the indices (name and type) it queried, in order.
	Indices []string `json:"indices"`
	// Exact is false when the indices give candidates the filter rechecks
	// (ZONEMAP comparisons).
	Exact bool `json:"exact"`
}

func indexScanStats(s dataset.IndexScanStats) IndexScanStats {
	uses := make([]IndexUse, len(s.Uses))
	for i, u := range s.Uses {
		uses[i] = IndexUse{Conjunct: u.Conjunct, Indices: u.Indices, Exact: u.Exact}
	}
	if s.Uses == nil {
		uses = nil
	}
	return IndexScanStats{Uses: uses, Exact: s.Exact, IndexedFragments: s.IndexedFragments,
		ScannedFragments: s.ScannedFragments, CandidateRows: s.CandidateRows, Segments: s.Segments}
}

// VersionInfo is one version of a dataset (Dataset.Versions).
type VersionInfo struct {
	// Version is the version number (1, 2, ...).
	Version uint64 `json:"version"`
	// Manifest is the manifest's key under the dataset root; Size its
	// bytes.
	Manifest string `json:"manifest"`
	Size     int64  `json:"manifest_bytes"`
}

// FragmentInfo describes one fragment of the opened version
// (Dataset.Fragments).
type FragmentInfo struct {
	// ID is the fragment id; PhysicalRows its rows, deleted included;
	// DeletedRows those its deletion file deletes.
	ID           uint64         `json:"id"`
	PhysicalRows uint64         `json:"physical_rows"`
	DeletedRows  uint64         `json:"deleted_rows"`
	DataFiles    []DataFileInfo `json:"data_files"`
	// DeletionFile is the deletion file's path under the root, if any.
	DeletionFile string `json:"deletion_file,omitempty"`
}

// DataFileInfo describes one data file of a fragment.
type DataFileInfo struct {
	// Path is the file's path under the dataset root.
	Path string `json:"path"`
	// Version is the data file format version, e.g. "2.1".
	Version string `json:"version"`
	// Fields are the ids of the schema fields the file stores.
	Fields []int32 `json:"fields"`
	// Size is the file's size in bytes when the manifest records it.
	Size uint64 `json:"size_bytes,omitempty"`
}

// Split is a part of a dataset version that can be read on its own, on
// any machine: a list of fragments with physical row ranges. It
// serializes to JSON; see Dataset.Splits, OpenSplit and Dataset.ScanSplit.
type Split struct {
	// URL and Version name the dataset version the split belongs to.
	URL     string `json:"url"`
	Version uint64 `json:"version"`
	// Fragments are read in this order.
	Fragments []SplitFragment `json:"fragments"`
	// Rows is the number of physical rows in the split (deleted included).
	Rows uint64 `json:"rows"`
}

// String returns the split as JSON, the form a planner ships to workers.
func (s Split) String() string { return s.internal().String() }

// SplitFragment is physical rows [From, To) of fragment ID.
type SplitFragment struct {
	ID   uint64 `json:"id"`
	From uint64 `json:"from"`
	To   uint64 `json:"to"`
}

func (s Split) internal() dataset.Split {
	out := dataset.Split{URL: s.URL, Version: s.Version, Rows: s.Rows}
	if s.Fragments != nil {
		out.Fragments = make([]dataset.SplitFragment, len(s.Fragments))
		for i, f := range s.Fragments {
			out.Fragments[i] = dataset.SplitFragment{ID: f.ID, From: f.From, To: f.To}
		}
	}
	return out
}

func splitOf(s dataset.Split) Split {
	out := Split{URL: s.URL, Version: s.Version, Rows: s.Rows}
	if s.Fragments != nil {
		out.Fragments = make([]SplitFragment, len(s.Fragments))
		for i, f := range s.Fragments {
			out.Fragments[i] = SplitFragment{ID: f.ID, From: f.From, To: f.To}
		}
	}
	return out
}

func fragmentInfos(fs []dataset.FragmentInfo) []FragmentInfo {
	if fs == nil {
		return nil
	}
	out := make([]FragmentInfo, len(fs))
	for i, f := range fs {
		out[i] = FragmentInfo{ID: f.ID, PhysicalRows: f.PhysicalRows, DeletedRows: f.DeletedRows,
			DeletionFile: f.DeletionFile}
		if f.DataFiles != nil {
			out[i].DataFiles = make([]DataFileInfo, len(f.DataFiles))
			for j, d := range f.DataFiles {
				out[i].DataFiles[j] = DataFileInfo{Path: d.Path, Version: d.Version, Fields: d.Fields, Size: d.Size}
			}
		}
	}
	return out
}

func versionInfos(vs []dataset.VersionInfo) []VersionInfo {
	if vs == nil {
		return nil
	}
	out := make([]VersionInfo, len(vs))
	for i, v := range vs {
		out[i] = VersionInfo{Version: v.Version, Manifest: v.Manifest, Size: v.Size}
	}
	return out
}
