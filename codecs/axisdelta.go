package codecs

import (
	"encoding/binary"
	"fmt"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// Axis delta (Lance 2.3, seed "Axis delta"): a transform of fixed-size
// tensors of 8/16/32/64-bit little-endian integers. Each tensor of
// tensorElems elements is split into spans of axisLength·innerStride
// elements; a span's first innerStride elements are kept and every later
// element x[i] is stored as x[i] − x[i−innerStride] mod 2^bits. No state
// crosses tensors, so it is valid per value (also inside General, one frame
// per tensor).

// checkAxisDelta validates the shape parameters against a buffer.
func checkAxisDelta(n, elemBits, tensorElems, axisLength, innerStride int) error {
	switch elemBits {
	case 8, 16, 32, 64:
	default:
		return fmt.Errorf("%w: axis delta: element width %d", ErrCorrupt, elemBits)
	}
	if axisLength <= 0 || innerStride <= 0 || tensorElems <= 0 {
		return fmt.Errorf("%w: axis delta: axis_length %d, inner_stride %d, tensor of %d elements", ErrCorrupt, axisLength, innerStride, tensorElems)
	}
	span := axisLength * innerStride
	if span/axisLength != innerStride || tensorElems%span != 0 {
		return fmt.Errorf("%w: axis delta: span %d×%d does not divide a tensor of %d elements", ErrCorrupt, axisLength, innerStride, tensorElems)
	}
	tb := tensorElems * (elemBits / 8)
	if tb/tensorElems != elemBits/8 || n%tb != 0 {
		return fmt.Errorf("%w: axis delta: %d bytes are not whole tensors of %d elements", ErrCorrupt, n, tensorElems)
	}
	return nil
}

// AxisDeltaEncode appends the axis-delta transform of src (whole tensors)
// to dst.
func AxisDeltaEncode(dst, src []byte, elemBits, tensorElems, axisLength, innerStride int) ([]byte, error) {
	return axisDelta(dst, src, elemBits, tensorElems, axisLength, innerStride, false)
}

// AxisDeltaDecode appends the inverse transform of src to dst.
func AxisDeltaDecode(dst, src []byte, elemBits, tensorElems, axisLength, innerStride int) ([]byte, error) {
	return axisDelta(dst, src, elemBits, tensorElems, axisLength, innerStride, true)
}

func axisDelta(dst, src []byte, elemBits, tensorElems, axisLength, innerStride int, decode bool) ([]byte, error) {
	if err := checkAxisDelta(len(src), elemBits, tensorElems, axisLength, innerStride); err != nil {
		return dst, err
	}
	start := len(dst)
	dst = append(dst, src...)
	out := dst[start:]
	eb := elemBits / 8
	span := axisLength * innerStride
	for s := 0; s < len(src)/eb; s += span {
		// Encode reads originals from src; decode reads reconstructed values from out.
		for i := s + innerStride; i < s+span; i++ {
			prevSrc := src
			if decode {
				prevSrc = out
			}
			x := getElem(src, i, eb)
			p := getElem(prevSrc, i-innerStride, eb)
			if decode {
				putElem(out, i, eb, x+p)
			} else {
				putElem(out, i, eb, x-p)
			}
		}
	}
	return dst, nil
}

func getElem(b []byte, i, eb int) uint64 {
	switch eb {
	case 1:
		return uint64(b[i])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b[i*2:]))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b[i*4:]))
	}
	return binary.LittleEndian.Uint64(b[i*8:])
}

func putElem(b []byte, i, eb int, v uint64) {
	switch eb {
	case 1:
		b[i] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(b[i*2:], uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(b[i*4:], uint32(v))
	default:
		binary.LittleEndian.PutUint64(b[i*8:], v)
	}
}

// axisDeltaShape validates an AxisDelta descriptor (seed: it wraps a
// fixed-size-list chain, optionally nested, of plain 8/16/32/64-bit data
// without child validity) and returns the inner shape and the tensor
// size in elements.
func axisDeltaShape(a *pb.AxisDelta) (fslShape, uint64, error) {
	inner := a.GetValues()
	if inner.GetFixedSizeList() == nil {
		return fslShape{}, 0, fmt.Errorf("%w: axis delta: values are %s, want a fixed-size list", ErrCorrupt, Describe(inner))
	}
	s, err := parseFSL(inner)
	if err != nil {
		return s, 0, err
	}
	if s.numValidity() > 0 {
		return s, 0, fmt.Errorf("%w: axis delta: fixed-size list items with validity", ErrCorrupt)
	}
	al, st := a.GetAxisLength(), a.GetInnerStride()
	elems := s.cumDims[len(s.cumDims)-1]
	if al == 0 || st == 0 || al > elems || st > elems || elems%(al*st) != 0 {
		return s, 0, fmt.Errorf("%w: axis delta: axis_length %d × inner_stride %d does not divide a tensor of %d elements", ErrCorrupt, al, st, elems)
	}
	return s, elems, nil
}

// decodeAxisDeltaFixed decodes n zipped tensors (full-zip fixed values).
func decodeAxisDeltaFixed(a *pb.AxisDelta, data []byte, n uint64) (Block, error) {
	s, elems, err := axisDeltaShape(a)
	if err != nil {
		return Block{}, err
	}
	b, err := decodeFSLZipped(s, data, n)
	if err != nil {
		return Block{}, err
	}
	return undoAxisDelta(a, b, elems)
}

// decodeAxisDeltaPerValue decodes tensors stored one value each (inside
// General: one frame per tensor) into a fixed-size-list block.
func decodeAxisDeltaPerValue(a *pb.AxisDelta, in Block) (Block, error) {
	s, elems, err := axisDeltaShape(a)
	if err != nil {
		return Block{}, err
	}
	if err := checkVariable("axis delta", in); err != nil {
		return Block{}, err
	}
	tb := elems * s.itemBits / 8
	for i := uint64(0); i < in.NumValues; i++ {
		if l := uint64(len(valueAt(in, i))); l != tb {
			return Block{}, fmt.Errorf("%w: axis delta: value %d has %d bytes, a tensor %d", ErrCorrupt, i, l, tb)
		}
	}
	first := readUint(in.Offsets, 0, in.OffsetBits)
	b := Block{Kind: KindFixed, NumValues: in.NumValues, BitsPerValue: s.itemBits,
		Data: in.Data[first : first+in.NumValues*tb]}
	for _, d := range s.dims {
		b.FSL = append(b.FSL, FSLLayer{Dimension: d})
	}
	return undoAxisDelta(a, b, elems)
}

// undoAxisDelta reverses the transform on the items of b (a copy: b.Data
// may alias the file's bytes, which decoders never write).
func undoAxisDelta(a *pb.AxisDelta, b Block, elems uint64) (Block, error) {
	out, err := AxisDeltaDecode(make([]byte, 0, len(b.Data)), b.Data, int(b.BitsPerValue), int(elems),
		int(a.GetAxisLength()), int(a.GetInnerStride()))
	if err != nil {
		return Block{}, err
	}
	b.Data = out
	return b, nil
}
