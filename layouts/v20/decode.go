package v20

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodingspb"
	"github.com/lancego/lancego/layouts"
)

// maxValueBits bounds the width of one flat value (a fixed-size binary of
// 8 KiB); wider values are refused rather than multiplied into overflow.
const maxValueBits = 1 << 16

// decode returns values [from, to) of a page of rows values encoded as
// enc, with their validity (nil when all are valid).
func (p *Page) decode(enc *pb.ArrayEncoding, dt arrow.DataType, rows, from, to uint64, depth int) (codecs.Block, []byte, error) {
	if depth > maxDepth {
		return codecs.Block{}, nil, fmt.Errorf("%w: encoding nested deeper than %d", ErrCorrupt, maxDepth)
	}
	switch e := enc.GetArrayEncoding().(type) {
	case *pb.ArrayEncoding_Flat:
		b, err := p.decodeFlat(e.Flat, from, to)
		return b, nil, err
	case *pb.ArrayEncoding_Nullable:
		return p.decodeNullable(e.Nullable, dt, rows, from, to, depth)
	case *pb.ArrayEncoding_FixedSizeList:
		return p.decodeFSL(e.FixedSizeList, dt, rows, from, to, depth)
	case *pb.ArrayEncoding_Binary:
		return p.decodeBinary(e.Binary, rows, from, to, depth)
	case *pb.ArrayEncoding_Fsst:
		return p.decodeFSST(e.Fsst, dt, rows, from, to, depth)
	case *pb.ArrayEncoding_Dictionary:
		return p.decodeDictionary(e.Dictionary, dt, rows, from, to, depth)
	case *pb.ArrayEncoding_FixedSizeBinary:
		b, err := p.decodeFixedSizeBinary(e.FixedSizeBinary, from, to)
		return b, nil, err
	case *pb.ArrayEncoding_PackedStruct:
		b, err := p.decodePackedStruct(e.PackedStruct, dt, from, to)
		return b, nil, err
	case *pb.ArrayEncoding_Constant:
		b, err := decodeConstant(e.Constant, dt, from, to)
		return b, nil, err
	case *pb.ArrayEncoding_Bitpacked, *pb.ArrayEncoding_BitpackedForNonNeg:
		b, err := p.decodeUnpacked(enc, from, to)
		return b, nil, err
	}
	return codecs.Block{}, nil, errUnknown(enc)
}

// flatBytes returns the (decompressed) bytes of a flat buffer.
func (p *Page) flatBytes(f *pb.Flat) ([]byte, error) {
	if b, ok := p.prepared[f].([]byte); ok {
		return b, nil
	}
	if s := f.GetCompression().GetScheme(); s != "" && s != "none" {
		return nil, fmt.Errorf("%w: flat buffer compressed with %q was not prepared", ErrCorrupt, s)
	}
	return p.buffer(f.GetBuffer())
}

// decodeFlat slices values [from, to) out of a flat buffer: a bitmap when
// bits_per_value is 1, else whole bytes per value.
func (p *Page) decodeFlat(f *pb.Flat, from, to uint64) (codecs.Block, error) {
	buf, err := p.flatBytes(f)
	if err != nil {
		return codecs.Block{}, err
	}
	bits := f.GetBitsPerValue()
	n := to - from
	switch {
	case bits == 1:
		if uint64(len(buf))*8 < to {
			return codecs.Block{}, fmt.Errorf("%w: bitmap of %d bytes for %d values", ErrCorrupt, len(buf), to)
		}
		return codecs.Block{Kind: codecs.KindFixed, NumValues: n, BitsPerValue: 1, Data: sliceBits(buf, from, n)}, nil
	case bits == 0 || bits%8 != 0 || bits > maxValueBits:
		return codecs.Block{}, fmt.Errorf("%w: flat values of %d bits", ErrUnsupported, bits)
	}
	w := bits / 8
	if uint64(len(buf))/w < to {
		return codecs.Block{}, fmt.Errorf("%w: flat buffer of %d bytes for %d values of %d bits", ErrCorrupt, len(buf), to, bits)
	}
	return codecs.Block{Kind: codecs.KindFixed, NumValues: n, BitsPerValue: bits, Data: buf[from*w : to*w : to*w]}, nil
}

