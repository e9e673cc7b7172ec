package dataset

// Building IVF vector indices (issue #37 items 2 and 4): a seeded random
// sample of the column trains the model (indices.TrainVector), then one
// streamed scan encodes every live row into it, holding only the codes
// (or, for IVF_FLAT, the vectors the index stores) and row ids; the
// segment's files are written as pylance 14.0.2 writes them.

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/indices"
	"github.com/lancego/lancego/vector"
)

// vectorIndexTypes are the vector index types CreateIndex builds.
var vectorIndexTypes = []indices.IndexType{indices.TypeIVFFlat, indices.TypeIVFPQ, indices.TypeIVFSQ}

// targetPartitionRows is Lance's default rows per IVF partition, from
// which the partition count is chosen when none is given.
func targetPartitionRows(kind indices.IndexType) uint64 {
	if kind == indices.TypeIVFFlat {
		return 4096
	}
	return 8192
}

// vectorParams checks column for a vector index of kind and returns the
// build parameters (defaults filled in) and the vectors' dimension.
func (ds *Dataset) vectorParams(column string, kind indices.IndexType, p IndexParams) (indices.VectorBuildParams, int, error) {
	at := ds.arrow.Field(ds.arrow.FieldIndices(column)[0]).Type
	fsl, ok := at.(*arrow.FixedSizeListType)
	if !ok || fsl.Elem().ID() != arrow.FLOAT32 {
		return indices.VectorBuildParams{}, 0, fmt.Errorf("%w: a %s index on column %q of type %s (lancego builds vector indices on fixed_size_list<float32>)",
			ErrUnsupported, kind, column, at)
	}
	metric, err := vector.ParseMetric(p.Metric)
	if err != nil {
		return indices.VectorBuildParams{}, 0, fmt.Errorf("%w: %v", ErrInvalidArgument, err)
	}
	vp := indices.VectorBuildParams{Type: kind, Metric: indices.Metric(metric), NumPartitions: p.NumPartitions, NumSubVectors: p.NumSubVectors,
		NumBits: p.NumBits, MaxIters: p.MaxIters, SampleRate: p.SampleRate, Seed: p.Seed}
	dim := int(fsl.Len())
	if vp.NumPartitions == 0 {
		vp.NumPartitions = int(max(1, ds.liveRowsAll()/targetPartitionRows(kind)))
	}
	if kind == indices.TypeIVFPQ && vp.NumSubVectors == 0 {
		return vp, dim, fmt.Errorf("%w: IVF_PQ needs the number of sub-vectors (a divisor of the dimension %d; %d sub-vectors of 16 values is usual)",
			ErrInvalidArgument, dim, max(1, dim/16))
	}
	if err := vp.Check(dim); err != nil {
		return vp, dim, fmt.Errorf("%w: %v", ErrInvalidArgument, err)
	}
	return vp, dim, nil
}

// buildVectorIndex trains and writes a vector index of kind on column.
func (ds *Dataset) buildVectorIndex(ctx context.Context, sink *indexSink, meta *indices.IndexMetadata, column string, kind indices.IndexType, p IndexParams) ([]indices.IndexFile, error) {
	vp, dim, err := ds.vectorParams(column, kind, p)
	if err != nil {
		return nil, err
	}
	sample, err := ds.vectorSample(ctx, column, dim, vp.SampleSize(), vp.Seed)
	if err != nil {
		return nil, err
	}
	model, err := indices.TrainVector(ctx, sample, dim, vp)
	if errors.Is(err, indices.ErrInvalidQuery) {
		return nil, fmt.Errorf("%w: %v", ErrInvalidArgument, err)
	} else if err != nil {
		return nil, err
	}
	enc := model.NewEncoder()
	if err := ds.encodeVectors(ctx, column, dim, nil, enc); err != nil {
		return nil, err
	}
	meta.DetailsTypeURL, meta.Details, meta.IndexVersion = indices.VectorIndexDetailsTypeURL, model.Params.Details(), 1
	return enc.Write(ctx, sink, ds.allocator())
}

