package lance

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/format"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// maxDictEntries caps the dictionary size (Lance: 100 000 entries).
const maxDictEntries = 100_000

// encodeDictionaryLeaf writes an Arrow dictionary column: the values are
// materialized and always dictionary-encoded again.
func encodeDictionaryLeaf(s *shredded, l *wleaf, cfg *writerConfig) (*encodedPage, error) {
	d := s.leaf.(*array.Dictionary)
	slots := make([]int, len(s.idx))
	for j, i := range s.idx {
		slots[j] = -1
		if i >= 0 && d.IsValid(i) {
			slots[j] = d.GetValueIndex(i)
		}
	}
	v, err := gatherValues(d.Dictionary(), slots, s.sc)
	if err != nil {
		return nil, err
	}
	if v.kind != valVariable && v.kind != valFixed {
		return encodeValues(s, v, l, cfg)
	}
	return encodeDictionary(s, v, l.params, cfg.version)
}

// dictEligible reports whether Lance would consider dictionary encoding v.
func dictEligible(v *values, ver format.Version) bool {
	switch v.kind {
	case valVariable:
		return true
	case valFixed:
		return v.bits == 128 || (ver >= format.V2_2 && v.bits == 64)
	}
	return false
}

// tryDictionary dictionary-encodes v when the size estimate says it pays
// (Lance's should_dictionary_encode).
func tryDictionary(s *shredded, v *values, p encodingParams, ver format.Version) (*encodedPage, bool, error) {
	if !dictEligible(v, ver) || uint64(v.n) < p.dictTooSmall || p.compression == "none" {
		return nil, false, nil
	}
	card := cardinality(v, min(uint64(v.n)/max(p.dictDivisor, 1), maxDictEntries))
	if card < 0 {
		return nil, false, nil
	}
	var raw, est uint64
	n := uint64(v.n)
	if v.kind == valFixed {
		raw = n * uint64(v.bits/8)
		est = uint64(card)*uint64(v.bits/8) + n*4
	} else {
		w := uint64(4)
		if v.large {
			w = 8
		}
		raw = uint64(len(v.data)) + (n+1)*w
		avg := uint64(len(v.data)) / n
		est = uint64(card)*avg + uint64(card)*w + n*w
	}
	if raw == 0 || float64(est)/float64(raw) >= p.dictSizeRatio {
		return nil, false, nil
	}
	page, err := encodeDictionary(s, v, p, ver)
	return page, err == nil, err
}

// cardinality counts distinct values, or returns -1 once above limit.
func cardinality(v *values, limit uint64) int {
	seen := newValueSet(v, int(min(limit, uint64(v.n))))
	for i := 0; i < v.n; i++ {
		seen.add(i)
		if uint64(len(seen.first)) > limit {
			return -1
		}
	}
	return len(seen.first)
}

// valueSet numbers the distinct values of v (by their bytes) in order of
// first appearance, without a string per value.
type valueSet struct {
	v     *values
	seed  maphash.Seed
	slots []int32 // id+1 of the value hashed there, 0 = empty
	first []int   // value index of each id
}

func newValueSet(v *values, hint int) *valueSet {
	size := 64
	for size < 2*hint && size < 1<<30 {
		size *= 2
	}
	return &valueSet{v: v, seed: maphash.MakeSeed(), slots: v.sc.i32sZero(size), first: v.sc.intsCap(min(hint+1, v.n))}
}

// add returns the id of value i (a new id for a new value).
func (s *valueSet) add(i int) int {
	b := valueBytes(s.v, i)
	mask := uint64(len(s.slots) - 1)
	for h := s.hash(b) & mask; ; h = (h + 1) & mask {
		id := s.slots[h] - 1
		if id < 0 {
			s.slots[h] = int32(len(s.first)) + 1
			s.first = append(s.first, i)
			if 2*len(s.first) > len(s.slots) {
				s.grow()
			}
			return len(s.first) - 1
		}
		if bytes.Equal(valueBytes(s.v, s.first[id]), b) {
			return int(id)
		}
	}
}

// hash hashes a value: 8-byte values by multiplication, others with
// maphash.
func (s *valueSet) hash(b []byte) uint64 {
	if len(b) == 8 {
		x := binary.LittleEndian.Uint64(b) * 0x9E3779B97F4A7C15
		return x ^ x>>29
	}
	return maphash.Bytes(s.seed, b)
}

// grow doubles the table.
func (s *valueSet) grow() {
	s.slots = s.v.sc.i32sZero(2 * len(s.slots))
	mask := uint64(len(s.slots) - 1)
	for id, i := range s.first {
		h := s.hash(valueBytes(s.v, i)) & mask
		for s.slots[h] != 0 {
			h = (h + 1) & mask
		}
		s.slots[h] = int32(id) + 1
	}
}

