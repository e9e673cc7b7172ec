package indices

// Encoding rows into a trained IVF model and writing the segment's two
// files as Lance 14.0.2 writes them (indices.md §3.2–3.7): index.idx, an
// empty FLAT sub-index whose global buffer 1 is the IVF message with the
// centroids, and auxiliary.idx, the storage (row ids and vectors or
// codes, partitions contiguous in partition order, PQ codes transposed
// per partition) whose global buffer 1 is the IVF message of row ranges
// and, for PQ, buffer 2 the codebook.

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/lancego/lancego/indices/kmeans"
)

// VectorIndexDetailsTypeURL is the type URL of a vector index's details.
const VectorIndexDetailsTypeURL = "/lance.index.pb.VectorIndexDetails"

// VectorEncoder assigns rows to the model's partitions and keeps each
// partition's row ids and stored vectors or codes until Write.
type VectorEncoder struct {
	m     *VectorModel
	width int // stored bytes per row
	ids   [][]uint64
	data  [][]byte
}

// NewEncoder starts encoding rows into m.
func (m *VectorModel) NewEncoder() *VectorEncoder {
	e := &VectorEncoder{m: m, ids: make([][]uint64, m.Params.NumPartitions), data: make([][]byte, m.Params.NumPartitions)}
	switch m.Params.Type {
	case TypeIVFPQ:
		e.width = m.PQ.CodeBytes()
	case TypeIVFSQ:
		e.width = m.Dim
	default:
		e.width = 4 * m.Dim
	}
	return e
}

// Rows is the rows encoded so far.
func (e *VectorEncoder) Rows() int {
	n := 0
	for _, ids := range e.ids {
		n += len(ids)
	}
	return n
}

// Add encodes rows (len(ids) rows of the model's dimension) with the ids
// the index stores for them. rows may be modified.
func (e *VectorEncoder) Add(ctx context.Context, rows []float32, ids []uint64) error {
	m := e.m
	dim := m.Dim
	if len(rows) != len(ids)*dim {
		return fmt.Errorf("%w: %d values for %d rows of dimension %d", ErrInvalidQuery, len(rows), len(ids), dim)
	}
	if len(ids) == 0 {
		return nil
	}
	if m.Params.Metric == MetricCosine {
		normaliseRows(rows, dim)
	}
	n := len(ids)
	member := make([]uint32, n)
	dist := make([]float32, n)
	if err := kmeans.Assign(ctx, rows, dim, m.Centroids, trainMetric(m.Params.Metric), m.Params.Workers, member, dist); err != nil {
		return err
	}
	var codes []byte
	switch m.Params.Type {
	case TypeIVFPQ:
		var err error
		if codes, err = m.encodePQ(ctx, rows, member); err != nil {
			return err
		}
	case TypeIVFSQ:
		codes = make([]byte, n*dim)
		m.SQ.quantizeInto(codes, rows)
	default:
		codes = make([]byte, 4*len(rows))
		for i, v := range rows {
			binary.LittleEndian.PutUint32(codes[4*i:], math.Float32bits(v))
		}
	}
	for r, p := range member {
		e.ids[p] = append(e.ids[p], ids[r])
		e.data[p] = append(e.data[p], codes[r*e.width:(r+1)*e.width]...)
	}
	return nil
}

// encodePQ returns each row's PQ code (sub-vector 2i in the low nibble of
// byte i for 4 bits): per sub-vector, the nearest sub-centroid (squared
// L2) of the row's residual (raw row for dot).
func (m *VectorModel) encodePQ(ctx context.Context, rows []float32, member []uint32) ([]byte, error) {
	pq, dim := m.PQ, m.Dim
	n := len(member)
	in := rows
	if m.Params.Metric != MetricDot {
		in = make([]float32, len(rows))
		residuals(in, rows, m.Centroids, member, dim)
	}
	M, k := pq.NumSubVectors, 1<<pq.NumBits
	sub := dim / M
	codes := make([]byte, n*pq.CodeBytes())
	part := make([]float32, n*sub)
	near := make([]uint32, n)
	dist := make([]float32, n)
	for s := 0; s < M; s++ {
		for r := 0; r < n; r++ {
			copy(part[r*sub:(r+1)*sub], in[r*dim+s*sub:r*dim+(s+1)*sub])
		}
		book := pq.Codebook[s*k*sub : (s+1)*k*sub]
		if err := kmeans.Assign(ctx, part, sub, book, kmeans.L2, m.Params.Workers, near, dist); err != nil {
			return nil, err
		}
		for r, c := range near {
			if pq.NumBits == 8 {
				codes[r*M+s] = byte(c)
			} else {
				codes[r*(M/2)+s/2] |= byte(c) << (4 * (s % 2))
			}
		}
	}
	return codes, nil
}

