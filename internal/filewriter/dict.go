package filewriter

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"

	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/format"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/internal/lebits"
)

// offsetBytes is the width of a variable-width block's offsets.
func offsetBytes(v *values) uint64 {
	if v.Large {
		return 8
	}
	return 4
}

// sampleSlots returns where the sample of an n-value page is taken, as the
// number of blocks, the values taken from the start of each block (block b
// starts at b*n/blocks) and the sample size; ok is false below 1024
// samples, when Lance skips the sampling gate.
func sampleSlots(n int) (blocks, perBlock, total int, ok bool) {
	count := min(n, dictSampleMax)
	if count < dictSampleMin {
		return 0, 0, 0, false
	}
	blocks = min(dictSampleBlocks, count)
	perBlock = count / blocks
	for b := 0; b < blocks; b++ {
		total += min(perBlock, (b+1)*n/blocks-b*n/blocks)
	}
	return blocks, perBlock, total, total >= dictSampleMin
}

// sampleUniqueRatio is the fraction of distinct values in the sample of v
// (sampleSlots); ok is false when the page is too small to sample.
func sampleUniqueRatio(v *values) (r float64, ok bool) {
	blocks, perBlock, total, ok := sampleSlots(v.N)
	if !ok {
		return 0, false
	}
	set := newValueSet(v, total)
	for b := 0; b < blocks; b++ {
		start, next := b*v.N/blocks, (b+1)*v.N/blocks
		for i := start; i < start+min(perBlock, next-start); i++ {
			set.add(i)
		}
	}
	return float64(len(set.first)) / float64(total), true
}

