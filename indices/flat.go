package indices

import (
	"fmt"
	"math/bits"
)

// flatDistances computes the exact distance of q to each stored vector of
// an IVF_FLAT partition (float32 rows of width dim, or uint8 rows for
// hamming) into out[i].Dist. Cosine storage is normalised; Lance still
// computes 1 − cos on it.
func flatDistances(m Metric, q []float32, vals any, width int, out []Candidate) error {
	switch v := vals.(type) {
	case []float32:
		if width != len(q) || len(v) != width*len(out) {
			return fmt.Errorf("%w: flat storage of width %d for dimension %d", ErrCorrupt, width, len(q))
		}
		for i := range out {
			out[i].Dist = distance(m, q, v[i*width:(i+1)*width])
		}
	case []byte:
		if width != len(q) || len(v) != width*len(out) {
			return fmt.Errorf("%w: flat storage of width %d for dimension %d", ErrCorrupt, width, len(q))
		}
		if m != MetricHamming {
			return fmt.Errorf("%w: uint8 flat storage with metric %s", ErrUnsupported, m)
		}
		qb := make([]byte, width)
		for j, x := range q {
			qb[j] = byte(x)
		}
		for i := range out {
			row := v[i*width : (i+1)*width]
			d := 0
			for j := range row {
				d += bits.OnesCount8(row[j] ^ qb[j])
			}
			out[i].Dist = float32(d)
		}
	default:
		return fmt.Errorf("%w: flat storage of %T", ErrUnsupported, vals)
	}
	return nil
}
