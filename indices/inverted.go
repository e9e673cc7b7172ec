package indices

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/fts/analysis"
	lanceanalyzer "github.com/lancego/lancego/fts/analysis/lance"
	"github.com/lancego/lancego/internal/fileread"
)

// MaxInvertedVersion is the newest INVERTED format version this reader knows.
const MaxInvertedVersion = 3

// Inverted is an opened INVERTED (full-text) index segment: its parameters, analyzer and
// partitions (token dictionaries and document tables; posting lists are taken on demand).
type Inverted struct {
	Dir           string
	Params        lanceanalyzer.Params
	Analyzer      *analysis.Analyzer
	FormatVersion int
	Parts         []*InvertedPart
	// N is the number of indexed documents (deleted ones included), TotalTokens their tokens.
	N, TotalTokens uint64
}

// InvertedPart is one partition of an INVERTED index.
type InvertedPart struct {
	ID        int
	Tokens    *FSTMap
	RowIDs    []uint64
	NumTokens []uint32
	invert    *fileread.File
}

// invertedFiles opens the Lance file name of an index directory.
type invertedFiles func(ctx context.Context, name string) (*fileread.File, error)

// invertedPathFiles opens the files of the index directory dir (a URL or path).
func invertedPathFiles(dir string) invertedFiles {
	return func(ctx context.Context, name string) (*fileread.File, error) {
		return fileread.Open(ctx, strings.TrimSuffix(dir, "/")+"/"+name)
	}
}

// invertedDatasetFiles opens the files of the index directory dir (relative to
// the dataset root, "_indices/<uuid>") through op.
func invertedDatasetFiles(op Opener, dir string) invertedFiles {
	return func(ctx context.Context, name string) (*fileread.File, error) {
		return op.OpenFile(ctx, strings.TrimSuffix(dir, "/")+"/"+name)
	}
}

func openLance(ctx context.Context, open invertedFiles, dir, name string) (*fileread.File, error) {
	f, err := open(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("inverted: open %s/%s: %w", dir, name, err)
	}
	return f, nil
}

func readAll(ctx context.Context, f *fileread.File, cols ...string) (arrow.RecordBatch, error) {
	n := f.NumRows()
	rows := make([]uint64, n)
	for i := range rows {
		rows[i] = uint64(i)
	}
	return f.Take(ctx, rows, cols)
}

// OpenInverted opens the index segment in directory dir (a URL or path of `_indices/<uuid>`).
func OpenInverted(ctx context.Context, dir string) (*Inverted, error) {
	return openInverted(ctx, invertedPathFiles(dir), dir)
}

// OpenInvertedSegment opens the index segment uuid of a dataset through
// its Opener (the files of `_indices/<uuid>`).
func OpenInvertedSegment(ctx context.Context, op Opener, uuid string) (*Inverted, error) {
	dir := "_indices/" + uuid
	return openInverted(ctx, invertedDatasetFiles(op, dir), dir)
}

func openInverted(ctx context.Context, open invertedFiles, dir string) (*Inverted, error) {
	mf, err := openLance(ctx, open, dir, "metadata.lance")
	if err != nil {
		return nil, err
	}
	defer mf.Close()
	md := mf.Schema().Metadata()
	get := func(k string) string { v, _ := md.GetValue(k); return v }
	ix := &Inverted{Dir: dir, FormatVersion: 1}
	if v := get("format_version"); v != "" {
		if ix.FormatVersion, err = strconv.Atoi(v); err != nil || ix.FormatVersion < 1 || ix.FormatVersion > MaxInvertedVersion {
			return nil, fmt.Errorf("%w: %s/metadata.lance: format_version %q", ErrInvertedVersion, dir, v)
		}
	}
	if ts := get("token_set_format"); ts != "" && ts != "fst" {
		return nil, fmt.Errorf("%w: %s/metadata.lance: token_set_format %q", ErrInvertedVersion, dir, ts)
	}
	if ix.Params, err = lanceanalyzer.ParseParams([]byte(get("params"))); err != nil {
		return nil, fmt.Errorf("%w: %s/metadata.lance: %v", errInverted, dir, err)
	}
	if ix.Analyzer, err = lanceanalyzer.New(ix.Params); err != nil {
		return nil, err
	}
	var parts []int
	if err := json.Unmarshal([]byte(get("partitions")), &parts); err != nil {
		return nil, fmt.Errorf("%w: %s/metadata.lance: partitions: %v", errInverted, dir, err)
	}
	for _, p := range parts {
		part, err := openPart(ctx, open, dir, p)
		if err != nil {
			ix.Close()
			return nil, err
		}
		ix.Parts = append(ix.Parts, part)
		ix.N += uint64(len(part.RowIDs))
		for _, t := range part.NumTokens {
			ix.TotalTokens += uint64(t)
		}
	}
	return ix, nil
}

