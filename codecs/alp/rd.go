package alp

import (
	"encoding/binary"
	"slices"

	"github.com/lancego/lancego/codecs"
)

// rdWidths are the right-part widths the ALP-RD encoder sweeps.
var rdWidths = [...]int{8, 16, 24, 32, 40, 48, 56}

// rdCost is the encoded size of v split at right width d, and the dictionary.
func rdCost(v []uint64, d int, scratch []uint64) (int, []uint64) {
	scratch = scratch[:0]
	for _, x := range v {
		scratch = append(scratch, x>>d)
	}
	slices.Sort(scratch)
	dict := slices.Compact(scratch)
	ib := bitLen(uint64(len(dict) - 1))
	size := packedSize(len(v), d, 64) + rdHeaderLen + 8*len(dict)
	if ib > 0 {
		size += packedSize(len(v), ib, 16)
	}
	return size, dict
}

// encodeRD encodes f64 bits v with the cheapest right width; ok is false
// when no split is smaller than the raw bytes or the dictionary needs more
// than 16-bit indices.
func encodeRD(v []uint64) (Chunk, bool) {
	n := len(v)
	scratch := make([]uint64, 0, n)
	bestD, bestSize := 0, n*8
	for _, d := range rdWidths {
		size, dict := rdCost(v, d, scratch)
		if size < bestSize && bitLen(uint64(len(dict)-1)) <= maxIndexBits {
			bestD, bestSize = d, size
		}
	}
	if bestD == 0 {
		return Chunk{}, false
	}
	d := bestD
	_, dict := rdCost(v, d, scratch)
	ib := bitLen(uint64(len(dict) - 1))
	right := make([]byte, 0, n*8)
	idx := make([]byte, 0, n*2)
	rmask := uint64(1)<<d - 1
	for _, x := range v {
		right = binary.LittleEndian.AppendUint64(right, x&rmask)
		k, _ := slices.BinarySearch(dict, x>>d)
		idx = binary.LittleEndian.AppendUint16(idx, uint16(k))
	}
	h := []byte{modeRD, byte(d), byte(ib), 0}
	h = binary.LittleEndian.AppendUint32(h, uint32(len(dict)))
	payload, err := codecs.EncodeOutOfLineBitpacking(nil, right, 64, d, uint64(n))
	if err != nil {
		return Chunk{}, false
	}
	dictBuf := make([]byte, 0, 8*len(dict))
	for _, l := range dict {
		dictBuf = binary.LittleEndian.AppendUint64(dictBuf, l)
	}
	var idxBuf []byte
	if ib > 0 {
		if idxBuf, err = codecs.EncodeOutOfLineBitpacking(nil, idx, 16, ib, uint64(n)); err != nil {
			return Chunk{}, false
		}
	}
	return Chunk{Bufs: [4][]byte{payload, h, dictBuf, idxBuf}}, true
}
