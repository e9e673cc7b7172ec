package filewriter

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/internal/lerr"
)

// encodePacked writes a packed struct column (lance-encoding:packed): each
// row is the concatenation of its fixed-width children's bytes, stored in a
// mini-block page as PackedStruct(Flat). Child validity is not stored (as in
// Lance); with variable-width children it is a 2.2 full-zip variable
// packed struct (encodeVPStruct).
func encodePacked(s *shredded, l *wleaf, cfg *writerConfig) (*encodedPage, error) {
	st := s.Leaf.(*array.Struct)
	var widths []uint64
	var kids []*values
	variable := false
	for i := 0; i < st.NumField(); i++ {
		v, err := gatherValues(st.Field(i), s.slots(), s.sc)
		if err != nil {
			return nil, err
		}
		variable = variable || v.Kind == valVariable
		if v.Kind != valFixed && v.Kind != valVariable {
			return nil, fmt.Errorf("%w: packed struct child %s", lerr.ErrUnsupportedType, st.Field(i).DataType())
		}
		widths = append(widths, uint64(v.Bits))
		kids = append(kids, v)
	}
	if variable {
		return encodeVPStruct(s, st, kids, cfg.version)
	}
	total := 0
	for _, w := range widths {
		total += int(w)
	}
	rows := &values{Values: codecs.Values{Kind: valFixed, N: s.NumSlots(), Bits: total, Data: make([]byte, 0, s.NumSlots()*total/8)}}
	for j := range s.slots() {
		for _, k := range kids {
			w := k.Bits / 8
			rows.Data = append(rows.Data, k.Data[j*w:(j+1)*w]...)
		}
	}
	codec := codecs.PackedStructEncoder{FlatEncoder: codecs.FlatEncoder{Bits: total}, Widths: widths}
	return encodeMiniBlock(s, rows, codec, cfg.version, int(l.params.miniblockValues))
}
