package layouts

import (
	"fmt"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	pb23 "github.com/lancego/lancego/format/pb/encodings23pb"
	"github.com/lancego/lancego/internal/lerr"
)

// Writing 2.3: a dense planar page keeps the 2.2 physical grammars, so the
// writer encodes a 2.2 page (mini-block with u32 chunk words, full-zip,
// inline constant) and DensePlanar re-describes it as a PlanarLayout with
// the same buffers; it is the inverse of DenseAsPageLayout. Pages the dense
// structure cannot describe (nullable constants, pages without values but
// with levels) are written sparse (planar_sparse_encode.go).

// DensePlanar returns the dense PlanarLayout that describes the buffers of
// the 2.2 page l. Layouts 2.3 has no dense form for give an error wrapping
// lerr.ErrUnsupportedType.
func DensePlanar(l *pb.PageLayout) (*pb23.PlanarLayout, error) {
	switch v := l.GetLayout().(type) {
	case *pb.PageLayout_MiniBlockLayout:
		return denseChunkedPlanar(v.MiniBlockLayout)
	case *pb.PageLayout_FullZipLayout:
		return denseZippedPlanar(v.FullZipLayout), nil
	case *pb.PageLayout_ConstantLayout:
		c := v.ConstantLayout
		s := c.GetInlineValue()
		if len(s) == 0 || len(s) > 32 || !allValid(c.GetLayers()) || c.GetRepCompression() != nil || c.GetDefCompression() != nil {
			return nil, fmt.Errorf("%w: 2.3: constant page with levels or a value of %d bytes has no dense form", lerr.ErrUnsupportedType, len(s))
		}
		return densePlanar(c.GetLayers(), &pb23.ValuePlane{Codec: &pb23.ValuePlane_Constant{
			Constant: &pb23.ConstantValue{Scalar: s}}}), nil
	case *pb.PageLayout_BlobLayout:
		return nil, fmt.Errorf("%w: 2.3: blob v1 pages are not part of 2.3", lerr.ErrUnsupportedType)
	}
	return nil, fmt.Errorf("%w: 2.3: page layout %T has no planar form", lerr.ErrUnsupportedType, l.GetLayout())
}

func densePlanar(layers []pb.RepDefLayer, values *pb23.ValuePlane) *pb23.PlanarLayout {
	return &pb23.PlanarLayout{
		Structure: &pb23.StructuralPlane{Codec: &pb23.StructuralPlane_Dense{Dense: &pb23.DenseStructure{Layers: layers}}},
		Values:    values,
	}
}

func denseChunkedPlanar(m *pb.MiniBlockLayout) (*pb23.PlanarLayout, error) {
	if !m.GetHasLargeChunk() {
		return nil, fmt.Errorf("%w: 2.3: mini-block page without u32 chunk words", lerr.ErrUnsupportedType)
	}
	c := &pb23.ChunkedValues{
		Compression: m.GetValueCompression(),
		Levels: &pb23.DenseChunkLevels{Repetition: m.GetRepCompression(), Definition: m.GetDefCompression(),
			RepetitionIndexDepth: m.GetRepetitionIndexDepth()},
		Dictionary:         m.GetDictionary(),
		NumDictionaryItems: m.GetNumDictionaryItems(),
		NumBuffers:         m.GetNumBuffers(),
		NumItems:           m.GetNumItems(),
	}
	return densePlanar(m.GetLayers(), &pb23.ValuePlane{Codec: &pb23.ValuePlane_Chunked{Chunked: c}}), nil
}

func denseZippedPlanar(f *pb.FullZipLayout) *pb23.PlanarLayout {
	z := &pb23.ZippedValues{
		Compression:     f.GetValueCompression(),
		Levels:          &pb23.DenseZipLevels{BitsRepetition: f.GetBitsRep(), BitsDefinition: f.GetBitsDef()},
		NumItems:        uint64(f.GetNumItems()),
		NumVisibleItems: uint64(f.GetNumVisibleItems()),
	}
	switch d := f.GetDetails().(type) {
	case *pb.FullZipLayout_BitsPerValue:
		z.Addressing = &pb23.ZippedValues_BitsPerValue{BitsPerValue: d.BitsPerValue}
	case *pb.FullZipLayout_BitsPerOffset:
		z.Addressing = &pb23.ZippedValues_BitsPerOffset{BitsPerOffset: d.BitsPerOffset}
	}
	return densePlanar(f.GetLayers(), &pb23.ValuePlane{Codec: &pb23.ValuePlane_Zipped{Zipped: z}})
}