// quantizeInto writes Quantize's codes of rows into dst.
func (sq *SQ) quantizeInto(dst []byte, rows []float32) {
	scale := 255 / (sq.End - sq.Start)
	for i, x := range rows {
		c := math.Floor((float64(x) - sq.Start) * scale)
		dst[i] = byte(math.Max(0, math.Min(255, c)))
	}
}

// Write writes index.idx and auxiliary.idx through sink and returns them.
func (e *VectorEncoder) Write(ctx context.Context, sink FileSink, mem memory.Allocator) ([]IndexFile, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	m := e.m
	k := m.Params.NumPartitions
	offsets, lengths := make([]uint64, k), make([]uint32, k)
	var at uint64
	for p := range e.ids {
		offsets[p], lengths[p] = at, uint32(len(e.ids[p]))
		at += uint64(len(e.ids[p]))
	}
	aux, err := e.writeStorage(ctx, sink, mem, offsets, lengths)
	if err != nil {
		return nil, err
	}
	idx, err := m.writeIndexFile(ctx, sink)
	if err != nil {
		return nil, err
	}
	return []IndexFile{aux, idx}, nil
}

func (e *VectorEncoder) writeStorage(ctx context.Context, sink FileSink, mem memory.Allocator, offsets []uint64, lengths []uint32) (IndexFile, error) {
	m := e.m
	var col string
	var item arrow.DataType = arrow.PrimitiveTypes.Uint8
	var storage map[string]any
	nullable := true
	switch m.Params.Type {
	case TypeIVFPQ:
		col = pqCodeColumn
		storage = map[string]any{"codebook_position": 2, "nbits": m.PQ.NumBits, "num_sub_vectors": m.PQ.NumSubVectors,
			"dimension": m.Dim, "codebook_tensor": []int{}, "transposed": true}
	case TypeIVFSQ:
		col = sqCodeColumn
		storage = map[string]any{"dim": m.Dim, "num_bits": 8, "bounds": map[string]float64{"start": m.SQ.Start, "end": m.SQ.End}}
	default:
		col, item, nullable = "flat", arrow.PrimitiveTypes.Float32, false
		storage = map[string]any{"dim": m.Dim}
	}
	sm, err := json.Marshal(newOrdered(storage))
	if err != nil {
		return IndexFile{}, err
	}
	list, _ := json.Marshal([]string{string(sm)})
	listLen := e.width
	if m.Params.Type == TypeIVFFlat {
		listLen = m.Dim
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "_rowid", Type: arrow.PrimitiveTypes.Uint64, Nullable: true},
		{Name: col, Type: arrow.FixedSizeListOf(int32(listLen), item), Nullable: nullable},
	}, metadataOf("lance:ivf", "1", "storage_metadata", string(list), "distance_type", m.Params.Metric.String()))
	globals := [][]byte{encodeIVF(offsets, lengths, nil, 0, 0)}
	if m.PQ != nil {
		globals = append(globals, encodeTensor(2, []uint32{uint32(1 << m.PQ.NumBits), uint32(m.Dim)}, float32Bytes(m.PQ.Codebook)))
	}
	var recs []arrow.RecordBatch
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	for p := range e.ids {
		if len(e.ids[p]) == 0 {
			continue
		}
		data := e.data[p]
		if m.Params.Type == TypeIVFPQ {
			data = transposeCodes(data, len(e.ids[p]), e.width)
		}
		recs = append(recs, storageBatch(mem, schema, e.ids[p], data, listLen, item))
		e.data[p] = nil // the batch holds the bytes now
	}
	size, err := sink.WriteFile(ctx, "auxiliary.idx", schema, recs, globals)
	if err != nil {
		return IndexFile{}, fmt.Errorf("index file auxiliary.idx: %w", err)
	}
	return IndexFile{Path: "auxiliary.idx", Size: size}, nil
}

