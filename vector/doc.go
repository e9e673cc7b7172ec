// Package vector computes the distances of Lance's vector search, exactly
// as pylance 14.0.2 reports them in `_distance`, and selects the k nearest
// rows in Lance's order (distance, then row id). It does no I/O.
//
// Metrics (lance-linalg, ../shared/spec/indices.md §3.3):
//
//	l2       Σ (q−x)²            squared Euclidean distance
//	cosine   1 − q·x/(‖q‖‖x‖)
//	dot      1 − q·x
//	hamming  popcount(q XOR x)   over uint8 vectors
//
// Distances are computed in float32 for float16 and float32 vectors and in
// float64 for float64 vectors, then rounded to float32, as Lance does.
//
// The kernels are plain Go loops unrolled by four with independent
// accumulators. They do not use github.com/viterin/vek (available, v0.4.3)
// because vek has no squared-L2 or hamming kernel, works on float32/float64
// only, and would add a module to go.mod for one dot product; the Go
// compiler vectorises none of these loops, but four accumulators hide the
// add latency, which is what limits them. Batched kernels over an Arrow
// fixed-size-list buffer (Batch*) take the vectors straight from the
// buffer without allocating per row.
package vector
