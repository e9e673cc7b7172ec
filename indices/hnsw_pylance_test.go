package indices_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/lancego/lancego/indices"
	"github.com/lancego/lancego/internal/dataset"
)

// TestHNSWGraphReads reads every partition graph of pylance's HNSW indices
// and checks its shape: level 0 lists every stored vector once (ids
// 0..n-1), neighbours stay inside the partition, the entry point is a node
// of the top non-empty level.
func TestHNSWGraphReads(t *testing.T) {
	dir := buildIndexDatasets(t)
	ctx := context.Background()
	for _, name := range []string{"vec_ivf_hnsw_flat.lance", "vec_ivf_hnsw_sq.lance", "vec_ivf_hnsw_pq.lance"} {
		t.Run(name, func(t *testing.T) {
			ds, err := dataset.OpenDataset(ctx, filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			defer ds.Close()
			idx, err := ds.Indices(ctx)
			if err != nil || len(idx) != 1 {
				t.Fatalf("indices: %v %v", idx, err)
			}
			m := &idx[0].Segments[0].IndexMetadata
			for p := 0; ; p++ {
				g, err := indices.ReadHNSWGraph(ctx, ds.IndexOpener(), m, p)
				if p > 0 && errors.Is(err, indices.ErrNotFound) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				l0 := g.Levels[0]
				for i, id := range l0.Nodes {
					if int(id) != i {
						t.Fatalf("partition %d: level 0 node %d has id %d", p, i, id)
					}
				}
				for _, nb := range l0.Neighbors {
					if int(nb) >= len(l0.Nodes) {
						t.Fatalf("partition %d: neighbour %d of %d nodes", p, nb, len(l0.Nodes))
					}
				}
				top := 0
				for l := range g.Levels {
					if len(g.Levels[l].Nodes) > 0 {
						top = l
					}
				}
				found := false
				for _, id := range g.Levels[top].Nodes {
					found = found || id == g.EntryPoint
				}
				if !found {
					t.Errorf("partition %d: entry point %d not on level %d", p, g.EntryPoint, top)
				}
			}
		})
	}
}
