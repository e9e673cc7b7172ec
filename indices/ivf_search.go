package indices

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/internal/fileread"
)

// Candidate is one row an index search found, with its index distance.
type Candidate struct {
	RowID uint64
	Dist  float32
}

// VectorIndex is one open segment of an IVF vector index in the v3 layout
// (pylance 14.0.2): centroids from index.idx, partition row ranges and the
// vector storage (FLAT or PQ) from auxiliary.idx.
type VectorIndex struct {
	Meta    IndexMetadata
	Type    IndexType
	Metric  Metric
	ivf     *IVF // centroids (index.idx)
	auxIVF  *IVF // partition rows of auxiliary.idx
	aux     *fileread.File
	auxName string
	pq      *PQ // nil unless PQ storage
	sq      *SQ // nil unless SQ storage
	// HNSW sub-index (IVF_HNSW_*): the open index.idx and its partitions'
	// graph metadata; nil for the FLAT sub-index.
	graph     *fileread.File
	graphName string
	hnsw      []HNSWPartition
}

// OpenVector opens segment m of a vector index through op. The caller
// closes the index.
func OpenVector(ctx context.Context, op Opener, m *IndexMetadata) (*VectorIndex, error) {
	idxName, auxName := m.Dir()+"/index.idx", m.Dir()+"/auxiliary.idx"
	idx, err := op.OpenFile(ctx, idxName)
	if err != nil {
		return nil, err
	}
	keep := false
	defer func() {
		if !keep {
			idx.Close()
		}
	}()
	var info struct {
		Type         string `json:"type"`
		DistanceType string `json:"distance_type"`
	}
	if err := metaJSON(idx, idxName, "lance:index", &info); err != nil {
		return nil, fmt.Errorf("%w (legacy vector layouts are not read yet)", err)
	}
	vi := &VectorIndex{Meta: *m, Type: IndexType(info.Type), auxName: auxName}
	if vi.Metric, err = parseMetric(info.DistanceType); err != nil {
		return nil, fmt.Errorf("%s: %w", idxName, err)
	}
	if vi.ivf, err = loadIVF(ctx, op, idxName, idx); err != nil {
		return nil, err
	}
	if vi.ivf.Dim == 0 {
		return nil, fmt.Errorf("%w: %s: IVF without centroids", ErrCorrupt, idxName)
	}
	switch vi.Type {
	case TypeIVFFlat, TypeIVFPQ, TypeIVFSQ:
	case TypeIVFHNSWFlat, TypeIVFHNSWPQ, TypeIVFHNSWSQ:
		if vi.hnsw, err = loadHNSWMeta(idx, idxName, vi.NumPartitions()); err != nil {
			return nil, err
		}
		if len(vi.ivf.Offsets) != vi.NumPartitions() {
			return nil, fmt.Errorf("%w: %s: %d graph partitions for %d centroids", ErrCorrupt, idxName, len(vi.ivf.Offsets), vi.NumPartitions())
		}
		vi.graph, vi.graphName, keep = idx, idxName, true
	default:
		return nil, fmt.Errorf("%w: %s: vector index type %s", ErrUnsupported, idxName, vi.Type)
	}
	if vi.aux, err = op.OpenFile(ctx, auxName); err != nil {
		keep = false
		return nil, err
	}
	if err := vi.openStorage(ctx, op); err != nil {
		vi.aux.Close()
		keep = false
		return nil, err
	}
	return vi, nil
}

func (vi *VectorIndex) openStorage(ctx context.Context, op Opener) error {
	var err error
	if vi.auxIVF, err = loadIVF(ctx, op, vi.auxName, vi.aux); err != nil {
		return err
	}
	if vi.auxIVF.NumPartitions() != vi.NumPartitions() {
		return fmt.Errorf("%w: %s: %d partitions, %d centroids", ErrCorrupt, vi.auxName,
			vi.auxIVF.NumPartitions(), len(vi.ivf.Centroids)/vi.ivf.Dim)
	}
	var end uint64
	for p, o := range vi.auxIVF.Offsets {
		if o != end {
			return fmt.Errorf("%w: %s: partition %d starts at row %d, not %d", ErrCorrupt, vi.auxName, p, o, end)
		}
		end += uint64(vi.auxIVF.Lengths[p])
	}
	if end != vi.aux.NumRows() {
		return fmt.Errorf("%w: %s: partitions hold %d rows of %d", ErrCorrupt, vi.auxName, end, vi.aux.NumRows())
	}
	switch vi.Type {
	case TypeIVFPQ, TypeIVFHNSWPQ:
		vi.pq, err = loadPQ(ctx, op, vi.auxName, vi.aux, vi.ivf.Dim)
	case TypeIVFSQ, TypeIVFHNSWSQ:
		vi.sq, err = loadSQ(vi.aux, vi.auxName, vi.ivf.Dim)
	}
	return err
}