// storageBatch wraps a partition's ids and stored bytes as a record batch
// without copying them.
func storageBatch(mem memory.Allocator, schema *arrow.Schema, ids []uint64, data []byte, listLen int, item arrow.DataType) arrow.RecordBatch {
	n := len(ids)
	idArr := array.NewUint64Data(array.NewData(arrow.PrimitiveTypes.Uint64, n,
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Uint64Traits.CastToBytes(ids))}, nil, 0, 0))
	defer idArr.Release()
	child := array.NewData(item, n*listLen, []*memory.Buffer{nil, memory.NewBufferBytes(data)}, nil, 0, 0)
	defer child.Release()
	list := array.NewFixedSizeListData(array.NewData(schema.Field(1).Type, n, []*memory.Buffer{nil}, []arrow.ArrayData{child}, 0, 0))
	defer list.Release()
	return array.NewRecordBatch(schema, []arrow.Array{idArr, list}, int64(n))
}

// transposeCodes lays a partition's n codes of w bytes column-major: byte
// b of row r at b·n + r.
func transposeCodes(codes []byte, n, w int) []byte {
	out := make([]byte, len(codes))
	for r := 0; r < n; r++ {
		for b := 0; b < w; b++ {
			out[b*n+r] = codes[r*w+b]
		}
	}
	return out
}

func (m *VectorModel) writeIndexFile(ctx context.Context, sink FileSink) (IndexFile, error) {
	k := m.Params.NumPartitions
	flat, _ := json.Marshal(make([]string, k))
	// {"type":..,"distance_type":..} in pylance's key order.
	kind := []byte(fmt.Sprintf(`{"type":%q,"distance_type":%q}`, m.Params.Type, m.Params.Metric.String()))
	schema := arrow.NewSchema([]arrow.Field{{Name: "__flat_marker", Type: arrow.PrimitiveTypes.Uint64}},
		metadataOf("lance:ivf", "1", "lance:index", string(kind), "lance:flat", string(flat)))
	ivf := encodeIVF(make([]uint64, k), make([]uint32, k), float32Bytes(m.Centroids), m.Dim, m.Loss)
	size, err := sink.WriteFile(ctx, "index.idx", schema, nil, [][]byte{ivf})
	if err != nil {
		return IndexFile{}, fmt.Errorf("index file index.idx: %w", err)
	}
	return IndexFile{Path: "index.idx", Size: size}, nil
}

// encodeIVF encodes a lance.index.pb.IVF message: offsets (2) and
// lengths (3) packed, then, when centroids are given, the centroids
// tensor (4) and the loss (5).
func encodeIVF(offsets []uint64, lengths []uint32, centroids []byte, dim int, loss float64) []byte {
	var packed []byte
	for _, o := range offsets {
		packed = protowire.AppendVarint(packed, o)
	}
	b := protowire.AppendTag(nil, 2, protowire.BytesType)
	b = protowire.AppendBytes(b, packed)
	packed = packed[:0]
	for _, l := range lengths {
		packed = protowire.AppendVarint(packed, uint64(l))
	}
	b = protowire.AppendTag(b, 3, protowire.BytesType)
	b = protowire.AppendBytes(b, packed)
	if centroids != nil {
		t := encodeTensor(2, []uint32{uint32(len(lengths)), uint32(dim)}, centroids)
		b = protowire.AppendTag(b, 4, protowire.BytesType)
		b = protowire.AppendBytes(b, t)
		b = protowire.AppendTag(b, 5, protowire.Fixed64Type)
		b = protowire.AppendFixed64(b, math.Float64bits(loss))
	}
	return b
}

