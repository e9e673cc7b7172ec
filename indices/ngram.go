package indices

// NGRAM scalar index (spec indices.md §2.5): ngram_postings.lance has one
// row per trigram token (uint32, ascending; token 0 = the row is NULL)
// with the RoaringTreemap of the row ids holding it. Strings are
// lower-cased and ASCII-folded whole, cut into every window of three
// characters, and windows with a character outside [a-z0-9] dropped; a
// token is Σ pos(c)·37^(2-k) with pos('0'..'9') = 1..10, pos('a'..'z') =
// 11..36. contains(c, s) intersects the postings of s's trigrams: a
// superset of the answer (AtMost: recheck), nothing when a trigram is
// missing, no information when s has none.

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/fts/analysis/asciifold"
	"github.com/lancego/lancego/internal/fileread"
)

// NGram file name and details as pylance 14.0.2 writes them (an empty
// NGramIndexDetails message, index version 0).
const (
	NGramFile           = "ngram_postings.lance"
	NGramDetailsTypeURL = "/lance.table.NGramIndexDetails"
)

// ngramNullToken is the token of NULL rows.
const ngramNullToken = 0

// NGramTokens appends the trigram tokens of s to dst (with repeats, in
// order), as Lance's NGRAM tokenizer makes them.
func NGramTokens(dst []uint32, s string) []uint32 {
	s = asciifold.Fold(strings.ToLower(s))
	var win [3]rune
	n := 0
	for _, r := range s {
		win[0], win[1], win[2] = win[1], win[2], r
		if n++; n < 3 {
			continue
		}
		var tok uint32
		ok := true
		for _, c := range win {
			p := ngramPos(c)
			if p == 0 {
				ok = false
				break
			}
			tok = tok*37 + p
		}
		if ok {
			dst = append(dst, tok)
		}
	}
	return dst
}

// ngramPos is a character's digit in the token code, 0 when it is not
// [a-z0-9].
func ngramPos(c rune) uint32 {
	switch {
	case c >= '0' && c <= '9':
		return uint32(c-'0') + 1
	case c >= 'a' && c <= 'z':
		return uint32(c-'a') + 11
	}
	return 0
}

// NGram is an opened NGRAM segment: tokens and serialized postings in
// memory, each posting decoded when a query needs it.
type NGram struct {
	url      string
	tokens   []uint32
	postings [][]byte
	recs     []arrow.RecordBatch
}

// OpenNGramWith opens the NGRAM segment in directory dir relative to op.
func OpenNGramWith(ctx context.Context, op Opener, dir string) (*NGram, error) {
	f, err := openIndexFile(ctx, op, dir, NGramFile)
	if err != nil {
		return nil, err
	}
	defer f.close()
	recs, err := readWhole(ctx, f.f, []string{"tokens", "posting_list"})
	if err != nil {
		return nil, err
	}
	g := &NGram{url: f.name, recs: recs}
	for _, r := range recs {
		toks, ok := r.Column(0).(*array.Uint32)
		if !ok {
			g.Close()
			return nil, fmt.Errorf("%w: %s: tokens are %s, want uint32", ErrCorrupt, g.url, r.Column(0).DataType())
		}
		for i := 0; i < toks.Len(); i++ {
			if toks.IsNull(i) || len(g.tokens) > 0 && toks.Value(i) <= g.tokens[len(g.tokens)-1] {
				g.Close()
				return nil, fmt.Errorf("%w: %s: tokens not ascending at row %d", ErrCorrupt, g.url, len(g.tokens))
			}
			g.tokens = append(g.tokens, toks.Value(i))
		}
		if err := appendBinary(&g.postings, r.Column(1)); err != nil {
			g.Close()
			return nil, fmt.Errorf("%w: %s: posting_list: %v", ErrCorrupt, g.url, err)
		}
	}
	if len(g.postings) != len(g.tokens) {
		g.Close()
		return nil, fmt.Errorf("%w: %s: %d tokens, %d postings", ErrCorrupt, g.url, len(g.tokens), len(g.postings))
	}
	return g, nil
}

