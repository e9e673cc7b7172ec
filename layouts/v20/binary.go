package v20

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodingspb"
)

// decodeBinary reads variable-width values [from, to). The indices hold
// each value's end offset into the bytes; an end at or above
// null_adjustment marks a null, whose real end is end - null_adjustment.
func (p *Page) decodeBinary(b *pb.Binary, rows, from, to uint64, depth int) (codecs.Block, []byte, error) {
	lo := from
	if from > 0 {
		lo = from - 1 // the end of the value before from is from's start
	}
	idx, _, err := p.decode(b.GetIndices(), nil, rows, lo, to, depth+1)
	if err != nil {
		return codecs.Block{}, nil, fmt.Errorf("binary indices: %w", err)
	}
	if err := checkUints(&idx, to-lo, "binary indices"); err != nil {
		return codecs.Block{}, nil, err
	}
	f := b.GetBytes().GetFlat()
	if f == nil || f.GetBitsPerValue() != 8 {
		return codecs.Block{}, nil, fmt.Errorf("%w: binary bytes are not a flat byte buffer", ErrUnsupported)
	}
	data, err := p.flatBytes(f)
	if err != nil {
		return codecs.Block{}, nil, err
	}
	dbase := p.pageBase(f.GetBuffer()) // the bytes may be a window
	adj := b.GetNullAdjustment()
	norm := func(v uint64) (uint64, bool) {
		if adj != 0 && v >= adj {
			return v - adj, false
		}
		return v, true
	}
	n := to - from
	var start uint64
	if from > 0 {
		start, _ = norm(uintAt(&idx, 0))
	}
	offs := make([]byte, 8*(n+1))
	var valid []byte
	if start < dbase {
		return codecs.Block{}, nil, fmt.Errorf("%w: binary values start at %d, before the bytes read from %d", ErrCorrupt, start, dbase)
	}
	prev := start
	for i := uint64(0); i < n; i++ {
		end, ok := norm(uintAt(&idx, i+from-lo))
		if end < prev || end-dbase > uint64(len(data)) {
			return codecs.Block{}, nil, fmt.Errorf("%w: binary value %d ends at %d (previous %d, %d bytes)", ErrCorrupt, from+i, end, prev, len(data))
		}
		if !ok {
			if valid == nil {
				valid = setBits(n)
			}
			valid[i/8] &^= 1 << (i % 8)
		}
		binary.LittleEndian.PutUint64(offs[8*(i+1):], end-start)
		prev = end
	}
	out := codecs.Block{Kind: codecs.KindVariable, NumValues: n, OffsetBits: 64, Offsets: offs,
		Data: data[start-dbase : prev-dbase : prev-dbase]}
	return out, valid, nil
}

// decodeFSST decompresses the binary values of an FSST page.
func (p *Page) decodeFSST(f *pb.Fsst, dt arrow.DataType, rows, from, to uint64, depth int) (codecs.Block, []byte, error) {
	t, ok := p.prepared[f].(*codecs.FSSTTable)
	if !ok {
		return codecs.Block{}, nil, fmt.Errorf("%w: fsst table was not prepared", ErrCorrupt)
	}
	in, valid, err := p.decode(f.GetBinary(), dt, rows, from, to, depth+1)
	if err != nil {
		return codecs.Block{}, nil, err
	}
	out, err := t.DecompressBlock(in)
	if err != nil {
		return codecs.Block{}, nil, fmt.Errorf("%w: fsst: %v", ErrCorrupt, err)
	}
	return out, valid, nil
}

// decodeDictionary gathers dictionary items for rows [from, to). When the
// Arrow type is not a dictionary, Lance stored indices shifted by one, with
// 0 meaning null; a dictionary type keeps its own indices.
func (p *Page) decodeDictionary(d *pb.Dictionary, dt arrow.DataType, rows, from, to uint64, depth int) (codecs.Block, []byte, error) {
	items, ok := p.prepared[d].(Decoded)
	if !ok {
		return codecs.Block{}, nil, fmt.Errorf("%w: dictionary was not prepared", ErrCorrupt)
	}
	idx, ivalid, err := p.decode(d.GetIndices(), nil, rows, from, to, depth+1)
	if err != nil {
		return codecs.Block{}, nil, fmt.Errorf("dictionary indices: %w", err)
	}
	n := to - from
	if err := checkUints(&idx, n, "dictionary indices"); err != nil {
		return codecs.Block{}, nil, err
	}
	_, direct := dt.(*arrow.DictionaryType)
	g := gather{dict: &items.Block, n: n}
	for i := uint64(0); i < n; i++ {
		k := uintAt(&idx, i)
		null := ivalid != nil && !getBit(ivalid, i)
		if !direct && !null {
			null, k = k == 0, k-1
		}
		if !null && k >= items.Block.NumValues {
			return codecs.Block{}, nil, fmt.Errorf("%w: dictionary index %d of %d items", ErrCorrupt, k, items.Block.NumValues)
		}
		if !null && items.Validity != nil && !getBit(items.Validity, k) {
			null = true
		}
		if err := g.add(k, null); err != nil {
			return codecs.Block{}, nil, err
		}
	}
	return g.block(), g.valid, nil
}