// vectorSample returns up to size live vectors of column (dim values
// each, NULL vectors left out) chosen uniformly at random with seed, in
// row order; every vector when the column has no more than size.
func (ds *Dataset) vectorSample(ctx context.Context, column string, dim, size int, seed uint64) ([]float32, error) {
	n := ds.liveRowsAll()
	if n <= uint64(size) {
		var out []float32
		err := ds.eachVectorBatch(ctx, column, dim, nil, false, func(vals []float32, _ []uint64) error {
			out = append(out, vals...)
			return nil
		})
		return out, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x73616d706c65))
	pick := make(map[uint64]bool, size)
	for j := n - uint64(size); j < n; j++ { // Floyd: size distinct offsets
		t := rng.Uint64N(j + 1)
		if pick[t] {
			t = j
		}
		pick[t] = true
	}
	offsets := make([]uint64, 0, size)
	for o := range pick {
		offsets = append(offsets, o)
	}
	slices.Sort(offsets)
	out := make([]float32, 0, size*dim)
	const chunk = 16384
	for lo := 0; lo < len(offsets); lo += chunk {
		rec, err := ds.Take(ctx, offsets[lo:min(len(offsets), lo+chunk)], ReadOptions{Columns: []string{column}})
		if err != nil {
			return nil, fmt.Errorf("sampling %q: %w", column, err)
		}
		out = appendVectors(out, rec.Column(0), dim, nil, nil)
		rec.Release()
	}
	return out, nil
}

// encodeVectors streams column's live rows of the fragments at positions
// frags (nil: all) into enc with their row ids.
func (ds *Dataset) encodeVectors(ctx context.Context, column string, dim int, frags []int, enc *indices.VectorEncoder) error {
	return ds.eachVectorBatch(ctx, column, dim, frags, true, func(vals []float32, ids []uint64) error {
		return enc.Add(ctx, vals, ids)
	})
}

// eachVectorBatch scans column (with row ids when withIDs) and calls f
// with each batch's non-NULL vectors, flattened, and their row ids.
func (ds *Dataset) eachVectorBatch(ctx context.Context, column string, dim int, frags []int, withIDs bool, f func([]float32, []uint64) error) error {
	o := DatasetScanOptions{ReadOptions: ReadOptions{Columns: []string{column}, WithRowID: withIDs}}
	var ranges []fragRange
	for i, fr := range ds.frags {
		if frags == nil || slices.Contains(frags, i) {
			ranges = append(ranges, fragRange{i, 0, fr.ref.PhysicalRows})
		}
	}
	var ferr error
	ds.scanRanges(ctx, ranges, o, func(rec arrow.RecordBatch, err error) bool {
		if err != nil {
			ferr = err
			return false
		}
		defer rec.Release()
		var ids, keptIDs []uint64
		var kept *[]uint64
		if withIDs {
			ids = rec.Column(1).(*array.Uint64).Values()
			keptIDs = make([]uint64, 0, len(ids))
			kept = &keptIDs
		}
		vals := appendVectors(make([]float32, 0, int(rec.NumRows())*dim), rec.Column(0), dim, ids, kept)
		if ferr = f(vals, keptIDs); ferr != nil {
			return false
		}
		return true
	})
	return ferr
}

// appendVectors appends the non-NULL vectors of a fixed_size_list<float32>
// array to dst; with ids, the ids of the rows kept go to *kept.
func appendVectors(dst []float32, a arrow.Array, dim int, ids []uint64, kept *[]uint64) []float32 {
	l := a.(*array.FixedSizeList)
	vals := l.ListValues().(*array.Float32).Float32Values()
	off := l.Data().Offset()
	for i := 0; i < l.Len(); i++ {
		if l.IsNull(i) {
			continue
		}
		start := (off + i) * dim
		dst = append(dst, vals[start:start+dim]...)
		if kept != nil {
			*kept = append(*kept, ids[i])
		}
	}
	return dst
}

// liveRowsAll is the live rows of every fragment.
func (ds *Dataset) liveRowsAll() uint64 {
	ids := make([]uint32, len(ds.man.Fragments))
	for i, f := range ds.man.Fragments {
		ids[i] = uint32(f.ID)
	}
	return ds.liveRowsIn(ids)
}
