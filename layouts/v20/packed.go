package v20

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodingspb"
)

// decodePackedStruct splits rows [from, to) of a packed struct — each row
// the fixed-width children's bytes back to back — into one block per child.
func (p *Page) decodePackedStruct(ps *pb.PackedStruct, dt arrow.DataType, from, to uint64) (codecs.Block, error) {
	st, ok := dt.(*arrow.StructType)
	if !ok || st.NumFields() == 0 {
		return codecs.Block{}, fmt.Errorf("%w: packed struct encoding for %s", ErrCorrupt, dt)
	}
	shapes := make([]codecs.Block, st.NumFields())
	widths := make([]uint64, st.NumFields())
	var row uint64
	for i, f := range st.Fields() {
		s, w, err := packedShape(f.Type)
		if err != nil {
			return codecs.Block{}, err
		}
		shapes[i], widths[i] = s, w
		row += w
	}
	buf, err := p.buffer(ps.GetBuffer())
	if err != nil {
		return codecs.Block{}, err
	}
	if uint64(len(buf))/row < to {
		return codecs.Block{}, fmt.Errorf("%w: packed struct buffer of %d bytes for %d rows of %d bytes", ErrCorrupt, len(buf), to, row)
	}
	n := to - from
	out := codecs.Block{Kind: codecs.KindStruct, NumValues: n, Children: shapes}
	var at uint64
	for i, w := range widths {
		data := make([]byte, 0, n*w)
		for r := from; r < to; r++ {
			o := r*row + at
			data = append(data, buf[o:o+w]...)
		}
		out.Children[i].Data = data
		out.Children[i].NumValues = n
		at += w
	}
	return out, nil
}

// packedShape returns the block shape and byte width of a packed child: a
// fixed-width value of whole bytes or a fixed-size list of them.
func packedShape(dt arrow.DataType) (codecs.Block, uint64, error) {
	var fsl []codecs.FSLLayer
	per := uint64(1)
	for {
		t, ok := dt.(*arrow.FixedSizeListType)
		if !ok {
			break
		}
		if t.Len() <= 0 || t.Len() > maxValueBits {
			return codecs.Block{}, 0, fmt.Errorf("%w: packed child %s", ErrUnsupported, t)
		}
		fsl = append(fsl, codecs.FSLLayer{Dimension: uint64(t.Len())})
		per *= uint64(t.Len())
		if per > maxValueBits {
			return codecs.Block{}, 0, fmt.Errorf("%w: packed child %s", ErrUnsupported, t)
		}
		dt = t.Elem()
	}
	fw, ok := dt.(arrow.FixedWidthDataType)
	if !ok || fw.BitWidth()%8 != 0 || fw.BitWidth() == 0 {
		return codecs.Block{}, 0, fmt.Errorf("%w: packed child of type %s", ErrUnsupported, dt)
	}
	bits := uint64(fw.BitWidth())
	return codecs.Block{Kind: codecs.KindFixed, BitsPerValue: bits, FSL: fsl}, per * bits / 8, nil
}
