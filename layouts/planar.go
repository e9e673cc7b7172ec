package layouts

import (
	"fmt"
	"math"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	pb23 "github.com/lancego/lancego/format/pb/encodings23pb"
)

// Lance 2.3 pages are PlanarLayouts: a structural plane (dense rep/def
// levels or sparse position sets) and a value plane (chunked, zipped,
// constant, none, indexed). A dense page keeps the 2.2 physical grammars
// (u32 mini-block with large-chunk words, full-zip, constant), so it is
// read as the equivalent 2.2 PageLayout; a sparse page is a SparsePage.

// DenseAsPageLayout returns the 2.2 PageLayout that reads a dense planar
// page exactly: chunked values become a mini-block layout (large chunks),
// zipped values a full-zip layout, constant and none values a constant
// layout. Sparse pages give an error; every count is checked.
func DenseAsPageLayout(pl *pb23.PlanarLayout) (*pb.PageLayout, error) {
	dense := pl.GetStructure().GetDense()
	if dense == nil {
		return nil, fmt.Errorf("%w: planar page: field structure: not dense", ErrCorrupt)
	}
	layers := dense.GetLayers()
	if len(layers) == 0 {
		return nil, fmt.Errorf("%w: planar page: field structure.dense.layers: empty", ErrCorrupt)
	}
	switch v := pl.GetValues().GetCodec().(type) {
	case *pb23.ValuePlane_Chunked:
		return denseChunked(v.Chunked, layers)
	case *pb23.ValuePlane_Zipped:
		return denseZipped(v.Zipped, layers)
	case *pb23.ValuePlane_Constant:
		s := v.Constant.GetScalar()
		if len(s) < 1 || len(s) > 32 {
			return nil, fmt.Errorf("%w: planar page: field values.constant.scalar: %d bytes (want 1-32)", ErrCorrupt, len(s))
		}
		if !allValid(layers) {
			return nil, fmt.Errorf("%w: planar page: dense constant values with nullable layers", ErrCorrupt)
		}
		return &pb.PageLayout{Layout: &pb.PageLayout_ConstantLayout{ConstantLayout: &pb.ConstantLayout{
			Layers: layers, InlineValue: s}}}, nil
	case *pb23.ValuePlane_None:
		if len(layers) != 1 || layers[0] != pb.RepDefLayer_REPDEF_NULLABLE_ITEM {
			return nil, fmt.Errorf("%w: planar page: dense none values need a single nullable item layer", ErrCorrupt)
		}
		return &pb.PageLayout{Layout: &pb.PageLayout_ConstantLayout{ConstantLayout: &pb.ConstantLayout{Layers: layers}}}, nil
	case *pb23.ValuePlane_Indexed:
		return nil, fmt.Errorf("%w: planar page: indexed values with dense structure", ErrCorrupt)
	}
	return nil, fmt.Errorf("%w: planar page: field values: no value codec", ErrCorrupt)
}

func allValid(layers []pb.RepDefLayer) bool {
	for _, l := range layers {
		if l != pb.RepDefLayer_REPDEF_ALL_VALID_ITEM && l != pb.RepDefLayer_REPDEF_ALL_VALID_LIST {
			return false
		}
	}
	return true
}

func denseChunked(c *pb23.ChunkedValues, layers []pb.RepDefLayer) (*pb.PageLayout, error) {
	lv := c.GetLevels()
	if lv == nil {
		return nil, fmt.Errorf("%w: planar page: field values.chunked.levels: missing with dense structure", ErrCorrupt)
	}
	if c.GetCompression() == nil {
		return nil, fmt.Errorf("%w: planar page: field values.chunked.compression: missing", ErrCorrupt)
	}
	return &pb.PageLayout{Layout: &pb.PageLayout_MiniBlockLayout{MiniBlockLayout: &pb.MiniBlockLayout{
		RepCompression:       lv.GetRepetition(),
		DefCompression:       lv.GetDefinition(),
		ValueCompression:     c.GetCompression(),
		Dictionary:           c.GetDictionary(),
		NumDictionaryItems:   c.GetNumDictionaryItems(),
		Layers:               layers,
		NumBuffers:           c.GetNumBuffers(),
		RepetitionIndexDepth: lv.GetRepetitionIndexDepth(),
		NumItems:             c.GetNumItems(),
		HasLargeChunk:        true, // 2.3 keeps the u32 chunk words
	}}}, nil
}

func denseZipped(z *pb23.ZippedValues, layers []pb.RepDefLayer) (*pb.PageLayout, error) {
	lv := z.GetLevels()
	if lv == nil {
		return nil, fmt.Errorf("%w: planar page: field values.zipped.levels: missing with dense structure", ErrCorrupt)
	}
	fz, err := zippedLayout(z, layers, "values.zipped")
	if err != nil {
		return nil, err
	}
	fz.BitsRep, fz.BitsDef = lv.GetBitsRepetition(), lv.GetBitsDefinition()
	return &pb.PageLayout{Layout: &pb.PageLayout_FullZipLayout{FullZipLayout: fz}}, nil
}

// zippedLayout converts the addressing and counts of zipped values (field
// names the message in errors).
func zippedLayout(z *pb23.ZippedValues, layers []pb.RepDefLayer, field string) (*pb.FullZipLayout, error) {
	if z.GetNumItems() > math.MaxUint32 || z.GetNumVisibleItems() > math.MaxUint32 {
		return nil, fmt.Errorf("%w: planar page: field %s.num_items: %d/%d items exceed 2^32", ErrCorrupt, field, z.GetNumItems(), z.GetNumVisibleItems())
	}
	if z.GetCompression() == nil {
		return nil, fmt.Errorf("%w: planar page: field %s.compression: missing", ErrCorrupt, field)
	}
	fz := &pb.FullZipLayout{NumItems: uint32(z.GetNumItems()), NumVisibleItems: uint32(z.GetNumVisibleItems()),
		ValueCompression: z.GetCompression(), Layers: layers}
	switch a := z.GetAddressing().(type) {
	case *pb23.ZippedValues_BitsPerValue:
		fz.Details = &pb.FullZipLayout_BitsPerValue{BitsPerValue: a.BitsPerValue}
	case *pb23.ZippedValues_BitsPerOffset:
		fz.Details = &pb.FullZipLayout_BitsPerOffset{BitsPerOffset: a.BitsPerOffset}
	default:
		return nil, fmt.Errorf("%w: planar page: field %s.addressing: missing", ErrCorrupt, field)
	}
	return fz, nil
}
