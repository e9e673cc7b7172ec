package layouts

import (
	"fmt"
	"strings"

	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	pb23 "github.com/lancego/lancego/format/pb/encodings23pb"
)

// PageInfo summarizes a page layout for humans and tools.
type PageInfo struct {
	// Layout is "mini-block", "full-zip", "constant", "blob", or for 2.3
	// "planar dense/<values>" or "planar sparse/<values>".
	Layout string `json:"layout"`
	// Values is the value codec tree; Rep and Def the level codecs.
	Values string `json:"values,omitempty"`
	Rep    string `json:"rep,omitempty"`
	Def    string `json:"def,omitempty"`
	// Dictionary is the dictionary codec and item count, if any.
	Dictionary string `json:"dictionary,omitempty"`
	// Layers are the rep/def layers, inner-most first (a sparse planar
	// page: its structural layers, outer-most first).
	Layers []string `json:"layers"`
	// Details lists layout-specific facts (chunk form, control word bits, ...).
	Details []string `json:"details,omitempty"`
	// Inner describes the descriptor page of a blob layout, or the 2.2
	// layout a dense planar page is read as.
	Inner *PageInfo `json:"inner,omitempty"`
}

// DescribePage summarizes a page layout.
func DescribePage(l *pb.PageLayout) PageInfo {
	switch x := l.GetLayout().(type) {
	case *pb.PageLayout_MiniBlockLayout:
		return describeMiniBlock(x.MiniBlockLayout)
	case *pb.PageLayout_FullZipLayout:
		f := x.FullZipLayout
		info := PageInfo{Layout: "full-zip", Values: codecs.Describe(f.GetValueCompression()), Layers: layerNames(f.GetLayers())}
		info.Details = append(info.Details, fmt.Sprintf("bits_rep=%d bits_def=%d", f.GetBitsRep(), f.GetBitsDef()))
		if d, ok := f.GetDetails().(*pb.FullZipLayout_BitsPerValue); ok {
			info.Details = append(info.Details, fmt.Sprintf("bits_per_value=%d", d.BitsPerValue))
		} else {
			info.Details = append(info.Details, fmt.Sprintf("bits_per_offset=%d", f.GetBitsPerOffset()))
		}
		return info
	case *pb.PageLayout_ConstantLayout:
		return describeConstant(x.ConstantLayout)
	case *pb.PageLayout_BlobLayout:
		inner := DescribePage(x.BlobLayout.GetInnerLayout())
		return PageInfo{Layout: "blob", Layers: layerNames(x.BlobLayout.GetLayers()), Inner: &inner}
	}
	return PageInfo{Layout: "unknown"}
}

func describeMiniBlock(m *pb.MiniBlockLayout) PageInfo {
	info := PageInfo{Layout: "mini-block", Values: codecs.Describe(m.GetValueCompression()), Layers: layerNames(m.GetLayers())}
	if m.GetRepCompression() != nil {
		info.Rep = codecs.Describe(m.GetRepCompression())
	}
	if m.GetDefCompression() != nil {
		info.Def = codecs.Describe(m.GetDefCompression())
	}
	if m.GetDictionary() != nil {
		info.Dictionary = fmt.Sprintf("%s [%d items]", codecs.Describe(m.GetDictionary()), m.GetNumDictionaryItems())
	}
	if m.GetHasLargeChunk() {
		info.Details = append(info.Details, "large_chunk")
	}
	if d := m.GetRepetitionIndexDepth(); d > 0 {
		info.Details = append(info.Details, fmt.Sprintf("rep_index_depth=%d", d))
	}
	info.Details = append(info.Details, fmt.Sprintf("num_items=%d num_buffers=%d", m.GetNumItems(), m.GetNumBuffers()))
	return info
}

func describeConstant(c *pb.ConstantLayout) PageInfo {
	info := PageInfo{Layout: "constant", Layers: layerNames(c.GetLayers())}
	if c.InlineValue != nil {
		info.Values = fmt.Sprintf("inline(%x)", c.InlineValue)
	} else {
		info.Values = "null"
	}
	if c.GetRepCompression() != nil {
		info.Rep = codecs.Describe(c.GetRepCompression())
	}
	if c.GetDefCompression() != nil {
		info.Def = codecs.Describe(c.GetDefCompression())
	}
	return info
}

func layerNames(ls []pb.RepDefLayer) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = strings.TrimPrefix(l.String(), "REPDEF_")
	}
	return out
}

