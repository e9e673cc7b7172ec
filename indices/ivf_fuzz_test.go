package indices

import (
	"encoding/binary"
	"math"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// seedIVF is an IVF message with 2 partitions of dimension 2.
func seedIVF() []byte {
	var t []byte
	t = protowire.AppendTag(t, 1, protowire.VarintType)
	t = protowire.AppendVarint(t, 2)
	t = protowire.AppendTag(t, 2, protowire.BytesType)
	t = protowire.AppendBytes(t, []byte{2, 2})
	data := make([]byte, 0, 16)
	for _, v := range []float32{0, 1, 2, 3} {
		data = binary.LittleEndian.AppendUint32(data, math.Float32bits(v))
	}
	t = protowire.AppendTag(t, 3, protowire.BytesType)
	t = protowire.AppendBytes(t, data)
	var b []byte
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendBytes(b, []byte{0, 5})
	b = protowire.AppendTag(b, 3, protowire.BytesType)
	b = protowire.AppendBytes(b, []byte{5, 7})
	b = protowire.AppendTag(b, 4, protowire.BytesType)
	b = protowire.AppendBytes(b, t)
	return b
}

func FuzzDecodeIVF(f *testing.F) {
	f.Add(seedIVF())
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := DecodeIVF(b)
		if err != nil {
			return
		}
		if v.Dim > 0 && len(v.Centroids)%v.Dim != 0 {
			t.Fatalf("%d centroid values for dimension %d", len(v.Centroids), v.Dim)
		}
		_ = v.NumPartitions()
	})
}

// FuzzPQDistances checks that codes of any length for any row count are
// refused or scored, never read out of bounds.
func FuzzPQDistances(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8}, uint8(2), true, false)
	f.Add([]byte{0xff, 0x0f}, uint8(1), false, true)
	f.Fuzz(func(t *testing.T, codes []byte, rows uint8, transposed, fourBit bool) {
		pq := &PQ{NumBits: 8, NumSubVectors: 4, Dim: 8, Transposed: transposed}
		if fourBit {
			pq.NumBits = 4
		}
		pq.Codebook = make([]float32, (1<<pq.NumBits)*pq.Dim)
		q := make([]float32, 8)
		out := make([]Candidate, rows)
		_ = pq.distances(MetricL2, q, q, codes, int(rows), out)
		_ = pq.distances(MetricDot, q, q, codes, int(rows), out)
	})
}