// decodeNullable applies a nullable wrapper.
func (p *Page) decodeNullable(nl *pb.Nullable, dt arrow.DataType, rows, from, to uint64, depth int) (codecs.Block, []byte, error) {
	switch n := nl.GetNullability().(type) {
	case *pb.Nullable_NoNulls:
		return p.decode(n.NoNulls.GetValues(), dt, rows, from, to, depth+1)
	case *pb.Nullable_AllNulls:
		b, err := placeholders(dt, to-from)
		return b, make([]byte, (to-from+7)/8), err
	case *pb.Nullable_SomeNulls:
		vb, _, err := p.decode(n.SomeNulls.GetValidity(), arrow.FixedWidthTypes.Boolean, rows, from, to, depth+1)
		if err != nil {
			return codecs.Block{}, nil, fmt.Errorf("validity: %w", err)
		}
		if vb.Kind != codecs.KindFixed || vb.BitsPerValue != 1 || vb.NumValues != to-from {
			return codecs.Block{}, nil, fmt.Errorf("%w: validity is not a bitmap", ErrCorrupt)
		}
		b, inner, err := p.decode(n.SomeNulls.GetValues(), dt, rows, from, to, depth+1)
		if err != nil {
			return codecs.Block{}, nil, err
		}
		valid := vb.Data
		if inner != nil { // never written by Lance, but both must hold
			valid = andBits(valid, inner, to-from)
		}
		return b, valid, nil
	}
	return codecs.Block{}, nil, fmt.Errorf("%w: nullable encoding without a nullability", ErrCorrupt)
}

// placeholders returns n empty values shaped for dt (for all-null pages).
func placeholders(dt arrow.DataType, n uint64) (codecs.Block, error) {
	shape, err := layouts.ShapeFor(dt)
	if err != nil {
		return codecs.Block{}, err
	}
	var v layouts.Values
	v.InitShape(&shape)
	v.AppendEmpty(int(n))
	return v.Block(), nil
}

// decodeFSL reads the items of rows [from, to) and adds the list layer.
func (p *Page) decodeFSL(f *pb.FixedSizeList, dt arrow.DataType, rows, from, to uint64, depth int) (codecs.Block, []byte, error) {
	elem, dim, err := fslShape(f, dt)
	if err != nil {
		return codecs.Block{}, nil, err
	}
	items, _ := mulOK(rows, dim) // checked by prepare
	b, valid, err := p.decode(f.GetItems(), elem, items, from*dim, to*dim, depth+1)
	if err != nil {
		return codecs.Block{}, nil, err
	}
	if b.Kind != codecs.KindFixed {
		return codecs.Block{}, nil, fmt.Errorf("%w: fixed-size list of variable-width items", ErrUnsupported)
	}
	b.FSL = append([]codecs.FSLLayer{{Dimension: dim, Validity: valid}}, b.FSL...)
	b.NumValues = to - from
	return b, nil, nil
}

// decodeConstant repeats a fixed-width value.
func decodeConstant(c *pb.Constant, dt arrow.DataType, from, to uint64) (codecs.Block, error) {
	fw, ok := dt.(arrow.FixedWidthDataType)
	if !ok || fw.BitWidth()%8 != 0 || len(c.GetValue()) != fw.BitWidth()/8 {
		return codecs.Block{}, fmt.Errorf("%w: constant of %d bytes for %s", ErrUnsupported, len(c.GetValue()), dt)
	}
	n := to - from
	data := make([]byte, 0, n*uint64(len(c.GetValue())))
	for range n {
		data = append(data, c.GetValue()...)
	}
	return codecs.Block{Kind: codecs.KindFixed, NumValues: n, BitsPerValue: uint64(fw.BitWidth()), Data: data}, nil
}

// uintAt reads value i of a fixed-width block of 8..64-bit integers.
func uintAt(b *codecs.Block, i uint64) uint64 {
	switch b.BitsPerValue {
	case 8:
		return uint64(b.Data[i])
	case 16:
		return uint64(binary.LittleEndian.Uint16(b.Data[2*i:]))
	case 32:
		return uint64(binary.LittleEndian.Uint32(b.Data[4*i:]))
	}
	return binary.LittleEndian.Uint64(b.Data[8*i:])
}

// checkUints verifies a block holds n integers uintAt can read.
func checkUints(b *codecs.Block, n uint64, what string) error {
	switch b.BitsPerValue {
	case 8, 16, 32, 64:
	default:
		return fmt.Errorf("%w: %s of %d bits", ErrCorrupt, what, b.BitsPerValue)
	}
	if b.Kind != codecs.KindFixed || len(b.FSL) > 0 || b.NumValues != n || uint64(len(b.Data)) < n*(b.BitsPerValue/8) {
		return fmt.Errorf("%w: %s are not %d integers", ErrCorrupt, what, n)
	}
	return nil
}