// Close closes the partitions' posting files.
func (ix *Inverted) Close() {
	for _, p := range ix.Parts {
		if p.invert != nil {
			p.invert.Close()
		}
	}
}

func openPart(ctx context.Context, open invertedFiles, dir string, p int) (*InvertedPart, error) {
	part := &InvertedPart{ID: p}
	tf, err := openLance(ctx, open, dir, fmt.Sprintf("part_%d_tokens.lance", p))
	if err != nil {
		return nil, err
	}
	defer tf.Close()
	rec, err := readAll(ctx, tf, "_token_fst_bytes")
	if err != nil {
		return nil, fmt.Errorf("inverted: %s part %d tokens: %w", dir, p, err)
	}
	defer rec.Release()
	fb, ok := rec.Column(0).(*array.LargeBinary)
	if !ok || fb.Len() != 1 {
		return nil, fmt.Errorf("%w: %s part_%d_tokens.lance: want one large_binary _token_fst_bytes", errInverted, dir, p)
	}
	if part.Tokens, err = OpenFSTMap(append([]byte(nil), fb.Value(0)...)); err != nil {
		return nil, fmt.Errorf("inverted: %s part_%d_tokens.lance: %w", dir, p, err)
	}
	df, err := openLance(ctx, open, dir, fmt.Sprintf("part_%d_docs.lance", p))
	if err != nil {
		return nil, err
	}
	defer df.Close()
	drec, err := readAll(ctx, df, "_rowid", "_num_tokens")
	if err != nil {
		return nil, fmt.Errorf("inverted: %s part %d docs: %w", dir, p, err)
	}
	defer drec.Release()
	ids, ok1 := drec.Column(0).(*array.Uint64)
	nt, ok2 := drec.Column(1).(*array.Uint32)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("%w: %s part_%d_docs.lance: column types", errInverted, dir, p)
	}
	part.RowIDs = append([]uint64(nil), ids.Uint64Values()...)
	part.NumTokens = append([]uint32(nil), nt.Uint32Values()...)
	if part.invert, err = openLance(ctx, open, dir, fmt.Sprintf("part_%d_invert.lance", p)); err != nil {
		return nil, err
	}
	if part.invert.NumRows() < part.Tokens.Len() {
		return nil, fmt.Errorf("%w: %s part_%d_invert.lance: %d rows for %d tokens", errInverted, dir, p, part.invert.NumRows(), part.Tokens.Len())
	}
	return part, nil
}

// TokenPostings looks token up in the partition: ok false when absent.
func (p *InvertedPart) TokenPostings(ctx context.Context, token string, formatVersion int) (Postings, bool, error) {
	id, ok, err := p.Tokens.Get([]byte(token))
	if err != nil || !ok {
		return Postings{}, false, err
	}
	if id >= p.invert.NumRows() {
		return Postings{}, false, fmt.Errorf("%w: token %q id %d beyond %d posting rows", errInverted, token, id, p.invert.NumRows())
	}
	rec, err := p.invert.Take(ctx, []uint64{id}, []string{"_posting", "_length"})
	if err != nil {
		return Postings{}, false, fmt.Errorf("inverted: part %d postings of %q: %w", p.ID, token, err)
	}
	defer rec.Release()
	lst, ok1 := rec.Column(0).(*array.List)
	ln, ok2 := rec.Column(1).(*array.Uint32)
	if !ok1 || !ok2 {
		return Postings{}, false, fmt.Errorf("%w: part %d: _posting/_length types", errInverted, p.ID)
	}
	vals, ok := lst.ListValues().(*array.LargeBinary)
	if !ok {
		return Postings{}, false, fmt.Errorf("%w: part %d: _posting items not large_binary", errInverted, p.ID)
	}
	s, e := lst.ValueOffsets(0)
	blocks := make([][]byte, 0, e-s)
	for i := s; i < e; i++ {
		blocks = append(blocks, vals.Value(int(i)))
	}
	ps, err := DecodePostings(blocks, uint64(ln.Value(0)), formatVersion)
	if err != nil {
		return ps, false, fmt.Errorf("inverted: part %d token %q: %w", p.ID, token, err)
	}
	for _, d := range ps.Docs {
		if uint64(d) >= uint64(len(p.RowIDs)) {
			return ps, false, fmt.Errorf("%w: part %d token %q: doc %d of %d", errInverted, p.ID, token, d, len(p.RowIDs))
		}
	}
	return ps, true, nil
}

// ErrInvertedVersion reports an INVERTED index in a format this reader does not know; callers
// fall back to scanning, as Lance does.
var ErrInvertedVersion = errors.New("inverted: unsupported index format")
