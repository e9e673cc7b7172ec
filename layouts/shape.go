package layouts

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/codecs"
)

// shapeFor returns an empty block with the value shape Lance uses for an
// Arrow leaf type, for pages that store no values.
func shapeFor(dt arrow.DataType) (codecs.Block, error) {
	switch t := dt.(type) {
	case *arrow.BooleanType:
		return codecs.Block{Kind: codecs.KindFixed, BitsPerValue: 1}, nil
	case *arrow.NullType:
		return codecs.Block{Kind: codecs.KindFixed, BitsPerValue: 8}, nil
	case *arrow.StringType, *arrow.BinaryType:
		return codecs.Block{Kind: codecs.KindVariable, OffsetBits: 32, Offsets: make([]byte, 4)}, nil
	case *arrow.LargeStringType, *arrow.LargeBinaryType:
		return codecs.Block{Kind: codecs.KindVariable, OffsetBits: 64, Offsets: make([]byte, 8)}, nil
	case *arrow.DictionaryType: // before FixedWidthDataType, which it also is (its indices)
		return shapeFor(t.ValueType)
	case arrow.FixedWidthDataType:
		return codecs.Block{Kind: codecs.KindFixed, BitsPerValue: uint64(t.BitWidth())}, nil
	case *arrow.FixedSizeListType:
		inner, err := shapeFor(t.Elem())
		if err != nil {
			return inner, err
		}
		inner.FSL = append([]codecs.FSLLayer{{Dimension: uint64(t.Len())}}, inner.FSL...)
		return inner, nil
	case *arrow.StructType:
		b := codecs.Block{Kind: codecs.KindStruct}
		for _, f := range t.Fields() {
			c, err := shapeFor(f.Type)
			if err != nil {
				return b, err
			}
			b.Children = append(b.Children, c)
		}
		return b, nil
	}
	return codecs.Block{}, fmt.Errorf("%w: no value shape for %s", ErrUnsupported, dt)
}

// appendNulls adds n placeholder values shaped for leaf.
func appendNulls(vals *Values, n int, leaf arrow.DataType) error {
	if vals.Kind == 0 {
		if leaf == nil {
			return fmt.Errorf("%w: all-null page of unknown type", ErrUnsupported)
		}
		b, err := shapeFor(leaf)
		if err != nil {
			return err
		}
		vals.InitShape(&b)
	}
	vals.AppendEmpty(n)
	return nil
}
