package indices

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/internal/fileread"
)

// HNSWPartition is the HNSW graph metadata of one IVF partition
// (one entry of index.idx's "lance:hnsw" list).
type HNSWPartition struct {
	EntryPoint uint32 `json:"entry_point"`
	Params     struct {
		MaxLevel       int `json:"max_level"`
		M              int `json:"m"`
		EfConstruction int `json:"ef_construction"`
	} `json:"params"`
	// LevelOffsets: level L is graph rows [LevelOffsets[L], LevelOffsets[L+1])
	// of the partition.
	LevelOffsets []uint64 `json:"level_offsets"`
}

// HNSWLevel is one level of a partition's graph: Nodes[i] (partition-local
// vector ids, the row within the partition's storage) has neighbours
// Neighbors[Offsets[i]:Offsets[i+1]] at distances Dists[...] (the metric
// on the stored vectors).
type HNSWLevel struct {
	Nodes     []uint32
	Offsets   []int
	Neighbors []uint32
	Dists     []float32
}

// HNSWGraph is the graph of one partition, level 0 first.
type HNSWGraph struct {
	EntryPoint uint32
	Levels     []HNSWLevel
}

// loadHNSWMeta parses index.idx's per-partition HNSW metadata.
func loadHNSWMeta(f *fileread.File, name string, parts int) ([]HNSWPartition, error) {
	var list []string
	if err := metaJSON(f, name, "lance:hnsw", &list); err != nil {
		return nil, err
	}
	if len(list) != parts {
		return nil, fmt.Errorf("%w: %s: %d HNSW partitions for %d IVF partitions", ErrCorrupt, name, len(list), parts)
	}
	out := make([]HNSWPartition, len(list))
	for i, s := range list {
		if err := jsonString(s, &out[i]); err != nil {
			return nil, fmt.Errorf("%w: %s: lance:hnsw[%d]: %v", ErrCorrupt, name, i, err)
		}
		lo := out[i].LevelOffsets
		for l := 1; l < len(lo); l++ {
			if lo[l] < lo[l-1] {
				return nil, fmt.Errorf("%w: %s: partition %d level offsets %v", ErrCorrupt, name, i, lo)
			}
		}
	}
	return out, nil
}

// ReadHNSWGraph reads partition p's graph from an HNSW index.idx: the IVF
// table gives the partition's rows, its lance:hnsw entry the levels.
func ReadHNSWGraph(ctx context.Context, op Opener, m *IndexMetadata, p int) (*HNSWGraph, error) {
	name := m.Dir() + "/index.idx"
	f, err := op.OpenFile(ctx, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ivf, err := loadIVF(ctx, op, name, f)
	if err != nil {
		return nil, err
	}
	if p < 0 || p >= len(ivf.Offsets) {
		return nil, fmt.Errorf("%w: %s: partition %d of %d", ErrNotFound, name, p, len(ivf.Offsets))
	}
	meta, err := loadHNSWMeta(f, name, len(ivf.Offsets))
	if err != nil {
		return nil, err
	}
	from, n := ivf.Offsets[p], uint64(ivf.Lengths[p])
	if from > f.NumRows() || n > f.NumRows()-from {
		return nil, fmt.Errorf("%w: %s: partition %d rows [%d, +%d) of %d", ErrCorrupt, name, p, from, n, f.NumRows())
	}
	lo := meta[p].LevelOffsets
	if len(lo) == 0 || lo[len(lo)-1] != n {
		return nil, fmt.Errorf("%w: %s: partition %d level offsets %v for %d rows", ErrCorrupt, name, p, lo, n)
	}
	g := &HNSWGraph{EntryPoint: meta[p].EntryPoint}
	for l := 0; l+1 < len(lo); l++ {
		lv, err := readHNSWLevel(ctx, f, name, from+lo[l], from+lo[l+1])
		if err != nil {
			return nil, fmt.Errorf("%s partition %d level %d: %w", name, p, l, err)
		}
		g.Levels = append(g.Levels, *lv)
	}
	return g, nil
}

func readHNSWLevel(ctx context.Context, f *fileread.File, name string, from, to uint64) (*HNSWLevel, error) {
	lv := &HNSWLevel{Offsets: []int{0}}
	if from == to {
		return lv, nil
	}
	rr, err := f.Scan(ctx, fileread.ScanOptions{Columns: []string{"__vector_id", "__neighbors", "_distance"}, From: from, To: to})
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	for rr.Next() {
		rec := rr.RecordBatch()
		ids, ok1 := rec.Column(0).(*array.Uint32)
		nb, ok2 := rec.Column(1).(*array.List)
		ds, ok3 := rec.Column(2).(*array.List)
		if !ok1 || !ok2 || !ok3 {
			return nil, fmt.Errorf("%w: %s: unexpected HNSW column types", ErrCorrupt, name)
		}
		nv, ok4 := nb.ListValues().(*array.Uint32)
		dv, ok5 := ds.ListValues().(*array.Float32)
		if !ok4 || !ok5 {
			return nil, fmt.Errorf("%w: %s: unexpected HNSW list item types", ErrCorrupt, name)
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			a, b := nb.ValueOffsets(i)
			c, d := ds.ValueOffsets(i)
			if b-a != d-c {
				return nil, fmt.Errorf("%w: %s: node %d has %d neighbours and %d distances", ErrCorrupt, name, ids.Value(i), b-a, d-c)
			}
			lv.Nodes = append(lv.Nodes, ids.Value(i))
			lv.Neighbors = append(lv.Neighbors, nv.Uint32Values()[a:b]...)
			lv.Dists = append(lv.Dists, dv.Float32Values()[c:d]...)
			lv.Offsets = append(lv.Offsets, len(lv.Neighbors))
		}
	}
	return lv, rr.Err()
}
