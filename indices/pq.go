package indices

import (
	"context"
	"fmt"

	"github.com/lancego/lancego/internal/fileread"
)

const pqCodeColumn = "__pq_code"

// PQ is a product quantizer of Lance's v3 storage: M sub-vectors of
// dim/M components, 2^NumBits centroids each.
type PQ struct {
	NumBits       int
	NumSubVectors int
	Dim           int
	// Codebook is sub-vector major: component j of centroid c of
	// sub-vector m is Codebook[((m<<NumBits)+c)*(Dim/M)+j].
	Codebook   []float32
	Transposed bool
}

type pqStorageMeta struct {
	CodebookPosition int  `json:"codebook_position"`
	NumBits          int  `json:"nbits"`
	NumSubVectors    int  `json:"num_sub_vectors"`
	Dimension        int  `json:"dimension"`
	Transposed       bool `json:"transposed"`
}

// loadPQ reads the PQ parameters (storage_metadata) and codebook
// (a global buffer) of an auxiliary.idx file.
func loadPQ(ctx context.Context, op Opener, name string, f *fileread.File, dim int) (*PQ, error) {
	var list []string
	if err := metaJSON(f, name, "storage_metadata", &list); err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("%w: %s: empty storage_metadata", ErrCorrupt, name)
	}
	var sm pqStorageMeta
	if err := jsonString(list[0], &sm); err != nil {
		return nil, fmt.Errorf("%w: %s: storage_metadata: %v", ErrCorrupt, name, err)
	}
	pq := &PQ{NumBits: sm.NumBits, NumSubVectors: sm.NumSubVectors, Dim: sm.Dimension, Transposed: sm.Transposed}
	if pq.NumBits != 8 && pq.NumBits != 4 {
		return nil, fmt.Errorf("%w: %s: PQ of %d bits", ErrUnsupported, name, pq.NumBits)
	}
	if pq.Dim != dim || pq.NumSubVectors <= 0 || dim%pq.NumSubVectors != 0 ||
		(pq.NumBits == 4 && pq.NumSubVectors%2 != 0) {
		return nil, fmt.Errorf("%w: %s: PQ of %d sub-vectors over dimension %d (index dimension %d)",
			ErrCorrupt, name, pq.NumSubVectors, pq.Dim, dim)
	}
	b, err := readVectorBuffer(ctx, op, name, f, sm.CodebookPosition)
	if err != nil {
		return nil, err
	}
	t, err := DecodeTensor(b)
	if err != nil {
		return nil, fmt.Errorf("%s: codebook: %w", name, err)
	}
	if pq.Codebook, err = t.Float32s(); err != nil {
		return nil, fmt.Errorf("%s: codebook: %w", name, err)
	}
	if len(pq.Codebook) != (1<<pq.NumBits)*dim {
		return nil, fmt.Errorf("%w: %s: codebook of %d values for %d centroids of dimension %d",
			ErrCorrupt, name, len(pq.Codebook), 1<<pq.NumBits, dim)
	}
	return pq, nil
}

// CodeBytes is the bytes per stored code.
func (pq *PQ) CodeBytes() int { return pq.NumSubVectors * pq.NumBits / 8 }

// DistanceTable builds Lance's ADC table for query q in partition of
// centroid c: table[m<<NumBits + code] per sub-vector. L2 and cosine
// (query normalised first) tabulate the squared L2 of the residual q − c to
// each sub-centroid; dot tabulates q_m · C_m[code] on the raw query.
func (pq *PQ) DistanceTable(metric Metric, q, c []float32) []float32 {
	k := 1 << pq.NumBits
	sub := pq.Dim / pq.NumSubVectors
	table := make([]float32, pq.NumSubVectors*k)
	r := make([]float32, len(q))
	switch metric {
	case MetricDot:
		copy(r, q)
	case MetricCosine:
		n := normalized(q)
		for i := range r {
			r[i] = n[i] - c[i]
		}
	default:
		for i := range r {
			r[i] = q[i] - c[i]
		}
	}
	for m := 0; m < pq.NumSubVectors; m++ {
		rm := r[m*sub : (m+1)*sub]
		for code := 0; code < k; code++ {
			cent := pq.Codebook[(m*k+code)*sub : (m*k+code+1)*sub]
			if metric == MetricDot {
				table[m*k+code] = dot(rm, cent)
			} else {
				table[m*k+code] = distance(MetricL2, rm, cent)
			}
		}
	}
	return table
}

// distances computes the ADC distance of each of the n rows of a
// partition whose codes are raw (the partition's flat __pq_code bytes) into
// out[i].Dist.
func (pq *PQ) distances(metric Metric, q, centroid []float32, raw any, n int, out []Candidate) error {
	codes, ok := raw.([]byte)
	B := pq.CodeBytes()
	if !ok || len(codes) != n*B {
		return fmt.Errorf("%w: PQ codes of %d bytes for %d rows of %d bytes", ErrCorrupt, lenOf(raw), n, B)
	}
	table := pq.DistanceTable(metric, q, centroid)
	k := 1 << pq.NumBits
	// byteAt is byte b of row r, transposed (column-major) or row-major.
	byteAt := func(r, b int) byte { return codes[r*B+b] }
	if pq.Transposed {
		byteAt = func(r, b int) byte { return codes[b*n+r] }
	}
	for r := 0; r < n; r++ {
		var s float32
		for b := 0; b < B; b++ {
			v := byteAt(r, b)
			if pq.NumBits == 8 {
				s += table[b*k+int(v)]
			} else {
				s += table[(2*b)*k+int(v&15)]
				s += table[(2*b+1)*k+int(v>>4)]
			}
		}
		if metric == MetricDot {
			s = 1 - s
		}
		out[r].Dist = s
	}
	return nil
}

func lenOf(raw any) int {
	if b, ok := raw.([]byte); ok {
		return len(b)
	}
	return -1
}