// valueBytes returns the bytes of value i (fixed or variable).
func valueBytes(v *values, i int) []byte {
	if v.kind == valVariable {
		return v.data[v.offsets[i]:v.offsets[i+1]]
	}
	w := v.bits / 8
	return v.data[i*w : (i+1)*w]
}

// encodeDictionary writes a mini-block page of indices with a dictionary
// buffer (2.1: plain block codec; 2.2: General(lz4) by default).
func encodeDictionary(s *shredded, v *values, p encodingParams, ver format.Version) (*encodedPage, error) {
	set := newValueSet(v, 1024)
	idxBits := 32
	if v.large {
		idxBits = 64
	}
	ind := &values{kind: valFixed, n: v.n, bits: idxBits, valid: v.valid, data: make([]byte, 0, v.n*idxBits/8)}
	for i := 0; i < v.n; i++ {
		ind.data = appendLE(ind.data, uint64(set.add(i)), idxBits/8)
	}
	order := set.first
	dictBuf, dictEnc, err := dictionaryBuffer(v, order, p, ver)
	if err != nil {
		return nil, err
	}
	page, err := encodeMiniBlock(s, ind, chooseMiniCodec(ind, p, ver), ver, int(p.miniblockValues))
	if err != nil {
		return nil, err
	}
	ml := page.layout.GetMiniBlockLayout()
	ml.Dictionary, ml.NumDictionaryItems = dictEnc, uint64(len(order))
	page.buffers = append(page.buffers[:2], append([][]byte{dictBuf}, page.buffers[2:]...)...)
	page.desc = "miniblock/dictionary"
	return page, nil
}

// dictionaryBuffer encodes the distinct values (rows order of v) with a
// block codec.
func dictionaryBuffer(v *values, order []int, p encodingParams, ver format.Version) ([]byte, *pb.CompressiveEncoding, error) {
	var raw []byte
	var enc *pb.CompressiveEncoding
	if v.kind == valVariable {
		vals := make([][]byte, len(order))
		for j, i := range order {
			vals[j] = valueBytes(v, i)
		}
		blk := codecs.NewVariableBlock(vals)
		bitsOff := 32
		if v.large {
			blk = variableBlock64(vals)
			bitsOff = 64
		}
		var err error
		if raw, err = codecs.EncodeVariableBlock(nil, blk); err != nil {
			return nil, nil, err
		}
		enc = variableCodec{offsetBits: bitsOff}.encoding()
	} else {
		for _, i := range order {
			raw = append(raw, valueBytes(v, i)...)
		}
		enc = flatEnc(uint64(v.bits))
	}
	scheme := p.dictValuesComp
	if scheme == "" && ver >= format.V2_2 {
		scheme = "lz4"
	}
	return generalBlock(v.sc.pool(), raw, enc, scheme, p.dictValuesLevel)
}

// variableBlock64 builds a variable block with 64-bit offsets.
func variableBlock64(vals [][]byte) codecs.Block {
	b := codecs.Block{Kind: codecs.KindVariable, NumValues: uint64(len(vals)), OffsetBits: 64}
	b.Offsets = appendLE(nil, 0, 8)
	for _, x := range vals {
		b.Data = append(b.Data, x...)
		b.Offsets = appendLE(b.Offsets, uint64(len(b.Data)), 8)
	}
	return b
}

// generalBlock wraps a block buffer in General(lz4|zstd) when asked.
func generalBlock(pools *writerPools, raw []byte, inner *pb.CompressiveEncoding, scheme string, level int) ([]byte, *pb.CompressiveEncoding, error) {
	var out []byte
	var err error
	var s pb.CompressionScheme
	switch scheme {
	case "lz4":
		out, s = compressLZ4(raw), pb.CompressionScheme_COMPRESSION_ALGORITHM_LZ4
	case "zstd":
		out, err = codecs.CompressZstdLanceWith(pools.zstdEncoders(), nil, raw, level)
		s = pb.CompressionScheme_COMPRESSION_ALGORITHM_ZSTD
	default:
		return raw, inner, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return out, generalEnc(s, level, inner), nil
}

// compressLZ4 compresses with Lance's LZ4 framing (never fails for sane sizes).
func compressLZ4(raw []byte) []byte {
	out, err := codecs.CompressLZ4(nil, raw)
	if err != nil {
		return nil
	}
	return out
}

// generalEnc builds General{compression, values}.
func generalEnc(s pb.CompressionScheme, level int, inner *pb.CompressiveEncoding) *pb.CompressiveEncoding {
	bc := &pb.BufferCompression{Scheme: s}
	if level != 0 {
		l := int32(level)
		bc.Level = &l
	}
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_General{General: &pb.General{
		Compression: bc, Values: inner}}}
}
