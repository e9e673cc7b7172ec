package pcodec

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/lancego/lancego/codecs"
)

// MaxLevel is the highest compression level (pco's levels are 0–12).
const MaxLevel = 12

// DefaultLevel is pco's and Lance's default compression level.
const DefaultLevel = 8

// encVar is one latent variable ready to write.
type encVar struct {
	bits    uint
	body    []uint64 // latents after delta encoding
	state   []uint64 // delta state
	skip    int      // latents per page not in the body (the primary's delta state size)
	bins    []encBin
	sizeLog uint
	symbol  []uint32 // bin of each body latent
}

// chunkPlan is a fully chosen chunk encoding.
type chunkPlan struct {
	mode      int
	base      uint64 // FloatMult base latent (ordered)
	k         uint
	order     int  // consecutive delta order (0: none)
	lookback  bool // lookback delta (vars[0] holds the lookbacks)
	windowLog uint
	vars      []*encVar
}

// Compress encodes n = len(raw)/(bits/8) numbers of type t (little-endian in
// raw) as one pco standalone file (standalone version 3, format 4.1) with a
// single chunk, at a compression level 0–12.
func Compress(raw []byte, t NumberType, level int) ([]byte, error) {
	if t.Bits() == 0 || t.Bits() == 8 {
		return nil, fmt.Errorf("%w: pcodec: number type %v", codecs.ErrUnsupported, t)
	}
	if level < 0 || level > MaxLevel {
		return nil, fmt.Errorf("%w: pcodec: compression level %d outside 0..%d", codecs.ErrUnsupported, level, MaxLevel)
	}
	wb := int(t.Bits() / 8)
	if len(raw)%wb != 0 {
		return nil, fmt.Errorf("%w: pcodec: %d bytes are not whole %v values", codecs.ErrCorrupt, len(raw), t)
	}
	n := len(raw) / wb
	if n > maxEntries {
		return nil, fmt.Errorf("%w: pcodec: %d numbers exceed a chunk's %d", codecs.ErrUnsupported, n, maxEntries)
	}
	w := &bitWriter{}
	w.buf = append(w.buf, standaloneMagic...)
	w.write(3, 8)
	w.write(uint64(t), 8)
	hintBits := uint(max(bits.Len(uint(n)), 1))
	w.write(uint64(hintBits-1), 6)
	w.write(uint64(n), hintBits)
	w.align()
	w.write(4, 8)
	w.write(1, 8)
	if n > 0 {
		nums := make([]uint64, n)
		for i := range nums {
			nums[i] = readNum(raw[i*wb:], t.Bits())
		}
		p := choosePlan(nums, t, level)
		w.write(uint64(t), 8)
		w.write(uint64(n-1), 24)
		writeChunkMeta(w, p, t)
		writePage(w, p, n)
	}
	w.write(0, 8)
	return w.bytes(), nil
}

func readNum(b []byte, bits uint) uint64 {
	var v uint64
	for i := uint(0); i < bits/8; i++ {
		v |= uint64(b[i]) << (8 * i)
	}
	return v
}

// binsLogFor is pco's unoptimized bins log for a level and count.
func binsLogFor(level, n int) uint {
	logN := uint(bits.Len(uint(n)) - 1)
	fast := uint(0)
	if logN > 4 {
		fast = logN - 4
	}
	l := uint(level)
	if l <= fast {
		return l
	}
	return fast + (l-fast)/2
}

// buildVar delta-encodes latents (consecutive order) and trains bins.
func buildVar(latents []uint64, latentBits uint, order int, binsLog uint) *encVar {
	mask, mid := maskOf(latentBits), midOf(latentBits)
	v := &encVar{bits: latentBits}
	body := slices.Clone(latents)
	for o := 0; o < order; o++ {
		if len(body) > 0 {
			v.state = append(v.state, body[0])
			for i := len(body) - 1; i >= 1; i-- {
				body[i] = (body[i] - body[i-1]) & mask
			}
			body = body[1:]
		} else {
			v.state = append(v.state, 0)
		}
	}
	if order > 0 {
		for i := range body {
			body[i] = (body[i] + mid) & mask
		}
	}
	v.body = body
	v.skip = order
	v.train(binsLog)
	return v
}

// train chooses the variable's bins and assigns each body latent its bin.
func (v *encVar) train(binsLog uint) {
	v.bins, v.sizeLog = trainBins(v.body, v.bits, binsLog)
	v.symbol = make([]uint32, len(v.body))
	for i, l := range v.body {
		k, _ := slices.BinarySearchFunc(v.bins, l, func(b encBin, x uint64) int {
			switch {
			case b.upper < x:
				return -1
			case b.lower > x:
				return 1
			}
			return 0
		})
		v.symbol[i] = uint32(k)
	}
}

// estimateBits is the body's approximate size in bits under its bins.
func (v *encVar) estimateBits() float64 {
	total := float64(uint64(1) << v.sizeLog)
	var s float64
	for _, b := range v.bins {
		s += float64(b.count) * (float64(b.offsetBits) + log2(total/float64(b.weight)))
		s += float64(v.sizeLog + v.bits + offsetBitsWidth(v.bits))
	}
	return s + float64(len(v.state))*float64(v.bits)
}
