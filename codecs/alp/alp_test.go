package alp

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lancego/lancego/codecs"
)

func f64Raw(v []float64) []byte {
	b := make([]byte, 0, 8*len(v))
	for _, x := range v {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	return b
}

func f32Raw(v []float32) []byte {
	b := make([]byte, 0, 4*len(v))
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return b
}

// priceWalk is a random walk of prices with two decimals.
func priceWalk(n int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 1))
	v, p := make([]float64, n), 10000
	for i := range v {
		p += r.IntN(21) - 10
		v[i] = float64(p) / 100
	}
	return v
}

// sensor is rounded sensor readings with one decimal.
func sensor(n int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 2))
	v := make([]float64, n)
	for i := range v {
		v[i] = math.Round((20+5*math.Sin(float64(i)/50)+r.NormFloat64())*10) / 10
	}
	return v
}

// smooth is a full-precision f64 series (ALP-RD territory).
func smooth(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = math.Sin(float64(i)/100) * 1000
	}
	return v
}

// adversarial64 mixes every special class of f64.
func adversarial64() []float64 {
	v := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(),
		math.Float64frombits(0x7ff0000000000001), math.Float64frombits(0xfff8000000000123),
		math.Float64frombits(0x7ff4000000000000), 5e-324, -5e-324, math.SmallestNonzeroFloat64 * 12345,
		math.MaxFloat64, -math.MaxFloat64, 1.5, -1.5, 0.1, 1e300, 1e-300}
	for i := 0; i < 300; i++ {
		v = append(v, 3.25) // constant run
	}
	for i := 0; i < 300; i++ {
		v = append(v, float64(1-2*(i%2))*float64(i)/10) // alternating signs
	}
	return v
}

func adversarial32() []float32 {
	v := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
		math.Float32frombits(0x7fc00001), math.Float32frombits(0xff800001), math.Float32frombits(0x7fa00000),
		math.Float32frombits(1), math.Float32frombits(0x80000007), math.MaxFloat32, -math.MaxFloat32, 0.1, 1.5}
	for i := 0; i < 300; i++ {
		v = append(v, 7.75)
	}
	for i := 0; i < 300; i++ {
		v = append(v, float32(1-2*(i%2))*float32(i)/4)
	}
	return v
}

// roundTrip encodes raw as chunks (bypassing the page gates) and checks the
// decoded bytes are identical; it returns the encoded size.
func roundTrip(t *testing.T, raw []byte, width int) int {
	t.Helper()
	wb := width / 8
	n := len(raw) / wb
	size := 0
	var out []byte
	for start := 0; start < n; start += MaxChunkValues {
		m := min(n-start, MaxChunkValues)
		v := make([]uint64, m)
		for i := range v {
			v[i] = readWord(raw[(start+i)*wb:], width)
		}
		ch, ok := EncodeChunk(v, width)
		if !ok {
			out = append(out, raw[start*wb:(start+m)*wb]...) // flat chunk
			size += m * wb
			continue
		}
		size += ch.Size()
		var err error
		if out, err = DecodeChunk(out, ch.Bufs, width, m); err != nil {
			t.Fatalf("chunk at %d: %v", start, err)
		}
	}
	if !bytes.Equal(out, raw) {
		for i := 0; i < n; i++ {
			if !bytes.Equal(out[i*wb:(i+1)*wb], raw[i*wb:(i+1)*wb]) {
				t.Fatalf("value %d: got % x want % x", i, out[i*wb:(i+1)*wb], raw[i*wb:(i+1)*wb])
			}
		}
	}
	return size
}

func TestRoundTripDatasets(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	noise := make([]float64, 3000)
	for i := range noise {
		noise[i] = math.Float64frombits(r.Uint64())
	}
	f32s := make([]float32, 2500)
	for i := range f32s {
		f32s[i] = float32(math.Round(r.Float64()*100000)) / 100
	}
	cases := []struct {
		name     string
		raw      []byte
		width    int
		maxRatio float64 // encoded/raw must be at most this
	}{
		{"price-walk", f64Raw(priceWalk(5000, 1)), 64, 0.25},
		{"sensor", f64Raw(sensor(4097, 2)), 64, 0.25},
		{"smooth-rd", f64Raw(smooth(3000)), 64, 0.95},
		{"noise", f64Raw(noise), 64, 2},
		{"adversarial64", f64Raw(adversarial64()), 64, 1.0},
		{"f32-cents", f32Raw(f32s), 32, 0.7},
		{"adversarial32", f32Raw(adversarial32()), 32, 1.0},
		{"one", f64Raw([]float64{math.Copysign(0, -1)}), 64, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			size := roundTrip(t, c.raw, c.width)
			t.Logf("%s: %d → %d bytes", c.name, len(c.raw), size)
			if ratio := float64(size) / float64(len(c.raw)); ratio > c.maxRatio {
				t.Errorf("ratio %.3f > %.3f", ratio, c.maxRatio)
			}
		})
	}
}

// TestAdversarialChunks round-trips every single special value, alone and in
// runs, in both widths, with both paths forced.
func TestAdversarialChunks(t *testing.T) {
	for _, x := range adversarial64()[:18] {
		for _, n := range []int{1, 2, 1024} {
			v := make([]float64, n)
			for i := range v {
				v[i] = x
				if i%3 == 1 {
					v[i] = 2.5
				}
			}
			roundTrip(t, f64Raw(v), 64)
		}
	}
	for _, x := range adversarial32()[:13] {
		v := []float32{x, 1.25, x, x}
		roundTrip(t, f32Raw(v), 32)
	}
	// Every NaN payload class in bulk.
	r := rand.New(rand.NewPCG(3, 3))
	nans := make([]float64, 1024)
	for i := range nans {
		nans[i] = math.Float64frombits(0x7ff0000000000000 | r.Uint64()&0x800fffffffffffff | 1)
	}
	roundTrip(t, f64Raw(nans), 64)
	for _, c := range candidates(64) {
		v := []uint64{math.Float64bits(1.5), math.Float64bits(math.Copysign(0, -1)), math.Float64bits(math.NaN())}
		ch, ok := encodeWith(v, 64, c)
		if !ok {
			continue
		}
		out, err := DecodeChunk(nil, ch.Bufs, 64, 3)
		if err != nil || !bytes.Equal(out, f64Raw([]float64{1.5, math.Copysign(0, -1), math.NaN()})) {
			t.Fatalf("candidate %+v: %v % x", c, err, out)
		}
	}
}