// gather builds a block of dictionary items picked by index.
type gather struct {
	dict  *codecs.Block
	n     uint64
	i     uint64
	data  []byte
	offs  []byte
	valid []byte
}

// add appends item k of the dictionary, or a placeholder when null.
func (g *gather) add(k uint64, null bool) error {
	d := g.dict
	if null {
		if g.valid == nil {
			g.valid = setBits(g.n)
		}
		g.valid[g.i/8] &^= 1 << (g.i % 8)
	}
	defer func() { g.i++ }()
	switch {
	case d.Kind == codecs.KindVariable && (d.OffsetBits == 32 || d.OffsetBits == 64):
		if g.offs == nil {
			g.offs = make([]byte, 8, 8*(g.n+1))
		}
		if !null {
			w := uint64(d.OffsetBits / 8)
			if uint64(len(d.Offsets)) < (k+2)*w {
				return fmt.Errorf("%w: dictionary offsets too short", ErrCorrupt)
			}
			s, e := readOff(d.Offsets, w, k), readOff(d.Offsets, w, k+1)
			if s > e || e > uint64(len(d.Data)) {
				return fmt.Errorf("%w: dictionary item %d bytes [%d,%d) of %d", ErrCorrupt, k, s, e, len(d.Data))
			}
			g.data = append(g.data, d.Data[s:e]...)
		}
		g.offs = binary.LittleEndian.AppendUint64(g.offs, uint64(len(g.data)))
		return nil
	case d.Kind == codecs.KindFixed && len(d.FSL) == 0 && d.BitsPerValue%8 == 0 && d.BitsPerValue > 0:
		w := d.BitsPerValue / 8
		if null {
			g.data = append(g.data, make([]byte, w)...)
			return nil
		}
		if uint64(len(d.Data))/w <= k {
			return fmt.Errorf("%w: dictionary items too short", ErrCorrupt)
		}
		g.data = append(g.data, d.Data[k*w:(k+1)*w]...)
		return nil
	}
	return fmt.Errorf("%w: dictionary of this item shape", ErrUnsupported)
}

// block returns the gathered values.
func (g *gather) block() codecs.Block {
	d := g.dict
	if d.Kind == codecs.KindVariable {
		if g.offs == nil {
			g.offs = make([]byte, 8)
		}
		return codecs.Block{Kind: codecs.KindVariable, NumValues: g.n, OffsetBits: 64, Offsets: g.offs, Data: g.data}
	}
	return codecs.Block{Kind: codecs.KindFixed, NumValues: g.n, BitsPerValue: d.BitsPerValue, Data: g.data}
}

// readOff reads offset i of w-byte offsets.
func readOff(b []byte, w, i uint64) uint64 {
	if w == 4 {
		return uint64(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return binary.LittleEndian.Uint64(b[8*i:])
}

// decodeFixedSizeBinary reads byte_width bytes per value as variable-width
// values (Lance used it for strings of one length).
func (p *Page) decodeFixedSizeBinary(f *pb.FixedSizeBinary, from, to uint64) (codecs.Block, error) {
	w := uint64(f.GetByteWidth())
	flat := f.GetBytes().GetFlat()
	if w == 0 || w > maxValueBits/8 || flat == nil {
		return codecs.Block{}, fmt.Errorf("%w: fixed-size binary of width %d", ErrCorrupt, w)
	}
	data, err := p.flatBytes(flat)
	if err != nil {
		return codecs.Block{}, err
	}
	if uint64(len(data))/w < to {
		return codecs.Block{}, fmt.Errorf("%w: fixed-size binary of %d bytes for %d values", ErrCorrupt, len(data), to)
	}
	n := to - from
	offs := make([]byte, 8*(n+1))
	for i := uint64(1); i <= n; i++ {
		binary.LittleEndian.PutUint64(offs[8*i:], i*w)
	}
	return codecs.Block{Kind: codecs.KindVariable, NumValues: n, OffsetBits: 64, Offsets: offs, Data: data[from*w : to*w]}, nil
}

// GatherDictionary returns items[idx[i]] for every index of a block of
// 8..64-bit unsigned integers (dictionary-encoded values of other formats,
// such as legacy files, which use indices as they are).
func GatherDictionary(items Decoded, idx codecs.Block) (Decoded, error) {
	n := idx.NumValues
	if err := checkUints(&idx, n, "dictionary indices"); err != nil {
		return Decoded{}, err
	}
	g := gather{dict: &items.Block, n: n}
	for i := uint64(0); i < n; i++ {
		k := uintAt(&idx, i)
		if k >= items.Block.NumValues {
			return Decoded{}, fmt.Errorf("%w: dictionary index %d of %d items", ErrCorrupt, k, items.Block.NumValues)
		}
		null := items.Validity != nil && !getBit(items.Validity, k)
		if err := g.add(k, null); err != nil {
			return Decoded{}, err
		}
	}
	return Decoded{Block: g.block(), Validity: g.valid}, nil
}
