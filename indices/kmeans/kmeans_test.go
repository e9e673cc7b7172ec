package kmeans

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// blobs makes n rows of dimension dim around k well separated centres.
func blobs(n, dim, k int, seed uint64) ([]float32, []int) {
	rng := rand.New(rand.NewPCG(seed, 1))
	centres := make([]float32, k*dim)
	for i := range centres {
		centres[i] = float32(rng.NormFloat64() * 20)
	}
	data := make([]float32, n*dim)
	label := make([]int, n)
	for i := 0; i < n; i++ {
		c := rng.IntN(k)
		label[i] = c
		for d := 0; d < dim; d++ {
			data[i*dim+d] = centres[c*dim+d] + float32(rng.NormFloat64())
		}
	}
	return data, label
}

// TestTrainSeparatesBlobs: with more clusters than blobs, no cluster
// straddles two blobs unless a blob drew no initial centroid (random
// initialisation, as Lance's), so most seeds must give pure clusters.
func TestTrainSeparatesBlobs(t *testing.T) {
	ctx := context.Background()
	for _, m := range []Metric{L2, Dot} {
		ok := 0
		for seed := uint64(1); seed <= 5; seed++ {
			data, label := blobs(4000, 16, 3, seed)
			if m == Dot { // dot clustering of unit vectors is cosine clustering
				normalise(data, 16)
			}
			model, err := Train(ctx, data, 16, 8, m, Config{Seed: seed, Balance: 1})
			if err != nil {
				t.Fatal(err)
			}
			if model.Loss <= 0 || math.IsNaN(model.Loss) || model.Iterations < 1 {
				t.Errorf("metric %d: loss %g after %d iterations", m, model.Loss, model.Iterations)
			}
			member := make([]uint32, 4000)
			dist := make([]float32, 4000)
			if err := Assign(ctx, data, 16, model.Centroids, m, 2, member, dist); err != nil {
				t.Fatal(err)
			}
			blobOf := map[uint32]int{}
			pure := true
			for i, c := range member {
				if b, seen := blobOf[c]; seen && b != label[i] {
					pure = false
				}
				blobOf[c] = label[i]
			}
			if pure && len(blobOf) == 8 {
				ok++
			}
		}
		if ok < 4 {
			t.Errorf("metric %d: %d of 5 seeds gave 8 non-empty clusters of one blob each", m, ok)
		}
	}
}

func normalise(data []float32, dim int) {
	for i := 0; i < len(data); i += dim {
		var s float64
		for _, v := range data[i : i+dim] {
			s += float64(v) * float64(v)
		}
		inv := float32(1 / math.Sqrt(s))
		for d := i; d < i+dim; d++ {
			data[d] *= inv
		}
	}
}

func TestTrainIsSeeded(t *testing.T) {
	data, _ := blobs(2000, 8, 5, 9)
	a, err := Train(context.Background(), data, 8, 16, L2, Config{Seed: 42, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Train(context.Background(), data, 8, 16, L2, Config{Seed: 42, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Centroids, b.Centroids) {
		t.Error("the same seed trained different centroids")
	}
	c, _ := Train(context.Background(), data, 8, 16, L2, Config{Seed: 43})
	if slices.Equal(a.Centroids, c.Centroids) {
		t.Error("different seeds trained the same centroids")
	}
}

func TestAssignMatchesDirectDistances(t *testing.T) {
	data, _ := blobs(700, 12, 4, 5)
	cent := data[:10*12]
	member := make([]uint32, 700)
	dist := make([]float32, 700)
	if err := Assign(context.Background(), data, 12, cent, L2, 3, member, dist); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 700; i++ {
		best, bd := 0, float32(math.Inf(1))
		for j := 0; j < 10; j++ {
			var s float32
			for d := 0; d < 12; d++ {
				x := data[i*12+d] - cent[j*12+d]
				s += x * x
			}
			if s < bd {
				best, bd = j, s
			}
		}
		if math.Abs(float64(dist[i]-bd)) > 1e-3*float64(max(1, bd)) {
			t.Fatalf("row %d: distance %g, direct %g", i, dist[i], bd)
		}
		if int(member[i]) != best && math.Abs(float64(dist[i]-bd)) > 1e-4 {
			t.Fatalf("row %d: centroid %d, direct %d", i, member[i], best)
		}
	}
}

func TestTrainErrors(t *testing.T) {
	ctx := context.Background()
	if _, err := Train(ctx, make([]float32, 30), 10, 4, L2, Config{}); !errors.Is(err, ErrInput) {
		t.Errorf("3 rows, 4 clusters: %v", err)
	}
	if _, err := Train(ctx, make([]float32, 31), 10, 1, L2, Config{}); !errors.Is(err, ErrInput) {
		t.Errorf("ragged rows: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	data, _ := blobs(100, 4, 2, 1)
	if _, err := Train(cctx, data, 4, 2, L2, Config{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	// Identical rows: clusters stay non-empty by splitting; no endless loop.
	same := make([]float32, 64*4)
	if _, err := Train(ctx, same, 4, 8, L2, Config{MaxIters: 5}); err != nil {
		t.Errorf("identical rows: %v", err)
	}
}

// FuzzTrain trains on arbitrary values and shapes: never a panic, hang
// or non-finite centroid from finite input.
func FuzzTrain(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, uint8(2), uint8(2))
	f.Add(make([]byte, 64), uint8(4), uint8(3))
	f.Fuzz(func(t *testing.T, raw []byte, dim, k uint8) {
		d := int(dim%8) + 1
		vals := make([]float32, len(raw)/d*d)
		for i := range vals {
			vals[i] = float32(int8(raw[i]))
		}
		m, err := Train(context.Background(), vals, d, int(k%9), L2, Config{MaxIters: 8, Balance: 1})
		if err != nil {
			if !errors.Is(err, ErrInput) {
				t.Fatal(err)
			}
			return
		}
		for _, c := range m.Centroids {
			if math.IsNaN(float64(c)) || math.IsInf(float64(c), 0) {
				t.Fatalf("centroid value %g", c)
			}
		}
	})
}

func TestArgmin(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for n := 1; n < 40; n++ {
		for trial := 0; trial < 50; trial++ {
			v := make([]float32, n)
			for i := range v {
				v[i] = float32(rng.IntN(7))
			}
			want := 0
			for i := range v {
				if v[i] < v[want] {
					want = i
				}
			}
			if got, val := argmin(v); got != want || val != v[want] {
				t.Fatalf("argmin(%v) = %d, want %d", v, got, want)
			}
		}
	}
}
