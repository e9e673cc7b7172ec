package codecs

import (
	"encoding/binary"
	"fmt"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/internal/uninit"
)

// FSSTTableSize is the size of a serialized FSST symbol table.
const FSSTTableSize = 2312

// fsstMagic is "FSST" in the high half of the table's info word.
const fsstMagic = 0x46535354

// fsstEscape is the code introducing a literal byte.
const fsstEscape = 255

// FSSTTable is a parsed FSST symbol table.
type FSSTTable struct {
	// Compressed is false when the encoder was switched off: strings are
	// stored verbatim and decoding is a copy.
	Compressed bool
	// NumSymbols is the number of defined codes (0..255).
	NumSymbols int
	// Symbols holds symbol i in the low Lens[i] bytes, first byte least
	// significant.
	Symbols [255]uint64
	// Lens holds the length (1..8) of each symbol.
	Lens [255]uint8
	// dec is the table laid out for block decoding, built by
	// ParseFSSTTable (nil for tables built by hand: built per call).
	dec *fsstDecoder
}

// ParseFSSTTable parses a 2312-byte FSST symbol table: u64 info word (magic,
// encoder switch, suffix limit, terminator, n), n 8-byte symbols, n lengths.
func ParseFSSTTable(tab []byte) (*FSSTTable, error) {
	if len(tab) != FSSTTableSize {
		return nil, fmt.Errorf("%w: fsst: symbol table has %d bytes, want %d", ErrCorrupt, len(tab), FSSTTableSize)
	}
	info := binary.LittleEndian.Uint64(tab)
	if info>>32 != fsstMagic {
		return nil, fmt.Errorf("%w: fsst: bad symbol table magic %#x", ErrCorrupt, info>>32)
	}
	t := &FSSTTable{Compressed: info&(1<<24) != 0, NumSymbols: int(info & 255)}
	if t.NumSymbols == 255 && !t.Compressed {
		t.NumSymbols = 0
	}
	n := t.NumSymbols
	lens := tab[8+8*n:]
	for i := 0; i < n; i++ {
		l := lens[i]
		if l < 1 || l > 8 {
			return nil, fmt.Errorf("%w: fsst: symbol %d has length %d", ErrCorrupt, i, l)
		}
		t.Lens[i] = l
		t.Symbols[i] = binary.LittleEndian.Uint64(tab[8+8*i:])
	}
	if d := new(fsstDecoder); newFSSTDecoder(t, d) {
		t.dec = d
	}
	return t, nil
}

// MaxExpansion is the largest output/input ratio of a compressed string.
const fsstMaxExpansion = 8

// Decompress appends the decompressed form of one compressed string src to
// dst. Code 255 escapes the following byte; other codes emit their symbol.
func (t *FSSTTable) Decompress(dst, src []byte) ([]byte, error) {
	if !t.Compressed {
		return append(dst, src...), nil
	}
	if len(src) > maxAppend/fsstMaxExpansion-len(dst) {
		return dst, fmt.Errorf("%w: fsst: %d compressed bytes exceed the address space", ErrCorrupt, len(src))
	}
	// Every code emits at most 8 bytes; with 8 bytes of slack each symbol
	// is stored as one unaligned 8-byte write and the cursor advances by
	// its length (the usual FSST decoding trick). Bytes past the result
	// are never exposed, so the room need not be zeroed.
	dst = uninit.Grow(dst, len(src)*fsstMaxExpansion+8)
	if d := t.dec; d != nil {
		pos, err := d.decodeInto(dst[:cap(dst)], len(dst), src)
		return dst[:pos], err
	}
	return t.decompressSimple(dst, src)
}

// decompressSimple is Decompress one code at a time, for tables without a
// decoding layout; dst has room for 8 bytes a code plus 8. The tests use
// it as the reference for the faster decoders.
func (t *FSSTTable) decompressSimple(dst, src []byte) ([]byte, error) {
	out := dst[:cap(dst)]
	pos := len(dst)
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == fsstEscape {
			i++
			if i == len(src) {
				return out[:pos], fmt.Errorf("%w: fsst: escape code at end of string", ErrCorrupt)
			}
			out[pos] = src[i]
			pos++
			continue
		}
		if int(c) >= t.NumSymbols {
			return out[:pos], fmt.Errorf("%w: fsst: code %d >= %d symbols", ErrCorrupt, c, t.NumSymbols)
		}
		binary.LittleEndian.PutUint64(out[pos:pos+8], t.Symbols[c])
		pos += int(t.Lens[c])
	}
	return out[:pos], nil
}

// DecompressBlock FSST-decompresses every value of the variable block in and
// returns a new variable block with offsets of the same width starting at 0.
func (t *FSSTTable) DecompressBlock(in Block) (Block, error) {
	if err := checkVariable("fsst", in); err != nil {
		return Block{}, err
	}
	if !t.Compressed {
		return copyBlockVerbatim(in), nil
	}
	if d := t.decoder(); d != nil {
		_, out, err := decompressBlockAppend(d, nil, in)
		return out, err
	}
	return t.decompressBlockGeneric(in)
}