// TestHeaderLayout decodes hand-built chunks, fixing the byte layout.
func TestHeaderLayout(t *testing.T) {
	le64 := func(v ...uint64) []byte {
		var b []byte
		for _, x := range v {
			b = binary.LittleEndian.AppendUint64(b, x)
		}
		return b
	}
	cases := []struct {
		name  string
		bufs  [4][]byte
		width int
		want  []float64
	}{
		// FOR, multiply, e=1 f=0: enc 15, 25 → min 15, offsets 0, 10 (raw tail).
		{"for-mul", [4][]byte{le64(0, 10), append([]byte{0, 1, 0, 4}, le64(15)...), nil, nil}, 64, []float64{1.5, 2.5}},
		// FOR, divide, e=2: enc 125, 100 → min 100; exception at 1 = -0.0.
		{"for-div-exc", [4][]byte{le64(25, 0, 0), append([]byte{modeDiv, 2, 0, 5}, le64(100)...),
			{1, 0}, le64(math.Float64bits(math.Copysign(0, -1)))}, 64, []float64{1.25, math.Copysign(0, -1), 1}},
		// Delta, e=0: first 7, min_delta -1 → deltas +2, -1 stored 3, 0.
		{"delta", [4][]byte{le64(0, 3, 0), append(append([]byte{modeDelta, 0, 0, 2}, le64(7)...), le64(math.MaxUint64)...), nil, nil},
			64, []float64{7, 9, 8}},
		// RD, d=8, one dictionary entry: index stream omitted.
		{"rd-one", [4][]byte{le64(0x11, 0x22), {modeRD, 8, 0, 0, 1, 0, 0, 0}, le64(math.Float64bits(1.0) >> 8), nil},
			64, []float64{math.Float64frombits(math.Float64bits(1.0) | 0x11), math.Float64frombits(math.Float64bits(1.0) | 0x22)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := DecodeChunk(nil, c.bufs, c.width, len(c.want))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, f64Raw(c.want)) {
				t.Fatalf("got % x want % x", got, f64Raw(c.want))
			}
		})
	}
}

func TestDecodeRejects(t *testing.T) {
	good, _ := EncodeChunk([]uint64{math.Float64bits(1.5), math.Float64bits(2.5), math.Float64bits(math.NaN())}, 64)
	mut := func(f func(b *[4][]byte)) [4][]byte {
		var b [4][]byte
		for i := range b {
			b[i] = append([]byte(nil), good.Bufs[i]...)
		}
		f(&b)
		return b
	}
	cases := []struct {
		name string
		bufs [4][]byte
		n    int
	}{
		{"zero values", good.Bufs, 0},
		{"too many values", good.Bufs, 1025},
		{"short header", mut(func(b *[4][]byte) { b[1] = b[1][:3] }), 3},
		{"unknown mode bit", mut(func(b *[4][]byte) { b[1][0] |= 0x10 }), 3},
		{"exponent too big", mut(func(b *[4][]byte) { b[1][1] = 19 }), 3},
		{"f > e", mut(func(b *[4][]byte) { b[1][2] = b[1][1] + 1 }), 3},
		{"bit width > 64", mut(func(b *[4][]byte) { b[1][3] = 65 }), 3},
		{"odd exception positions", mut(func(b *[4][]byte) { b[2] = append(b[2], 0) }), 3},
		{"exception value length", mut(func(b *[4][]byte) { b[3] = b[3][:7] }), 3},
		{"exception out of range", mut(func(b *[4][]byte) { b[2][0] = 9 }), 3},
		{"payload short", mut(func(b *[4][]byte) { b[0] = b[0][:1] }), 3},
		{"rd bad width", [4][]byte{nil, {modeRD, 0, 0, 0, 1, 0, 0, 0}, make([]byte, 8), nil}, 1},
		{"rd dict too big", [4][]byte{make([]byte, 8), {modeRD, 8, 0, 0, 2, 0, 0, 0}, make([]byte, 16), nil}, 1},
		{"rd dict entry too wide", [4][]byte{make([]byte, 8), {modeRD, 8, 0, 0, 1, 0, 0, 0}, le(math.MaxUint64), nil}, 1},
		{"rd index out of dict", [4][]byte{make([]byte, 16), {modeRD, 8, 2, 0, 2, 0, 0, 0}, make([]byte, 16), {0, 0, 3, 0}}, 2},
		{"rd reserved byte", [4][]byte{make([]byte, 8), {modeRD, 8, 0, 1, 1, 0, 0, 0}, make([]byte, 8), nil}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := DecodeChunk(nil, c.bufs, 64, c.n)
			if !errors.Is(err, codecs.ErrCorrupt) {
				t.Fatalf("err = %v, want ErrCorrupt", err)
			}
		})
	}
	if _, err := DecodeChunk(nil, good.Bufs, 16, 3); !errors.Is(err, codecs.ErrUnsupported) {
		t.Fatalf("width 16: %v", err)
	}
}

func le(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }
