package indices

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// errPosting is wrapped by every malformed-posting-list error.
var errPosting = errors.New("inverted: malformed posting list")

const postingBlock = 128

// unpack4x decodes one BitPacker4x block of 128 values of nbits bits from b (16·nbits bytes)
// into out; sorted adds each value to the previous one, starting at initial.
func unpack4x(b []byte, nbits int, sorted bool, initial uint32, out *[postingBlock]uint32) error {
	if nbits > 32 || len(b) < 16*nbits {
		return fmt.Errorf("%w: bit width %d with %d bytes", errPosting, nbits, len(b))
	}
	for lane := 0; lane < 4; lane++ {
		bit := 0
		for j := 0; j < 32; j++ {
			var v uint64
			for got := 0; got < nbits; {
				w, off := bit/32, bit%32
				word := binary.LittleEndian.Uint32(b[(w*4+lane)*4:])
				take := min(32-off, nbits-got)
				v |= uint64((word>>off)&uint32((uint64(1)<<take)-1)) << got
				got += take
				bit += take
			}
			out[j*4+lane] = uint32(v)
		}
	}
	if sorted {
		prev := initial
		for i := range out {
			prev += out[i]
			out[i] = prev
		}
	}
	return nil
}

// Postings is a decoded posting list: doc ids (row numbers of part_p_docs) and term frequencies.
type Postings struct {
	Docs, Freqs []uint32
}

// DecodePostings decodes the blocks of one token's `_posting` list holding n postings:
// full blocks of 128 (f32 max score, u32 first doc, BitPacker4x deltas, BitPacker4x freqs)
// then a tail block (f32 max score, then fixed32 doc ids and freqs for format version 1, or
// LEB128 doc-id deltas and freqs for versions 2 and 3).
func DecodePostings(blocks [][]byte, n uint64, formatVersion int) (Postings, error) {
	if n > uint64(len(blocks))*postingBlock {
		return Postings{}, fmt.Errorf("%w: %d postings in %d blocks", errPosting, n, len(blocks))
	}
	p := Postings{Docs: make([]uint32, 0, n), Freqs: make([]uint32, 0, n)}
	var vals [postingBlock]uint32
	for bi, b := range blocks {
		left := n - uint64(len(p.Docs))
		if left == 0 {
			break
		}
		if len(b) < 4 {
			return p, fmt.Errorf("%w: block %d of %d bytes", errPosting, bi, len(b))
		}
		b = b[4:] // block max score
		if left >= postingBlock {
			if err := decodeFullBlock(b, &vals, &p); err != nil {
				return p, fmt.Errorf("block %d: %w", bi, err)
			}
			continue
		}
		if err := decodeTail(b, int(left), formatVersion, &p); err != nil {
			return p, fmt.Errorf("block %d: %w", bi, err)
		}
	}
	if uint64(len(p.Docs)) != n {
		return p, fmt.Errorf("%w: %d postings decoded, %d expected", errPosting, len(p.Docs), n)
	}
	return p, nil
}

func decodeFullBlock(b []byte, vals *[postingBlock]uint32, p *Postings) error {
	if len(b) < 5 {
		return fmt.Errorf("%w: truncated block header", errPosting)
	}
	first := binary.LittleEndian.Uint32(b)
	nb := int(b[4])
	b = b[5:]
	if err := unpack4x(b, nb, true, first, vals); err != nil {
		return err
	}
	p.Docs = append(p.Docs, vals[:]...)
	b = b[16*nb:]
	if len(b) < 1 {
		return fmt.Errorf("%w: truncated frequencies", errPosting)
	}
	nf := int(b[0])
	if err := unpack4x(b[1:], nf, false, 0, vals); err != nil {
		return err
	}
	p.Freqs = append(p.Freqs, vals[:]...)
	return nil
}

func decodeTail(b []byte, n, formatVersion int, p *Postings) error {
	if formatVersion == 1 {
		if len(b) < 8*n {
			return fmt.Errorf("%w: tail of %d bytes for %d postings", errPosting, len(b), n)
		}
		for i := 0; i < n; i++ {
			p.Docs = append(p.Docs, binary.LittleEndian.Uint32(b[4*i:]))
		}
		for i := 0; i < n; i++ {
			p.Freqs = append(p.Freqs, binary.LittleEndian.Uint32(b[4*(n+i):]))
		}
		return nil
	}
	var doc uint64
	for i := 0; i < 2*n; i++ {
		v, k := binary.Uvarint(b)
		if k <= 0 || v > math.MaxUint32 {
			return fmt.Errorf("%w: bad varint %d of tail", errPosting, i)
		}
		b = b[k:]
		switch {
		case i == 0:
			doc = v
		case i < n:
			doc += v
		}
		if doc > math.MaxUint32 {
			return fmt.Errorf("%w: doc id overflow", errPosting)
		}
		if i < n {
			p.Docs = append(p.Docs, uint32(doc))
		} else {
			p.Freqs = append(p.Freqs, uint32(v))
		}
	}
	return nil
}
