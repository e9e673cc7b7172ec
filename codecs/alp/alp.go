// Package alp implements the ALP and ALP-RD float codecs of the Lance 2.3
// mini-block grammar (seed "Lance Encoding Strategy", section "ALP"), both
// directions, as pure functions over little-endian bytes.
//
// A chunk holds at most 1,024 f32 or f64 values in four buffers:
//
//	ALP:    0 bit-packed offsets, 1 header, 2 exception positions (u16 LE),
//	        3 exception values (raw IEEE bits, LE)
//	ALP-RD: 0 bit-packed right parts, 1 header, 2 dictionary of left parts
//	        (u64 LE each), 3 bit-packed dictionary indices (empty when
//	        index_bits is 0)
//
// The seed fixes only the first header byte (mode: bit 0 Delta, bit 1
// use_div, bit 2 ALP-RD) and the ALP-RD header; the ALP header's remaining
// field widths are ours (docs/codec-wire-numbers.md):
//
//	FOR:   [mode][e][f][bit_width][min]                      (min: i32|i64 LE)
//	Delta: [mode][e][f][bit_width][first][min_delta]          (i32|i64 LE each)
//	RD:    [mode][d][index_bits][0][dict_len u32 LE]
//
// Offsets are packed with Lance's out-of-line bit-packing (FastLanes blocks of
// 1,024 values, tail packed or raw) in words of the float's width. In Delta
// mode the payload holds n offsets; slot 0 is written 0 and ignored, slot i
// is delta_i − min_delta (mod 2^width). RD right parts are packed in 64-bit
// words, indices in 16-bit words.
package alp

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/lancego/lancego/codecs"
)

// MaxChunkValues is the largest number of values in one ALP chunk.
const MaxChunkValues = 1024

// EntropyGate is the mean byte-position entropy (bits) below which the auto
// mode runs the ALP candidate scan.
const EntropyGate = 4.6

// Mode bits of the first header byte.
const (
	modeDelta = 1 << 0
	modeDiv   = 1 << 1
	modeRD    = 1 << 2
	modeKnown = modeDelta | modeDiv | modeRD
)

// maxExp is the largest decimal exponent per float width: 10^e must be exact
// in the float type and enc must fit its integer word.
func maxExp(width int) int {
	if width == 32 {
		return 10
	}
	return 18
}

// Powers of ten used by both paths; every entry up to 10^22 is exact in f64.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18}

// Negative powers of ten (nearest f64), for the multiply path.
var negPow10 = [...]float64{1e0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8,
	1e-9, 1e-10, 1e-11, 1e-12, 1e-13, 1e-14, 1e-15, 1e-16, 1e-17, 1e-18}

// The same in f32 (conversions of the f64 tables: 10^0..10^10 are exact).
var pow10f32 = [...]float32{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10}

var negPow10f32 = [...]float32{1e0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10}

// Mode is the writer's AlpMode (field metadata lance-encoding:alp).
type Mode int

// The AlpMode values; Auto is the 2.3 default.
const (
	Auto Mode = iota
	Off
	On
)

// ErrBadMode reports an unknown lance-encoding:alp value.
var ErrBadMode = errors.New("alp: lance-encoding:alp must be off, on or auto")

// ParseMode reads a lance-encoding:alp value ("" means auto).
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return Auto, nil
	case "off":
		return Off, nil
	case "on":
		return On, nil
	}
	return Auto, fmt.Errorf("%w: %q", ErrBadMode, s)
}

// String returns the metadata spelling of m.
func (m Mode) String() string {
	switch m {
	case Off:
		return "off"
	case On:
		return "on"
	}
	return "auto"
}

// Chunk is one encoded chunk: its four buffers (Bufs[3] may be empty).
type Chunk struct {
	Bufs [4][]byte
}

// Size is the chunk's total buffer bytes.
func (c *Chunk) Size() int {
	return len(c.Bufs[0]) + len(c.Bufs[1]) + len(c.Bufs[2]) + len(c.Bufs[3])
}

// IsRD reports whether the chunk's header says ALP-RD.
func (c *Chunk) IsRD() bool { return len(c.Bufs[1]) > 0 && c.Bufs[1][0]&modeRD != 0 }

// BytePositionEntropy is the mean, over the byte positions of width-bit
// little-endian values, of the Shannon entropy (bits) of that byte's
// distribution across the values of raw. It is 0 for fewer than one value.
func BytePositionEntropy(raw []byte, width int) float64 {
	wb := width / 8
	if wb == 0 || len(raw) < wb {
		return 0
	}
	n := len(raw) / wb
	var total float64
	var hist [256]int
	for k := 0; k < wb; k++ {
		hist = [256]int{}
		for i := 0; i < n; i++ {
			hist[raw[i*wb+k]]++
		}
		var h float64
		for _, c := range hist {
			if c > 0 {
				p := float64(c) / float64(n)
				h -= p * math.Log2(p)
			}
		}
		total += h
	}
	return total / float64(wb)
}

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: alp: %s", codecs.ErrCorrupt, fmt.Sprintf(format, args...))
}

func checkWidth(width int) error {
	if width != 32 && width != 64 {
		return fmt.Errorf("%w: alp: value width %d not 32 or 64", codecs.ErrUnsupported, width)
	}
	return nil
}