// String renders the summary on one line.
func (p PageInfo) String() string {
	var b strings.Builder
	b.WriteString(p.Layout)
	b.WriteString("{")
	parts := []string{}
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+"="+v)
		}
	}
	add("rep", p.Rep)
	add("def", p.Def)
	add("values", p.Values)
	add("dict", p.Dictionary)
	if p.Inner != nil {
		add("inner", p.Inner.String())
	}
	parts = append(parts, p.Details...)
	parts = append(parts, "layers=["+strings.Join(p.Layers, ",")+"]")
	b.WriteString(strings.Join(parts, " "))
	b.WriteString("}")
	return b.String()
}

// DescribePlanar summarizes a 2.3 planar page: Layout names the planes
// ("planar dense/chunked", "planar sparse/zipped", ...). A dense page also
// shows the 2.2 layout it is read as; a sparse page lists its structural
// layers (outer-most first) with their position and count codecs.
func DescribePlanar(pl *pb23.PlanarLayout) PageInfo {
	values := planeName(pl.GetValues())
	if pl.GetStructure().GetDense() != nil {
		info := PageInfo{Layout: "planar dense/" + values}
		if l, err := DenseAsPageLayout(pl); err == nil {
			inner := DescribePage(l)
			info.Inner = &inner
			info.Layers = inner.Layers
		} else {
			info.Details = append(info.Details, err.Error())
		}
		return info
	}
	info := PageInfo{Layout: "planar sparse/" + values, Layers: []string{}}
	for _, l := range pl.GetStructure().GetSparse().GetLayers() {
		info.Layers = append(info.Layers, describeSparseLayer(l))
	}
	switch v := pl.GetValues().GetCodec().(type) {
	case *pb23.ValuePlane_Chunked:
		info.Values = codecs.Describe(v.Chunked.GetCompression())
		if v.Chunked.GetDictionary() != nil {
			info.Dictionary = fmt.Sprintf("%s [%d items]", codecs.Describe(v.Chunked.GetDictionary()), v.Chunked.GetNumDictionaryItems())
		}
		info.Details = append(info.Details, fmt.Sprintf("num_buffers=%d", v.Chunked.GetNumBuffers()))
	case *pb23.ValuePlane_Zipped:
		info.Values = codecs.Describe(v.Zipped.GetCompression())
		info.Details = append(info.Details, fmt.Sprintf("num_items=%d bits_per_value=%d bits_per_offset=%d",
			v.Zipped.GetNumItems(), v.Zipped.GetBitsPerValue(), v.Zipped.GetBitsPerOffset()))
	case *pb23.ValuePlane_Constant:
		info.Values = fmt.Sprintf("inline(%x)", v.Constant.GetScalar())
	case *pb23.ValuePlane_Indexed:
		it := v.Indexed.GetItems()
		info.Values = "indices " + codecs.Describe(v.Indexed.GetIndices())
		info.Dictionary = fmt.Sprintf("%s [%d zipped items, %d-bit lengths]", codecs.Describe(it.GetCompression()), it.GetNumItems(), it.GetBitsPerOffset())
	}
	return info
}

func planeName(v *pb23.ValuePlane) string {
	switch v.GetCodec().(type) {
	case *pb23.ValuePlane_Chunked:
		return "chunked"
	case *pb23.ValuePlane_Zipped:
		return "zipped"
	case *pb23.ValuePlane_Constant:
		return "constant"
	case *pb23.ValuePlane_None:
		return "none"
	case *pb23.ValuePlane_Indexed:
		return "indexed"
	}
	return "unknown"
}

func describeValidity(v *pb23.SparseValiditySet) string {
	meaning := "null"
	if v.GetMeaning() == pb23.SparseValiditySet_SPARSE_VALIDITY_VALID_POSITIONS {
		meaning = "valid"
	}
	return fmt.Sprintf("%s_positions[%d]=%s", meaning, v.GetNumPositions(), codecs.Describe(v.GetPositions()))
}

func describeSparseLayer(l *pb23.SparseStructuralLayer) string {
	switch x := l.GetLayer().(type) {
	case *pb23.SparseStructuralLayer_Validity:
		return "validity(" + describeValidity(x.Validity) + ")"
	case *pb23.SparseStructuralLayer_List:
		ls := x.List
		return fmt.Sprintf("list(children=%d non_empty[%d]=%s counts=%s %s)", ls.GetNumChildSlots(), ls.GetNumNonEmptyPositions(),
			codecs.Describe(ls.GetNonEmptyPositions()), codecs.Describe(ls.GetCounts()), describeValidity(ls.GetValidity()))
	case *pb23.SparseStructuralLayer_FixedSizeList:
		return fmt.Sprintf("fixed_size_list(dim=%d %s)", x.FixedSizeList.GetDimension(), describeValidity(x.FixedSizeList.GetValidity()))
	}
	return "unknown"
}