// AppendBlock FSST-decompresses every value of the variable block in and
// appends the bytes to dst. It returns the grown dst and a variable block
// over the appended bytes (Data aliases dst; offsets, of in's width, start
// at 0). Checks and errors are DecompressBlock's.
func (t *FSSTTable) AppendBlock(dst []byte, in Block) ([]byte, Block, error) {
	if err := checkVariable("fsst", in); err != nil {
		return dst, Block{}, err
	}
	if d := t.decoder(); t.Compressed && d != nil {
		return decompressBlockAppend(d, dst, in)
	}
	out, err := t.DecompressBlock(in)
	if err != nil {
		return dst, Block{}, err
	}
	base := len(dst)
	dst = append(dst, out.Data...)
	out.Data = dst[base:]
	return dst, out, nil
}

// decoder returns the decoding layout of t, or nil when its symbols do not
// allow the fast path.
func (t *FSSTTable) decoder() *fsstDecoder {
	if t.dec != nil {
		return t.dec
	}
	d := new(fsstDecoder)
	if newFSSTDecoder(t, d) {
		return d
	}
	return nil
}

// decompressBlockGeneric decompresses a validated block value by value with
// Decompress (for hand-built tables with symbol lengths outside 1..8).
func (t *FSSTTable) decompressBlockGeneric(in Block) (Block, error) {
	out := Block{Kind: KindVariable, NumValues: in.NumValues, OffsetBits: in.OffsetBits}
	out.Offsets = make([]byte, 0, len(in.Offsets))
	out.Offsets = appendUint(out.Offsets, 0, in.OffsetBits)
	// Symbols average a few bytes, so start at 3x the compressed size.
	data := make([]byte, 0, 3*len(in.Data)+64)
	if !t.Compressed {
		data = make([]byte, 0, len(in.Data))
	}
	for i := uint64(0); i < in.NumValues; i++ {
		v := valueAt(in, i)
		var err error
		if data, err = t.Decompress(data, v); err != nil {
			return Block{}, err
		}
		if in.OffsetBits == 32 && uint64(len(data)) > 0xFFFFFFFF {
			return Block{}, fmt.Errorf("%w: fsst: decompressed data overflows 32-bit offsets", ErrCorrupt)
		}
		out.Offsets = appendUint(out.Offsets, uint64(len(data)), in.OffsetBits)
	}
	out.Data = data
	return out, nil
}

// Compress appends the FSST encoding of src to dst using a greedy
// longest-symbol match (escaping bytes no symbol covers). It is simple, not
// the reference encoder, and is meant for tests and small writers.
func (t *FSSTTable) Compress(dst, src []byte) []byte {
	if !t.Compressed {
		return append(dst, src...)
	}
	for i := 0; i < len(src); {
		best, bestLen := -1, 0
		for c := 0; c < t.NumSymbols; c++ {
			l := int(t.Lens[c])
			if l > bestLen && l <= len(src)-i && t.matches(c, src[i:i+l]) {
				best, bestLen = c, l
			}
		}
		if best < 0 {
			dst = append(dst, fsstEscape, src[i])
			i++
			continue
		}
		dst = append(dst, byte(best))
		i += bestLen
	}
	return dst
}

func (t *FSSTTable) matches(c int, s []byte) bool {
	var sym [8]byte
	binary.LittleEndian.PutUint64(sym[:], t.Symbols[c])
	return string(sym[:len(s)]) == string(s)
}

// Serialize returns the 2312-byte serialized form of t.
func (t *FSSTTable) Serialize() []byte {
	out := make([]byte, FSSTTableSize)
	info := uint64(fsstMagic)<<32 | uint64(t.NumSymbols&255)
	if t.Compressed {
		info |= 1 << 24
	}
	binary.LittleEndian.PutUint64(out, info)
	for i := 0; i < t.NumSymbols; i++ {
		binary.LittleEndian.PutUint64(out[8+8*i:], t.Symbols[i])
		out[8+8*t.NumSymbols+i] = t.Lens[i]
	}
	return out
}

// FSSTEncoding returns the codec tree Fsst{symbol_table, values}.
func FSSTEncoding(table []byte, values *pb.CompressiveEncoding) *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Fsst{Fsst: &pb.Fsst{
		SymbolTable: table, Values: values}}}
}

// FSSTMiniBlockEncoder stores FSST-compressed strings as Variable
// mini-block chunks; the page's symbol table goes into the encoding (Lance:
// FsstMiniBlockEncoder). Compressed holds the page's values compressed
// with Table (FSSTEncoder.CompressValues); the values passed to Next and
// Encode are ignored.
type FSSTMiniBlockEncoder struct {
	Table      []byte  // serialized 2312-byte symbol table
	Compressed *Values // the compressed strings
	Inner      VariableEncoder
}

// Encoding implements MiniBlockEncoder.
func (c FSSTMiniBlockEncoder) Encoding() *pb.CompressiveEncoding {
	return FSSTEncoding(c.Table, c.Inner.Encoding())
}

// NumBuffers implements MiniBlockEncoder.
func (c FSSTMiniBlockEncoder) NumBuffers() int { return 1 }

// Name implements MiniBlockEncoder.
func (c FSSTMiniBlockEncoder) Name() string { return "fsst" }

// Next implements MiniBlockEncoder.
func (c FSSTMiniBlockEncoder) Next(_ *Values, start, maxValues int) int {
	return c.Inner.Next(c.Compressed, start, maxValues)
}

// Encode implements MiniBlockEncoder.
func (c FSSTMiniBlockEncoder) Encode(_ *Values, start, end int, tmp *[]byte) [][]byte {
	return c.Inner.Encode(c.Compressed, start, end, tmp)
}
