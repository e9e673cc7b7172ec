package indices

import (
	"fmt"
	"math"

	"github.com/lancego/lancego/internal/fileread"
)

const sqCodeColumn = "__sq_code"

// SQ is Lance's scalar quantizer: one [Start, End] range over every
// component, NumBits (8) bits per component, no residual.
type SQ struct {
	Dim        int
	NumBits    int
	Start, End float64
}

type sqStorageMeta struct {
	Dim     int `json:"dim"`
	NumBits int `json:"num_bits"`
	Bounds  struct {
		Start float64 `json:"start"`
		End   float64 `json:"end"`
	} `json:"bounds"`
}

// loadSQ reads the SQ parameters (storage_metadata) of an auxiliary.idx file.
func loadSQ(f *fileread.File, name string, dim int) (*SQ, error) {
	var list []string
	if err := metaJSON(f, name, "storage_metadata", &list); err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("%w: %s: empty storage_metadata", ErrCorrupt, name)
	}
	var sm sqStorageMeta
	if err := jsonString(list[0], &sm); err != nil {
		return nil, fmt.Errorf("%w: %s: storage_metadata: %v", ErrCorrupt, name, err)
	}
	if sm.NumBits != 8 {
		return nil, fmt.Errorf("%w: %s: SQ of %d bits", ErrUnsupported, name, sm.NumBits)
	}
	if sm.Dim != dim || !(sm.Bounds.End > sm.Bounds.Start) {
		return nil, fmt.Errorf("%w: %s: SQ of dimension %d (index %d), bounds [%g, %g]",
			ErrCorrupt, name, sm.Dim, dim, sm.Bounds.Start, sm.Bounds.End)
	}
	return &SQ{Dim: dim, NumBits: 8, Start: sm.Bounds.Start, End: sm.Bounds.End}, nil
}

// Quantize encodes v as Lance does: clamp(floor((x − start)·255/(end − start)), 0, 255).
func (sq *SQ) Quantize(v []float32) []byte {
	out := make([]byte, len(v))
	scale := 255 / (sq.End - sq.Start)
	for i, x := range v {
		c := math.Floor((float64(x) - sq.Start) * scale)
		out[i] = byte(math.Max(0, math.Min(255, c)))
	}
	return out
}

// distances computes the SQ code distance of the quantised query to each
// row's codes into out[i].Dist: l2/cosine Σ (cq − cx)² · s², dot
// (1 − Σ cq·cx) · s², with s = (end − start)/255.
func (sq *SQ) distances(metric Metric, q []float32, raw any, n int, out []Candidate) error {
	codes, ok := raw.([]byte)
	if !ok || len(codes) != n*sq.Dim {
		return fmt.Errorf("%w: SQ codes of %d bytes for %d rows of dimension %d", ErrCorrupt, lenOf(raw), n, sq.Dim)
	}
	qq := q
	if metric == MetricCosine {
		qq = normalized(q)
	}
	cq := sq.Quantize(qq)
	s := (sq.End - sq.Start) / 255
	s2 := float32(s * s)
	for r := 0; r < n; r++ {
		row := codes[r*sq.Dim : (r+1)*sq.Dim]
		var acc uint32
		if metric == MetricDot {
			for j := range row {
				acc += uint32(cq[j]) * uint32(row[j])
			}
			out[r].Dist = (1 - float32(acc)) * s2
			continue
		}
		for j := range row {
			d := int32(cq[j]) - int32(row[j])
			acc += uint32(d * d)
		}
		out[r].Dist = float32(acc) * s2
	}
	return nil
}
