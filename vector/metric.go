package vector

import (
	"fmt"
	"strings"
)

// Metric is a distance metric of Lance's vector search.
type Metric int

// The metrics, as pylance names them ("l2" is also "euclidean").
const (
	L2 Metric = iota
	Cosine
	Dot
	Hamming
)

// String returns the metric's pylance name.
func (m Metric) String() string {
	switch m {
	case L2:
		return "l2"
	case Cosine:
		return "cosine"
	case Dot:
		return "dot"
	case Hamming:
		return "hamming"
	}
	return fmt.Sprintf("Metric(%d)", int(m))
}

// ParseMetric reads a metric name as pylance accepts it (case-insensitive;
// "euclidean" is l2). The empty string is l2, pylance's default.
func ParseMetric(s string) (Metric, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "l2", "euclidean":
		return L2, nil
	case "cosine":
		return Cosine, nil
	case "dot":
		return Dot, nil
	case "hamming":
		return Hamming, nil
	}
	return 0, fmt.Errorf("%w: unknown metric %q (want l2, cosine, dot or hamming)", ErrInvalidArgument, s)
}

// Valid reports whether m is one of the metrics.
func (m Metric) Valid() bool { return m >= L2 && m <= Hamming }
