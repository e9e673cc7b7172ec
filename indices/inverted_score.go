package indices

import (
	"context"
	"math"
)

// Lance's BM25 scores are float32 computations (lance-index
// scalar/inverted/scorer.rs: `K1`, `B`, `idf`, `doc_weight`); the functions
// below do the same operations in the same order, each rounded to float32
// (explicit conversions keep the compiler from fusing them), so their
// results are Lance's bit for bit.

// BM25 constants of Lance.
const (
	BM25K1 = 1.2
	BM25B  = 0.75
)

var (
	bm25K1 float32 = BM25K1
	bm25B  float32 = BM25B
)

// IDF is Lance's BM25 idf of a token in nt of n documents:
// ln((n − nt + 0.5)/(nt + 0.5) + 1), in float32.
func IDF(nt, n uint64) float32 {
	fn, ft := float32(n), float32(nt)
	num := float32(float32(fn-ft) + 0.5)
	den := float32(ft + 0.5)
	return float32(math.Log(float64(float32(float32(num/den) + 1))))
}

// DocWeight is Lance's BM25 document weight of a token occurring freq
// times in a document of dl tokens, avgdl tokens on average:
// (k1+1)·tf / (tf + k1·(1 − b + b·dl/avgdl)), in float32.
func DocWeight(freq, dl uint32, avgdl float32) float32 {
	tf, d := float32(freq), float32(dl)
	norm := float32(bm25K1 * float32(float32(1-bm25B)+float32(float32(bm25B*d)/avgdl)))
	return float32(float32((bm25K1+1)*tf) / float32(tf+norm))
}

// AvgDocLength is Lance's average document length: total/n in float32.
func AvgDocLength(total, n uint64) float32 {
	if n == 0 {
		return 0
	}
	return float32(total) / float32(n)
}

// PartPostings is a token's posting list in one partition.
type PartPostings struct {
	Part *InvertedPart
	Postings
}

// TermPostings is a token's posting lists in every partition of a
// segment holding it, and its document frequency (their total length).
type TermPostings struct {
	Token string
	DF    uint64
	Parts []PartPostings
}

// Lookup finds token in every partition and decodes its posting lists.
func (ix *Inverted) Lookup(ctx context.Context, token string) (TermPostings, error) {
	tp := TermPostings{Token: token}
	for _, p := range ix.Parts {
		ps, ok, err := p.TokenPostings(ctx, token, ix.FormatVersion)
		if err != nil {
			return tp, err
		}
		if ok {
			tp.Parts = append(tp.Parts, PartPostings{p, ps})
			tp.DF += uint64(len(ps.Docs))
		}
	}
	return tp, nil
}

// AvgDocLength is the segment's average document length (Lance's
// IndexBM25Scorer: total tokens over documents, deleted ones included).
func (ix *Inverted) AvgDocLength() float32 { return AvgDocLength(ix.TotalTokens, ix.N) }

// Hit is an indexed document's score.
type Hit struct {
	RowID uint64
	Score float32
}

// Search scores every indexed document containing any of tokens (all of
// them when all is set) with BM25 over the segment's own statistics
// (Lance's IndexBM25Scorer), summing the tokens' contributions in query
// order. A token repeated in the query counts once per occurrence, as
// pylance 14.0.2 scores it ("zeta zeta" doubles "zeta"). Hits come in no
// particular order.
func (ix *Inverted) Search(ctx context.Context, tokens []string, all bool) ([]Hit, error) {
	terms := make([]TermPostings, len(tokens))
	for i, t := range tokens {
		tp, err := ix.Lookup(ctx, t)
		if err != nil {
			return nil, err
		}
		if all && tp.DF == 0 {
			return nil, nil
		}
		terms[i] = tp
	}
	return ix.Score(terms, ix.N, ix.AvgDocLength(), all), nil
}

// Score scores the documents of the looked-up terms with corpus size n
// and average length avgdl: each term's idf over its DF, contributions
// summed in term order. With all, only documents holding every distinct
// term are returned.
func (ix *Inverted) Score(terms []TermPostings, n uint64, avgdl float32, all bool) []Hit {
	type acc struct {
		score float32
		seen  int
	}
	type key struct {
		part *InvertedPart
		doc  uint32
	}
	distinct := map[string]int{}
	for _, t := range terms {
		if _, ok := distinct[t.Token]; !ok {
			distinct[t.Token] = len(distinct)
		}
	}
	scores := map[key]*acc{}
	var order []key
	for _, t := range terms {
		if t.DF == 0 {
			continue
		}
		idf := IDF(t.DF, n)
		bit := distinct[t.Token]
		for _, pp := range t.Parts {
			for i, d := range pp.Docs {
				k := key{pp.Part, d}
				a := scores[k]
				if a == nil {
					a = &acc{}
					scores[k] = a
					order = append(order, k)
				}
				a.score += float32(idf * DocWeight(pp.Freqs[i], pp.Part.NumTokens[d], avgdl))
				if bit < 63 {
					a.seen |= 1 << bit
				}
			}
		}
	}
	want := 1<<min(len(distinct), 63) - 1
	hits := make([]Hit, 0, len(order))
	for _, k := range order {
		a := scores[k]
		if all && a.seen&want != want {
			continue
		}
		hits = append(hits, Hit{k.part.RowIDs[k.doc], a.score})
	}
	return hits
}
