package v20

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	pb "github.com/lancego/lancego/format/pb/encodingspb"
)

// Window is the byte range [Lo, Hi) of page buffer Buffer that a read of
// a few rows needs.
type Window struct {
	Buffer uint32
	Lo, Hi uint64
}

// Windows plans a partial read of rows [from, to) of a page of fixed-width
// values (flat, nullable, fixed-size list, packed struct, constant, in any
// nesting, uncompressed, in page buffers): it returns a base row (from
// rounded down to a multiple of 8, so bitmaps stay byte-aligned) and, per
// buffer, the bytes rows [base, to) occupy. NewPage over those windows
// (each window as its buffer) with to-base rows then decodes rows
// [from-base, to-base) exactly as the whole page would. ok is false for
// encodings that must be read whole (binary, FSST, dictionaries,
// compression, bit-packing, column buffers).
func Windows(enc *pb.ArrayEncoding, dt arrow.DataType, from, to uint64) (base uint64, ws []Window, ok bool) {
	if from >= to || to > maxRows {
		return 0, nil, false
	}
	base = from - from%8
	ws, ok = windows(enc, dt, base, to, 1, nil, 0)
	if !ok {
		return 0, nil, false
	}
	return base, ws, true
}

// windows appends the windows of enc for rows [base, to), each row holding
// per items of this node.
func windows(enc *pb.ArrayEncoding, dt arrow.DataType, base, to, per uint64, ws []Window, depth int) ([]Window, bool) {
	if depth > maxDepth {
		return nil, false
	}
	add := func(ref *pb.Buffer, bytesPerRowTimes8 uint64) bool {
		if ref == nil || ref.GetBufferType() != pb.Buffer_page {
			return false
		}
		lo, okLo := mulOK(base, bytesPerRowTimes8)
		hi, okHi := mulOK(to, bytesPerRowTimes8)
		if !okLo || !okHi {
			return false
		}
		ws = append(ws, Window{Buffer: ref.GetBufferIndex(), Lo: lo / 8, Hi: (hi + 7) / 8})
		return true
	}
	switch e := enc.GetArrayEncoding().(type) {
	case *pb.ArrayEncoding_Flat:
		f := e.Flat
		bits := f.GetBitsPerValue()
		if s := f.GetCompression().GetScheme(); (s != "" && s != "none") || bits == 0 || bits > maxValueBits ||
			(bits != 1 && bits%8 != 0) {
			return nil, false
		}
		b, ok := mulOK(per, bits)
		return ws, ok && add(f.GetBuffer(), b)
	case *pb.ArrayEncoding_Nullable:
		switch n := e.Nullable.GetNullability().(type) {
		case *pb.Nullable_NoNulls:
			return windows(n.NoNulls.GetValues(), dt, base, to, per, ws, depth+1)
		case *pb.Nullable_SomeNulls:
			ws, ok := windows(n.SomeNulls.GetValidity(), arrow.FixedWidthTypes.Boolean, base, to, per, ws, depth+1)
			if !ok {
				return nil, false
			}
			return windows(n.SomeNulls.GetValues(), dt, base, to, per, ws, depth+1)
		case *pb.Nullable_AllNulls:
			return ws, true
		}
	case *pb.ArrayEncoding_FixedSizeList:
		elem, dim, err := fslShape(e.FixedSizeList, dt)
		if err != nil {
			return nil, false
		}
		p, ok := mulOK(per, dim)
		if !ok {
			return nil, false
		}
		return windows(e.FixedSizeList.GetItems(), elem, base, to, p, ws, depth+1)
	case *pb.ArrayEncoding_PackedStruct:
		st, ok := dt.(*arrow.StructType)
		if !ok || per != 1 {
			return nil, false
		}
		var row uint64
		for _, f := range st.Fields() {
			_, w, err := packedShape(f.Type)
			if err != nil {
				return nil, false
			}
			row += w
		}
		return ws, add(e.PackedStruct.GetBuffer(), row*8)
	case *pb.ArrayEncoding_Constant:
		return ws, true
	}
	return nil, false
}

// WindowBuffers arranges fetched window bytes as a sub-page's buffers
// (got[i] holds ws[i]); a buffer windowed twice must be windowed the same.
func WindowBuffers(ws []Window, got [][]byte) ([][]byte, error) {
	var bufs [][]byte
	seen := map[uint32]Window{}
	for i, w := range ws {
		if prev, ok := seen[w.Buffer]; ok {
			if prev != w {
				return nil, fmt.Errorf("%w: page buffer %d read at two widths", ErrCorrupt, w.Buffer)
			}
			continue
		}
		seen[w.Buffer] = w
		if w.Buffer > 64 {
			return nil, fmt.Errorf("%w: page buffer index %d", ErrCorrupt, w.Buffer)
		}
		for uint32(len(bufs)) <= w.Buffer {
			bufs = append(bufs, nil)
		}
		bufs[w.Buffer] = got[i]
	}
	return bufs, nil
}

// BinaryWindow plans a partial read of a binary page (offsets in a
// windowable encoding, bytes in an uncompressed page buffer): first the
// windows of the offsets of rows [from-1, to) (Windows), then, from
// ByteSpan, the bytes; NewPage over both, with the bytes window's start in
// Buffers.PageBase, decodes rows [from-base, to-base). ok is false for
// other pages.
func BinaryWindow(enc *pb.ArrayEncoding, from, to uint64) (base uint64, idx []Window, bytesBuf uint32, ok bool) {
	b := enc.GetBinary()
	f := b.GetBytes().GetFlat()
	if b == nil || f == nil || f.GetBitsPerValue() != 8 || f.GetBuffer().GetBufferType() != pb.Buffer_page {
		return 0, nil, 0, false
	}
	if s := f.GetCompression().GetScheme(); s != "" && s != "none" {
		return 0, nil, 0, false
	}
	lo := from
	if from > 0 {
		lo = from - 1
	}
	base, idx, ok = Windows(b.GetIndices(), arrow.PrimitiveTypes.Uint64, lo, to)
	return base, idx, f.GetBuffer().GetBufferIndex(), ok
}

// ByteSpan returns the bytes [start, end) that rows [from, to) of a binary
// page need, given a sub-page over the offsets' windows (BinaryWindow) with
// rows counted from base.
func ByteSpan(enc *pb.ArrayEncoding, offsets *Page, base, from, to uint64) (start, end uint64, err error) {
	b := enc.GetBinary()
	lo := from
	if from > 0 {
		lo = from - 1
	}
	idx, _, err := offsets.decode(b.GetIndices(), nil, offsets.rows, lo-base, to-base, 1)
	if err != nil {
		return 0, 0, err
	}
	if err := checkUints(&idx, to-lo, "binary indices"); err != nil {
		return 0, 0, err
	}
	adj := b.GetNullAdjustment()
	norm := func(v uint64) uint64 {
		if adj != 0 && v >= adj {
			return v - adj
		}
		return v
	}
	if from > 0 {
		start = norm(uintAt(&idx, 0))
	}
	end = norm(uintAt(&idx, to-lo-1))
	if end < start {
		return 0, 0, fmt.Errorf("%w: binary values end at %d before %d", ErrCorrupt, end, start)
	}
	return start, end, nil
}
