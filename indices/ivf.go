package indices

import (
	"encoding/binary"
	"fmt"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// IVF is the lance.index.pb.IVF message: centroids and, per partition, the
// first row (v3 files; byte offset in legacy files) and row count.
type IVF struct {
	Centroids []float32 // num_partitions × Dim, row-major (float32 tensors, or uint8 widened for hamming)
	Dim       int
	Offsets   []uint64
	Lengths   []uint32
	Loss      float64
}

// NumPartitions is the partition count (from offsets, else centroids).
func (v *IVF) NumPartitions() int {
	if len(v.Lengths) > 0 {
		return len(v.Lengths)
	}
	if v.Dim > 0 {
		return len(v.Centroids) / v.Dim
	}
	return 0
}

// Tensor is the lance.index.pb.Tensor message.
type Tensor struct {
	DataType int // BFLOAT16=0, FLOAT16=1, FLOAT32=2, FLOAT64=3, UINT8=4, ...
	Shape    []uint32
	Data     []byte
}

// Float32s returns the tensor's values widened to float32 (FLOAT32,
// FLOAT64 and UINT8 tensors).
func (t *Tensor) Float32s() ([]float32, error) {
	switch t.DataType {
	case 2:
		if len(t.Data)%4 != 0 {
			return nil, fmt.Errorf("%w: float32 tensor of %d bytes", ErrCorrupt, len(t.Data))
		}
		out := make([]float32, len(t.Data)/4)
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(t.Data[4*i:]))
		}
		return out, nil
	case 3:
		if len(t.Data)%8 != 0 {
			return nil, fmt.Errorf("%w: float64 tensor of %d bytes", ErrCorrupt, len(t.Data))
		}
		out := make([]float32, len(t.Data)/8)
		for i := range out {
			out[i] = float32(math.Float64frombits(binary.LittleEndian.Uint64(t.Data[8*i:])))
		}
		return out, nil
	case 4:
		out := make([]float32, len(t.Data))
		for i, b := range t.Data {
			out[i] = float32(b)
		}
		return out, nil
	}
	return nil, fmt.Errorf("%w: tensor data type %d", ErrUnsupported, t.DataType)
}

// DecodeTensor decodes a lance.index.pb.Tensor message.
func DecodeTensor(b []byte) (*Tensor, error) {
	t := &Tensor{}
	err := eachField(b, func(num protowire.Number, typ protowire.Type, v []byte, x uint64) error {
		switch num {
		case 1:
			t.DataType = int(x)
		case 2:
			var s []int32
			if err := appendInt32s(&s, typ, v, x); err != nil {
				return err
			}
			for _, d := range s {
				t.Shape = append(t.Shape, uint32(d))
			}
		case 3:
			t.Data = v
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("tensor: %w", err)
	}
	return t, nil
}

// DecodeIVF decodes a lance.index.pb.IVF message and checks that its
// centroids tensor is [num_partitions, dim] and its offsets and lengths agree.
func DecodeIVF(b []byte) (*IVF, error) {
	v := &IVF{}
	err := eachField(b, func(num protowire.Number, typ protowire.Type, u []byte, x uint64) error {
		switch num {
		case 2:
			return appendUvarints(&v.Offsets, typ, u, x)
		case 3:
			var l []uint64
			if err := appendUvarints(&l, typ, u, x); err != nil {
				return err
			}
			for _, n := range l {
				v.Lengths = append(v.Lengths, uint32(n))
			}
		case 4:
			t, err := DecodeTensor(u)
			if err != nil {
				return err
			}
			if len(t.Shape) != 2 || t.Shape[1] == 0 {
				return fmt.Errorf("%w: centroids tensor of shape %v", ErrCorrupt, t.Shape)
			}
			c, err := t.Float32s()
			if err != nil {
				return err
			}
			if uint64(len(c)) != uint64(t.Shape[0])*uint64(t.Shape[1]) {
				return fmt.Errorf("%w: centroids tensor of shape %v holds %d values", ErrCorrupt, t.Shape, len(c))
			}
			v.Centroids, v.Dim = c, int(t.Shape[1])
		case 5:
			v.Loss = math.Float64frombits(x)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("ivf: %w", err)
	}
	if len(v.Offsets) != len(v.Lengths) {
		return nil, fmt.Errorf("%w: ivf has %d offsets and %d lengths", ErrCorrupt, len(v.Offsets), len(v.Lengths))
	}
	return v, nil
}

func appendUvarints(dst *[]uint64, typ protowire.Type, v []byte, x uint64) error {
	if typ == protowire.VarintType {
		*dst = append(*dst, x)
		return nil
	}
	for len(v) > 0 {
		u, n := protowire.ConsumeVarint(v)
		if n < 0 {
			return fmt.Errorf("%w: packed varint list", ErrCorrupt)
		}
		*dst = append(*dst, u)
		v = v[n:]
	}
	return nil
}
