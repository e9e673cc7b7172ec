package v20

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodingspb"
)

// prepare walks the encoding tree once and decodes whatever cannot be read
// in parts: compressed flat buffers, FSST symbol tables and dictionaries.
func (p *Page) prepare(enc *pb.ArrayEncoding, dt arrow.DataType, rows uint64, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("%w: encoding nested deeper than %d", ErrCorrupt, maxDepth)
	}
	switch e := enc.GetArrayEncoding().(type) {
	case *pb.ArrayEncoding_Flat:
		return p.prepareFlat(e.Flat)
	case *pb.ArrayEncoding_Nullable:
		switch n := e.Nullable.GetNullability().(type) {
		case *pb.Nullable_NoNulls:
			return p.prepare(n.NoNulls.GetValues(), dt, rows, depth+1)
		case *pb.Nullable_SomeNulls:
			if err := p.prepare(n.SomeNulls.GetValidity(), arrow.FixedWidthTypes.Boolean, rows, depth+1); err != nil {
				return err
			}
			return p.prepare(n.SomeNulls.GetValues(), dt, rows, depth+1)
		case *pb.Nullable_AllNulls:
			return nil
		}
		return fmt.Errorf("%w: nullable encoding without a nullability", ErrCorrupt)
	case *pb.ArrayEncoding_FixedSizeList:
		elem, dim, err := fslShape(e.FixedSizeList, dt)
		if err != nil {
			return err
		}
		items, ok := mulOK(rows, dim)
		if !ok || items > maxRows {
			return fmt.Errorf("%w: %d rows of dimension %d", ErrCorrupt, rows, dim)
		}
		return p.prepare(e.FixedSizeList.GetItems(), elem, items, depth+1)
	case *pb.ArrayEncoding_Binary:
		if err := p.prepare(e.Binary.GetIndices(), arrow.PrimitiveTypes.Uint64, rows, depth+1); err != nil {
			return err
		}
		f := e.Binary.GetBytes().GetFlat()
		if f == nil {
			return fmt.Errorf("%w: binary bytes encoded as %T", ErrUnsupported, e.Binary.GetBytes().GetArrayEncoding())
		}
		return p.prepareFlat(f)
	case *pb.ArrayEncoding_Fsst:
		return p.prepareFSST(e.Fsst, dt, rows, depth)
	case *pb.ArrayEncoding_Dictionary:
		return p.prepareDictionary(e.Dictionary, dt, rows, depth)
	case *pb.ArrayEncoding_FixedSizeBinary:
		f := e.FixedSizeBinary.GetBytes().GetFlat()
		if f == nil {
			return fmt.Errorf("%w: fixed-size binary bytes encoded as %T", ErrUnsupported, e.FixedSizeBinary.GetBytes().GetArrayEncoding())
		}
		return p.prepareFlat(f)
	case *pb.ArrayEncoding_PackedStruct, *pb.ArrayEncoding_Constant:
		return nil
	case *pb.ArrayEncoding_Bitpacked:
		return p.prepareBitpacked(e.Bitpacked, rows)
	case *pb.ArrayEncoding_BitpackedForNonNeg:
		return p.prepareFastLanes(e.BitpackedForNonNeg, rows)
	}
	return errUnknown(enc)
}

// prepareFlat decompresses a compressed flat buffer.
func (p *Page) prepareFlat(f *pb.Flat) error {
	buf, err := p.buffer(f.GetBuffer())
	if err != nil {
		return err
	}
	scheme := f.GetCompression().GetScheme()
	if scheme == "" || scheme == "none" {
		return nil
	}
	var out []byte
	switch scheme {
	case "zstd":
		var d codecs.Decompressor
		defer d.Close()
		out, err = d.DecompressZstd(nil, buf)
	case "lz4":
		out, err = codecs.DecompressLZ4(nil, buf)
	default:
		return fmt.Errorf("%w: flat buffer compressed with %q", ErrUnsupported, scheme)
	}
	if err != nil {
		return fmt.Errorf("%w: flat buffer (%s): %v", ErrCorrupt, scheme, err)
	}
	p.keep(f, out)
	p.size += int64(len(out))
	return nil
}

// prepareFSST parses the symbol table.
func (p *Page) prepareFSST(f *pb.Fsst, dt arrow.DataType, rows uint64, depth int) error {
	t, err := codecs.ParseFSSTTable(f.GetSymbolTable())
	if err != nil {
		return fmt.Errorf("%w: fsst symbol table: %v", ErrCorrupt, err)
	}
	p.keep(f, t)
	return p.prepare(f.GetBinary(), dt, rows, depth+1)
}

// prepareDictionary decodes the dictionary items whole.
func (p *Page) prepareDictionary(d *pb.Dictionary, dt arrow.DataType, rows uint64, depth int) error {
	vt := dt
	if t, ok := dt.(*arrow.DictionaryType); ok {
		vt = t.ValueType
	}
	n := uint64(d.GetNumDictionaryItems())
	if err := p.prepare(d.GetIndices(), arrow.PrimitiveTypes.Uint64, rows, depth+1); err != nil {
		return err
	}
	if err := p.prepare(d.GetItems(), vt, n, depth+1); err != nil {
		return err
	}
	b, v, err := p.decode(d.GetItems(), vt, n, 0, n, depth+1)
	if err != nil {
		return fmt.Errorf("dictionary items: %w", err)
	}
	p.keep(d, Decoded{Block: b, Validity: v})
	p.size += int64(len(b.Data) + len(b.Offsets))
	return nil
}

// fslShape checks a fixed-size list encoding against its Arrow type.
func fslShape(f *pb.FixedSizeList, dt arrow.DataType) (arrow.DataType, uint64, error) {
	t, ok := dt.(*arrow.FixedSizeListType)
	if !ok {
		return nil, 0, fmt.Errorf("%w: fixed-size list encoding for %s", ErrCorrupt, dt)
	}
	if f.GetDimension() == 0 || f.GetDimension() > maxValueBits || int64(f.GetDimension()) != int64(t.Len()) {
		return nil, 0, fmt.Errorf("%w: fixed-size list dimension %d for %s", ErrCorrupt, f.GetDimension(), dt)
	}
	return t.Elem(), uint64(f.GetDimension()), nil
}

// mulOK returns a*b and whether it did not overflow.
func mulOK(a, b uint64) (uint64, bool) {
	if a != 0 && b > ^uint64(0)/a {
		return 0, false
	}
	return a * b, true
}