// buildDictionary numbers the values of v in order of first appearance and
// returns the value set and the indices. With a budget it gives up (nil,
// nil) as soon as the running dictionary breaks it, like Lance's
// dictionary_encode, which checks after every value. Indices are 32-bit,
// as Lance writes them for every value type.
func buildDictionary(v *values, b *dictBudget) (*valueSet, *values) {
	const idxBits = dictIndexBytes * 8
	ind := &values{Values: codecs.Values{Kind: valFixed, N: v.N, Bits: idxBits, Valid: v.Valid, Data: make([]byte, 0, v.N*idxBits/8)}, sc: v.sc, indices: true}
	set := newValueSet(v, 1024)
	var itemBytes, encoded uint64 // dictionary value bytes; Lance's running encoded size
	perItem := uint64(0)          // offset bytes per dictionary entry
	if v.Kind == valVariable {
		perItem = offsetBytes(v)
		encoded = perItem // the leading offset
	}
	for i := 0; i < v.N; i++ {
		entries := len(set.first)
		id := set.add(i)
		ind.Data = lebits.AppendUint(ind.Data, uint64(id), idxBits/8)
		if b == nil {
			continue
		}
		encoded += dictIndexBytes
		if id == entries { // a new entry
			size := uint64(len(valueBytes(v, i)))
			itemBytes += size
			encoded += size + perItem
			if uint64(id) >= b.maxEntries || (v.Kind == valVariable && itemBytes > b.maxValueBytes) {
				return nil, nil
			}
		}
		if encoded > b.maxEncoded {
			return nil, nil
		}
	}
	return set, ind
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
	return &valueSet{v: v, seed: maphash.MakeSeed(), slots: v.sc.i32sZero(size), first: v.sc.intsCap(min(hint+1, v.N))}
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

// hash hashes a value: 8-byte values with a full 64-bit mixer (a bare
// multiply leaves the low bits, which index the table, a function of the
// low input bytes only: 8-byte strings sharing a prefix, or integers
// sharing their low bytes, all collided), others with maphash.
func (s *valueSet) hash(b []byte) uint64 {
	if len(b) == 8 {
		x := binary.LittleEndian.Uint64(b)
		x ^= x >> 33
		x *= 0xff51afd7ed558ccd
		x ^= x >> 33
		x *= 0xc4ceb9fe1a85ec53
		return x ^ x>>33
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

// valueBytes returns the bytes of value i (fixed, fixed-size list row or
// variable).
func valueBytes(v *values, i int) []byte {
	if v.zipped != nil {
		return v.zipped[i*v.zipWidth : (i+1)*v.zipWidth]
	}
	if v.Kind == valVariable {
		return v.Data[v.Offsets[i]:v.Offsets[i+1]]
	}
	w := v.Bits / 8
	if v.Kind == valFSL {
		w = v.RowBits() / 8
	}
	return v.Data[i*w : (i+1)*w]
}

// dictionaryPage writes the indices ind of the values of v as a mini-block
// page with the dictionary (set's values) as an extra buffer (2.1: plain
// block codec; 2.2: General(lz4) by default).
func dictionaryPage(s *shredded, v *values, order []int, ind *values, p encodingParams, ver format.Version) (*encodedPage, error) {
	dictBuf, dictEnc, err := dictionaryBuffer(v, order, p, ver)
	if err != nil {
		return nil, err
	}
	// lance-encoding:compression wraps the indices' codec as any other
	// mini-block codec (pylance 14.0.2: general(lz4, ...) indices)
	page, err := encodeMiniBlock(s, ind, miniCodecFor(ind, p, ver), ver, int(p.miniblockValues))
	if err != nil {
		return nil, err
	}
	ml := page.Layout.GetMiniBlockLayout()
	ml.Dictionary, ml.NumDictionaryItems = dictEnc, uint64(len(order))
	page.Buffers = append(page.Buffers[:2], append([][]byte{dictBuf}, page.Buffers[2:]...)...)
	page.Desc = "miniblock/dictionary"
	return page, nil
}

// dictionaryBuffer encodes the distinct values (rows order of v) with a
// block codec.
func dictionaryBuffer(v *values, order []int, p encodingParams, ver format.Version) ([]byte, *pb.CompressiveEncoding, error) {
	var raw []byte
	var enc *pb.CompressiveEncoding
	if v.Kind == valVariable {
		vals := make([][]byte, len(order))
		for j, i := range order {
			vals[j] = valueBytes(v, i)
		}
		blk := codecs.NewVariableBlock(vals)
		bitsOff := 32
		if v.Large {
			blk = variableBlock64(vals)
			bitsOff = 64
		}
		var err error
		if raw, err = codecs.EncodeVariableBlock(nil, blk); err != nil {
			return nil, nil, err
		}
		enc = codecs.VariableEncoder{OffsetBits: bitsOff}.Encoding()
	} else if v.zipped != nil {
		raw, enc = dictFSLEntries(v, order), codecs.FSLEncoder{V: &v.Values}.Encoding()
	} else {
		for _, i := range order {
			raw = append(raw, valueBytes(v, i)...)
		}
		enc = codecs.FlatEncoding(uint64(v.Bits))
		if v.Kind == valFSL {
			enc = codecs.FSLEncoder{V: &v.Values}.Encoding()
		}
	}
	// 2.1 dictionaries are never compressed, whatever the keys ask
	// (pylance 14.0.2); from 2.2 dict-values-compression (default lz4).
	scheme := p.dictValuesComp
	switch {
	case ver < format.V2_2:
		scheme = ""
	case scheme == "":
		scheme = "lz4"
	}
	return generalBlock(v.sc.pool(), raw, enc, scheme, p.dictValuesLevel)
}

// variableBlock64 builds a variable block with 64-bit offsets.
func variableBlock64(vals [][]byte) codecs.Block {
	b := codecs.Block{Kind: codecs.KindVariable, NumValues: uint64(len(vals)), OffsetBits: 64}
	b.Offsets = lebits.AppendUint(nil, 0, 8)
	for _, x := range vals {
		b.Data = append(b.Data, x...)
		b.Offsets = lebits.AppendUint(b.Offsets, uint64(len(b.Data)), 8)
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
		out, s = codecs.CompressLZ4Block(raw), pb.CompressionScheme_COMPRESSION_ALGORITHM_LZ4
	case "zstd":
		out, err = codecs.CompressZstdLanceWith(pools.zstdEncoders(), nil, raw, level)
		s = pb.CompressionScheme_COMPRESSION_ALGORITHM_ZSTD
	default:
		return raw, inner, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return out, codecs.GeneralEncoding(s, level, inner), nil
}

// fslHasValidity reports whether a fixed-size list page has null items.
func fslHasValidity(v *values) bool {
	for _, d := range v.FSL {
		if d.Validity != nil {
			return true
		}
	}
	return false
}