// encodeTensor encodes a lance.index.pb.Tensor (data_type 2 = FLOAT32).
func encodeTensor(dataType int, shape []uint32, data []byte) []byte {
	var b []byte
	if dataType != 0 {
		b = protowire.AppendTag(b, 1, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(dataType))
	}
	var packed []byte
	for _, s := range shape {
		packed = protowire.AppendVarint(packed, uint64(s))
	}
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendBytes(b, packed)
	b = protowire.AppendTag(b, 3, protowire.BytesType)
	return protowire.AppendBytes(b, data)
}

func float32Bytes(v []float32) []byte {
	out := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(out[4*i:], math.Float32bits(x))
	}
	return out
}

// VectorDetails encodes the VectorIndexDetails of an index of p: the
// metric (absent for l2), the compression and Lance's runtime hints.
func (p *VectorBuildParams) Details() []byte {
	var b []byte
	if p.Metric != MetricL2 {
		b = protowire.AppendTag(b, 1, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(p.Metric))
	}
	hints := map[string]string{
		"lance.ivf.sample_rate":                   fmt.Sprint(p.SampleRate),
		"lance.ivf.max_iters":                     fmt.Sprint(p.MaxIters),
		"lance.skip_transpose":                    "false",
		"lance.ivf.shuffle_partition_batches":     "10240",
		"lance.ivf.shuffle_partition_concurrency": "2",
	}
	switch p.Type {
	case TypeIVFPQ:
		var pq []byte
		pq = protowire.AppendTag(pq, 1, protowire.VarintType)
		pq = protowire.AppendVarint(pq, uint64(p.NumBits))
		pq = protowire.AppendTag(pq, 2, protowire.VarintType)
		pq = protowire.AppendVarint(pq, uint64(p.NumSubVectors))
		b = protowire.AppendTag(b, 4, protowire.BytesType)
		b = protowire.AppendBytes(b, pq)
		hints["lance.pq.max_iters"] = fmt.Sprint(p.MaxIters)
		hints["lance.pq.sample_rate"] = fmt.Sprint(p.SampleRate)
		hints["lance.pq.kmeans_redos"] = "1"
	case TypeIVFSQ:
		var sq []byte
		sq = protowire.AppendTag(sq, 1, protowire.VarintType)
		sq = protowire.AppendVarint(sq, 8)
		b = protowire.AppendTag(b, 5, protowire.BytesType)
		b = protowire.AppendBytes(b, sq)
		hints["lance.sq.sample_rate"] = fmt.Sprint(p.SampleRate)
	default:
		b = protowire.AppendTag(b, 8, protowire.BytesType)
		b = protowire.AppendBytes(b, nil)
	}
	keys := make([]string, 0, len(hints))
	for k := range hints {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		var e []byte
		e = protowire.AppendTag(e, 1, protowire.BytesType)
		e = protowire.AppendString(e, k)
		e = protowire.AppendTag(e, 2, protowire.BytesType)
		e = protowire.AppendString(e, hints[k])
		b = protowire.AppendTag(b, 9, protowire.BytesType)
		b = protowire.AppendBytes(b, e)
	}
	return b
}

// storageKeyOrder is the key order of pylance's storage_metadata JSON.
var storageKeyOrder = []string{"codebook_position", "nbits", "num_sub_vectors", "dimension", "codebook_tensor", "transposed", "dim", "num_bits", "bounds", "start", "end"}

// orderedJSON is a JSON object whose keys are written in a fixed order.
type orderedJSON struct {
	m     map[string]any
	order []string
}

func newOrdered(m map[string]any) orderedJSON { return orderedJSON{m, storageKeyOrder} }

func (o orderedJSON) MarshalJSON() ([]byte, error) {
	var sb strings.Builder
	sb.WriteByte('{')
	first := true
	for _, k := range o.order {
		v, ok := o.m[k]
		if !ok {
			continue
		}
		if !first {
			sb.WriteByte(',')
		}
		first = false
		kb, _ := json.Marshal(k)
		sb.Write(kb)
		sb.WriteByte(':')
		if sub, ok := v.(map[string]float64); ok {
			vb, err := json.Marshal(newOrdered(map[string]any{"start": sub["start"], "end": sub["end"]}))
			if err != nil {
				return nil, err
			}
			sb.Write(vb)
			continue
		}
		vb, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		sb.Write(vb)
	}
	sb.WriteByte('}')
	return []byte(sb.String()), nil
}
