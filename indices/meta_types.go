package indices

import (
	"sort"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
)

// IndexType names an index type as pylance's describe_indices does.
type IndexType string

// The index types of Lance's details messages.
const (
	TypeUnknown       IndexType = "UNKNOWN"
	TypeBTree         IndexType = "BTREE"
	TypeBitmap        IndexType = "BITMAP"
	TypeLabelList     IndexType = "LABEL_LIST"
	TypeZoneMap       IndexType = "ZONEMAP"
	TypeNGram         IndexType = "NGRAM"
	TypeInverted      IndexType = "INVERTED"
	TypeBloomFilter   IndexType = "BLOOMFILTER"
	TypeRTree         IndexType = "RTREE"
	TypeMinHashLSH    IndexType = "MINHASHLSH"
	TypeJSON          IndexType = "JSON"
	TypeVector        IndexType = "VECTOR" // legacy empty lance.table.VectorIndexDetails
	TypeIVFFlat       IndexType = "IVF_FLAT"
	TypeIVFPQ         IndexType = "IVF_PQ"
	TypeIVFSQ         IndexType = "IVF_SQ"
	TypeIVFRQ         IndexType = "IVF_RQ"
	TypeIVFHNSWFlat   IndexType = "IVF_HNSW_FLAT"
	TypeIVFHNSWPQ     IndexType = "IVF_HNSW_PQ"
	TypeIVFHNSWSQ     IndexType = "IVF_HNSW_SQ"
	TypeFragmentReuse IndexType = "FRAGMENT_REUSE"
	TypeMemWAL        IndexType = "MEM_WAL"
)

// typeByMessage maps the details message name (after the package) to its
// type; vector details are refined by their content.
var typeByMessage = map[string]IndexType{
	"btreeindexdetails":         TypeBTree,
	"bitmapindexdetails":        TypeBitmap,
	"labellistindexdetails":     TypeLabelList,
	"zonemapindexdetails":       TypeZoneMap,
	"ngramindexdetails":         TypeNGram,
	"invertedindexdetails":      TypeInverted,
	"bloomfilterindexdetails":   TypeBloomFilter,
	"rtreeindexdetails":         TypeRTree,
	"minhashlshindexdetails":    TypeMinHashLSH,
	"jsonindexdetails":          TypeJSON,
	"fragmentreuseindexdetails": TypeFragmentReuse,
	"memwalindexdetails":        TypeMemWAL,
}

// typeOf derives the index type from an Any type URL (case-insensitive,
// leading "/" or "type.googleapis.com/") and its value.
func typeOf(url string, value []byte) IndexType {
	u := strings.ToLower(url)
	if i := strings.LastIndexByte(u, '/'); i >= 0 {
		u = u[i+1:]
	}
	switch u {
	case "lance.index.pb.vectorindexdetails":
		return VectorDetailsOf(value).Type()
	case "lance.table.vectorindexdetails":
		return TypeVector
	}
	if i := strings.LastIndexByte(u, '.'); i >= 0 {
		if t, ok := typeByMessage[u[i+1:]]; ok {
			return t
		}
	}
	return TypeUnknown
}

// Metric is a vector index's distance type (lance.index.pb.VectorMetricType).
type Metric int

// The distance types, numbered as in Lance's protobuf.
const (
	MetricL2      Metric = 0
	MetricCosine  Metric = 1
	MetricDot     Metric = 2
	MetricHamming Metric = 3
)

// String is the metric's name as pylance prints it.
func (m Metric) String() string {
	switch m {
	case MetricL2:
		return "l2"
	case MetricCosine:
		return "cosine"
	case MetricDot:
		return "dot"
	case MetricHamming:
		return "hamming"
	}
	return "unknown"
}

// VectorDetails is lance.index.pb.VectorIndexDetails (fields 1, 3–6, 8).
type VectorDetails struct {
	Metric        Metric
	HNSW          bool
	Compression   string // "FLAT", "PQ", "SQ", "RQ" or "" when none is set
	NumBits       uint32 // PQ/SQ/RQ bits
	NumSubVectors uint32 // PQ
}

// VectorDetailsOf decodes a VectorIndexDetails value; undecodable bytes
// give the zero value (FLAT compression unknown).
func VectorDetailsOf(b []byte) VectorDetails {
	var d VectorDetails
	_ = eachField(b, func(num protowire.Number, _ protowire.Type, v []byte, x uint64) error {
		switch num {
		case 1:
			d.Metric = Metric(x)
		case 3:
			d.HNSW = true
		case 4, 5, 6:
			d.Compression = map[protowire.Number]string{4: "PQ", 5: "SQ", 6: "RQ"}[num]
			_ = eachField(v, func(n protowire.Number, _ protowire.Type, _ []byte, y uint64) error {
				if n == 1 {
					d.NumBits = uint32(y)
				} else if n == 2 && num == 4 {
					d.NumSubVectors = uint32(y)
				}
				return nil
			})
		case 8:
			d.Compression = "FLAT"
		}
		return nil
	})
	return d
}

// Type is the IVF index type the details describe.
func (d VectorDetails) Type() IndexType {
	c := d.Compression
	if c == "" {
		c = "FLAT"
	}
	if d.HNSW {
		return IndexType("IVF_HNSW_" + c)
	}
	return IndexType("IVF_" + c)
}

// IsVector reports whether t is a vector index type.
func (t IndexType) IsVector() bool { return t == TypeVector || strings.HasPrefix(string(t), "IVF_") }

// StoresRowIDs reports whether segments of type t with format version
// version store stable row ids (rather than row addresses) on a dataset
// with stable row ids (spec §1.5): BTREE v1 stores addresses; BITMAP,
// NGRAM, RTREE before 1, LABEL_LIST before 2, FTS and vector indices store
// row ids. ZONEMAP and BLOOMFILTER store fragment ids and offsets (false).
func StoresRowIDs(t IndexType, version int32) bool {
	switch t {
	case TypeBTree, TypeBitmap, TypeNGram, TypeRTree:
		return version < 1
	case TypeLabelList:
		return version < 2
	case TypeZoneMap, TypeBloomFilter:
		return false
	}
	return true
}

// Index is one logical index: the segments sharing a name.
type Index struct {
	Name    string
	Type    IndexType
	Fields  []int32  // field ids of the first segment
	Columns []string // the fields' dotted names, when known (set by the dataset)
	// Segments are in manifest order.
	Segments []Segment
}

// Segment is one IndexMetadata of an index, with what the dataset knows of it.
type Segment struct {
	IndexMetadata
	// RowsIndexed is the live rows of the covered fragments that still
	// exist (pylance's num_rows_indexed), when set by the dataset.
	RowsIndexed uint64
}

// Group gathers segments by name, in order of each name's first segment.
func Group(ms []IndexMetadata) []Index {
	var out []Index
	pos := map[string]int{}
	for _, m := range ms {
		i, ok := pos[m.Name]
		if !ok {
			i = len(out)
			pos[m.Name] = i
			out = append(out, Index{Name: m.Name, Type: m.Type(), Fields: m.Fields})
		}
		out[i].Segments = append(out[i].Segments, Segment{IndexMetadata: m})
	}
	return out
}

// RowsIndexed sums the segments' RowsIndexed.
func (x *Index) RowsIndexed() uint64 {
	var n uint64
	for i := range x.Segments {
		n += x.Segments[i].RowsIndexed
	}
	return n
}

// Fragments is the sorted union of the fragments the segments cover.
func (x *Index) Fragments() []uint32 {
	seen := map[uint32]bool{}
	var out []uint32
	for i := range x.Segments {
		for _, f := range x.Segments[i].Fragments() {
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