// Close releases the segment.
func (g *NGram) Close() error {
	releaseAll(g.recs)
	g.recs = nil
	return nil
}

// posting decodes the rows of token t (nil when the index lacks it).
func (g *NGram) posting(t uint32) (*roaring64.Bitmap, error) {
	i, ok := slices.BinarySearch(g.tokens, t)
	if !ok {
		return nil, nil
	}
	rows, err := DecodeRoaringTreemap(g.postings[i])
	if err != nil {
		return nil, fmt.Errorf("%s: token %d: %w", g.url, t, err)
	}
	return rows, nil
}

// Contains returns the row ids whose value may contain s: the rows
// holding every trigram of s. known is false when s has no trigram (the
// index says nothing; every row may match).
func (g *NGram) Contains(_ context.Context, s string) (rows *roaring64.Bitmap, known bool, err error) {
	toks := NGramTokens(nil, s)
	if len(toks) == 0 {
		return nil, false, nil
	}
	slices.Sort(toks)
	toks = slices.Compact(toks)
	for _, t := range toks {
		p, err := g.posting(t)
		if err != nil {
			return nil, true, err
		}
		if p == nil {
			return roaring64.New(), true, nil
		}
		if rows == nil {
			rows = p
		} else {
			rows.And(p)
		}
	}
	return rows, true, nil
}

// IsNull returns the row ids whose value is NULL.
func (g *NGram) IsNull(context.Context) (*roaring64.Bitmap, error) {
	p, err := g.posting(ngramNullToken)
	if p == nil && err == nil {
		p = roaring64.New()
	}
	return p, err
}

// BuildNGram writes an NGRAM segment of in (a string column; ids are row
// ids) through sink: ngram_postings.lance, one row per token ascending
// (token 0: the NULL rows) with the RoaringTreemap of its rows.
func BuildNGram(ctx context.Context, sink FileSink, in ScalarBuild) ([]IndexFile, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	val, ok := bytesValues(in.Values)
	if !ok || in.Values.DataType().ID() != arrow.STRING && in.Values.DataType().ID() != arrow.LARGE_STRING {
		return nil, fmt.Errorf("%w: an NGRAM index on a %s column (it takes strings)", ErrUnsupported, in.Values.DataType())
	}
	post := map[uint32]*roaring64.Bitmap{}
	add := func(t uint32, id uint64) {
		p := post[t]
		if p == nil {
			p = roaring64.New()
			post[t] = p
		}
		p.Add(id)
	}
	var toks []uint32
	for i := 0; i < in.Values.Len(); i++ {
		if in.Values.IsNull(i) {
			add(ngramNullToken, in.IDs[i])
			continue
		}
		toks = NGramTokens(toks[:0], string(val(i)))
		for _, t := range toks {
			add(t, in.IDs[i])
		}
	}
	keys := make([]uint32, 0, len(post))
	for t := range post {
		keys = append(keys, t)
	}
	slices.Sort(keys)
	mem := in.mem()
	tb := array.NewUint32Builder(mem)
	defer tb.Release()
	pb := array.NewBinaryBuilder(mem, arrow.BinaryTypes.Binary)
	defer pb.Release()
	var buf bytes.Buffer
	for _, t := range keys {
		buf.Reset()
		if _, err := post[t].WriteTo(&buf); err != nil {
			return nil, err
		}
		tb.Append(t)
		pb.Append(buf.Bytes())
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "tokens", Type: arrow.PrimitiveTypes.Uint32, Nullable: true},
		{Name: "posting_list", Type: arrow.BinaryTypes.Binary,
			Metadata: arrow.NewMetadata([]string{"lance-encoding:compression"}, []string{"none"})},
	}, nil)
	f, err := writeOneBatch(ctx, sink, NGramFile, schema, []arrow.Array{tb.NewArray(), pb.NewArray()}, nil)
	if err != nil {
		return nil, err
	}
	return []IndexFile{f}, nil
}

// OpenNGram opens the NGRAM segment in directory dir.
func OpenNGram(ctx context.Context, dir string, opts ...fileread.Option) (*NGram, error) {
	return OpenNGramWith(ctx, pathOpener{opts}, dir)
}
