package kmeans

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// addDotProducts adds alpha times the dot product of row r of x (rows ×
// dim) and column j of ct (dim × k, the centroids transposed) to
// out[r*k+j]: one GEMM, out += alpha·x·ct. With the centroids transposed
// gonum runs its axpy kernel along the k centroids (vectorised), not a
// dot product per (row, centroid) pair, which is slow for the short
// sub-vectors of PQ. gonum's implementation is called directly rather
// than through blas32, whose implementation is package-level state.
func addDotProducts(x []float32, rows int, ct []float32, k, dim int, alpha float32, out []float32) {
	gonum.Implementation{}.Sgemm(blas.NoTrans, blas.NoTrans, rows, k, dim, alpha, x, dim, ct, k, 1, out, k)
}

// transpose returns the k × dim rows of c as dim × k.
func transpose(c []float32, k, dim int) []float32 {
	out := make([]float32, len(c))
	for j := 0; j < k; j++ {
		for d := 0; d < dim; d++ {
			out[d*k+j] = c[j*dim+d]
		}
	}
	return out
}