func loadIVF(ctx context.Context, op Opener, name string, f *fileread.File) (*IVF, error) {
	pos, err := metaInt(f, name, "lance:ivf")
	if err != nil {
		return nil, err
	}
	b, err := readVectorBuffer(ctx, op, name, f, pos)
	if err != nil {
		return nil, err
	}
	v, err := DecodeIVF(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return v, nil
}

func parseMetric(s string) (Metric, error) {
	switch s {
	case "l2", "euclidean":
		return MetricL2, nil
	case "cosine":
		return MetricCosine, nil
	case "dot":
		return MetricDot, nil
	case "hamming":
		return MetricHamming, nil
	}
	return 0, fmt.Errorf("%w: distance type %q", ErrUnsupported, s)
}

// Close releases the index's files.
func (vi *VectorIndex) Close() error {
	if vi.graph != nil {
		vi.graph.Close()
	}
	return vi.aux.Close()
}

// IsHNSW reports whether the partitions carry HNSW graphs.
func (vi *VectorIndex) IsHNSW() bool { return vi.graph != nil }

// Dim is the vectors' dimension.
func (vi *VectorIndex) Dim() int { return vi.ivf.Dim }

// Centroids returns the partitions' centroids, row-major.
func (vi *VectorIndex) Centroids() []float32 { return vi.ivf.Centroids }

// NumPartitions is the number of IVF partitions.
func (vi *VectorIndex) NumPartitions() int { return len(vi.ivf.Centroids) / vi.ivf.Dim }

// PartitionLen is the number of rows stored in partition p.
func (vi *VectorIndex) PartitionLen(p int) int { return int(vi.auxIVF.Lengths[p]) }

// ProbePartitions returns the first nprobes partitions (all when nprobes
// ≤ 0 or larger) ordered as Lance orders them: by the metric's distance of
// the query to the centroid (cosine: squared L2 of the normalised query),
// ties by partition number.
func (vi *VectorIndex) ProbePartitions(q []float32, nprobes int) ([]int, error) {
	ps, _, err := vi.ProbePartitionsDist(q, nprobes)
	return ps, err
}

// ProbePartitionsDist is ProbePartitions with each chosen partition's
// centroid distance (Lance's dist_q_c, what its early pruning reads).
func (vi *VectorIndex) ProbePartitionsDist(q []float32, nprobes int) ([]int, []float32, error) {
	if len(q) != vi.ivf.Dim {
		return nil, nil, fmt.Errorf("%w: query of dimension %d for an index of %d", ErrInvalidQuery, len(q), vi.ivf.Dim)
	}
	qq := q
	m := vi.Metric
	if m == MetricCosine {
		qq, m = normalized(q), MetricL2
	}
	n := vi.NumPartitions()
	d := make([]float32, n)
	for p := 0; p < n; p++ {
		d[p] = distance(m, qq, vi.ivf.Centroids[p*vi.ivf.Dim:(p+1)*vi.ivf.Dim])
	}
	ps := make([]int, n)
	for i := range ps {
		ps[i] = i
	}
	sort.SliceStable(ps, func(i, j int) bool { return d[ps[i]] < d[ps[j]] })
	if nprobes > 0 && nprobes < n {
		ps = ps[:nprobes]
	}
	pd := make([]float32, len(ps))
	for i, p := range ps {
		pd[i] = d[p]
	}
	return ps, pd, nil
}

// SearchPartition returns the k nearest rows of partition p by the index's
// distance (exact for FLAT storage, ADC for PQ), ordered by (distance, row
// id). k ≤ 0 returns every row.
func (vi *VectorIndex) SearchPartition(ctx context.Context, p int, q []float32, k int) ([]Candidate, error) {
	out, err := vi.partitionDistances(ctx, p, q)
	if err != nil {
		return nil, err
	}
	SortCandidates(out)
	if k > 0 && k < len(out) {
		out = out[:k]
	}
	return out, nil
}

// partitionDistances reads partition p's storage and returns every row
// with its storage distance to q (exact for FLAT, ADC for PQ, code distance
// for SQ), in storage order.
func (vi *VectorIndex) partitionDistances(ctx context.Context, p int, q []float32) ([]Candidate, error) {
	if p < 0 || p >= vi.NumPartitions() {
		return nil, fmt.Errorf("%w: partition %d of %d", ErrNotFound, p, vi.NumPartitions())
	}
	if len(q) != vi.ivf.Dim {
		return nil, fmt.Errorf("%w: query of dimension %d for an index of %d", ErrInvalidQuery, len(q), vi.ivf.Dim)
	}
	from := vi.auxIVF.Offsets[p]
	n := uint64(vi.auxIVF.Lengths[p])
	if n == 0 {
		return nil, nil
	}
	col := "flat"
	switch {
	case vi.pq != nil:
		col = pqCodeColumn
	case vi.sq != nil:
		col = sqCodeColumn
	}
	ids, vals, width, err := vi.readPartition(ctx, col, from, from+n)
	if err != nil {
		return nil, err
	}
	out := make([]Candidate, n)
	switch {
	case vi.sq != nil:
		err = vi.sq.distances(vi.Metric, q, vals, int(n), out)
	case vi.pq != nil:
		err = vi.pq.distances(vi.Metric, q, vi.ivf.Centroids[p*vi.ivf.Dim:(p+1)*vi.ivf.Dim], vals, int(n), out)
	default:
		err = flatDistances(vi.Metric, q, vals, width, out)
	}
	if err != nil {
		return nil, fmt.Errorf("%s partition %d: %w", vi.auxName, p, err)
	}
	for i := range out {
		out[i].RowID = ids[i]
	}
	return out, nil
}

// SortCandidates orders candidates by (distance, row id), Lance's order.
func SortCandidates(c []Candidate) {
	sort.Slice(c, func(i, j int) bool {
		if c[i].Dist != c[j].Dist {
			return c[i].Dist < c[j].Dist
		}
		return c[i].RowID < c[j].RowID
	})
}

// readPartition reads rows [from, to) of the storage: row ids and the
// fixed-size-list column col as raw values (float32 or uint8 bytes).
func (vi *VectorIndex) readPartition(ctx context.Context, col string, from, to uint64) ([]uint64, any, int, error) {
	rr, err := vi.aux.Scan(ctx, fileread.ScanOptions{Columns: []string{"_rowid", col}, From: from, To: to, BatchSize: int(to - from)})
	if err != nil {
		return nil, nil, 0, fmt.Errorf("%s: %w", vi.auxName, err)
	}
	defer rr.Release()
	var ids []uint64
	var f32 []float32
	var u8 []byte
	width := 0
	for rr.Next() {
		rec := rr.RecordBatch()
		ids = append(ids, rec.Column(0).(*array.Uint64).Uint64Values()...)
		fsl, ok := rec.Column(1).(*array.FixedSizeList)
		if !ok {
			return nil, nil, 0, fmt.Errorf("%w: %s: column %s is %s", ErrCorrupt, vi.auxName, col, rec.Column(1).DataType())
		}
		width = int(fsl.DataType().(*arrow.FixedSizeListType).Len())
		off := fsl.Offset() * width
		switch v := fsl.ListValues().(type) {
		case *array.Float32:
			f32 = append(f32, v.Float32Values()[off:off+fsl.Len()*width]...)
		case *array.Uint8:
			u8 = append(u8, v.Uint8Values()[off:off+fsl.Len()*width]...)
		default:
			return nil, nil, 0, fmt.Errorf("%w: %s: column %s of %s", ErrUnsupported, vi.auxName, col, v.DataType())
		}
	}
	if err := rr.Err(); err != nil {
		return nil, nil, 0, fmt.Errorf("%s: %w", vi.auxName, err)
	}
	if uint64(len(ids)) != to-from {
		return nil, nil, 0, fmt.Errorf("%w: %s: read %d rows of %d", ErrCorrupt, vi.auxName, len(ids), to-from)
	}
	if u8 != nil {
		return ids, u8, width, nil
	}
	return ids, f32, width, nil
}

// distance is the metric's distance as Lance computes it.
func distance(m Metric, a, b []float32) float32 {
	switch m {
	case MetricDot:
		return 1 - dot(a, b)
	case MetricCosine:
		na, nb := dot(a, a), dot(b, b)
		return 1 - dot(a, b)/(float32(math.Sqrt(float64(na)))*float32(math.Sqrt(float64(nb))))
	case MetricHamming:
		var d float32
		for i := range a {
			if a[i] != b[i] {
				d++
			}
		}
		return d
	}
	var s float32
	for i := range a {
		d := a[i] - b[i]
		s += d * d
	}
	return s
}

func dot(a, b []float32) float32 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func normalized(q []float32) []float32 {
	n := float32(math.Sqrt(float64(dot(q, q))))
	out := make([]float32, len(q))
	if n == 0 {
		copy(out, q)
		return out
	}
	for i, v := range q {
		out[i] = v / n
	}
	return out
}
