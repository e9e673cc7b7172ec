package layouts

import (
	"fmt"
	"strings"

	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// PageInfo summarizes a page layout for humans and tools.
type PageInfo struct {
	// Layout is "mini-block", "full-zip", "constant" or "blob".
	Layout string `json:"layout"`
	// Values is the value codec tree; Rep and Def the level codecs.
	Values string `json:"values,omitempty"`
	Rep    string `json:"rep,omitempty"`
	Def    string `json:"def,omitempty"`
	// Dictionary is the dictionary codec and item count, if any.
	Dictionary string `json:"dictionary,omitempty"`
	// Layers are the rep/def layers, inner-most first.
	Layers []string `json:"layers"`
	// Details lists layout-specific facts (chunk form, control word bits, ...).
	Details []string `json:"details,omitempty"`
	// Inner describes the descriptor page of a blob layout.
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
