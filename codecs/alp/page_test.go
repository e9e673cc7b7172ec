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

func TestEncodePageDecisions(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	noise := make([]byte, 8*2048)
	for i := 0; i < len(noise); i += 8 {
		binary.LittleEndian.PutUint64(noise[i:], r.Uint64())
	}
	prices := f64Raw(priceWalk(3000, 4))
	cases := []struct {
		name   string
		raw    []byte
		width  int
		opt    Options
		wantOK bool
	}{
		{"off", prices, 64, Options{Mode: Off}, false},
		{"auto prices", prices, 64, Options{Mode: Auto}, true},
		{"on prices", prices, 64, Options{Mode: On}, true},
		{"auto noise gated", noise, 64, Options{Mode: Auto}, false},
		{"on noise not smaller", noise, 64, Options{Mode: On}, false},
		{"chunk over budget", prices, 64, Options{Mode: On, MaxChunkBytes: 64}, false},
		{"f32 noise as 32-bit", noise, 32, Options{Mode: On}, false},
		{"empty", nil, 64, Options{Mode: On}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			chunks, ok, err := EncodePage(c.raw, c.width, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			if ok != c.wantOK {
				t.Fatalf("ok = %v, want %v", ok, c.wantOK)
			}
			if !ok {
				return
			}
			size := 0
			for i := range chunks {
				size += chunks[i].Size()
			}
			if size >= len(c.raw) {
				t.Fatalf("encoded %d ≥ raw %d", size, len(c.raw))
			}
			out, err := DecodePage(nil, chunks, c.width, len(c.raw)/(c.width/8))
			if err != nil || !bytes.Equal(out, c.raw) {
				t.Fatalf("decode: %v", err)
			}
		})
	}
	if _, _, err := EncodePage(make([]byte, 7), 64, Options{}); !errors.Is(err, codecs.ErrCorrupt) {
		t.Fatalf("ragged page: %v", err)
	}
}

func TestBytePositionEntropy(t *testing.T) {
	constant := f64Raw([]float64{1, 1, 1, 1})
	ramp := make([]byte, 256)
	for i := range ramp {
		ramp[i] = byte(i)
	}
	cases := []struct {
		name  string
		raw   []byte
		width int
		want  float64
	}{
		{"constant", constant, 64, 0},
		{"ramp as u32: 64 values per position", append(append(append(append([]byte{}, ramp...), ramp...), ramp...), ramp...), 32, 6},
		{"empty", nil, 64, 0},
	}
	for _, c := range cases {
		if got := BytePositionEntropy(c.raw, c.width); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	// Prices pass the gate, noise does not.
	if e := BytePositionEntropy(f64Raw(priceWalk(4096, 5)), 64); e >= EntropyGate {
		t.Errorf("price walk entropy %.2f ≥ gate", e)
	}
}

func TestParseMode(t *testing.T) {
	for in, want := range map[string]Mode{"": Auto, "auto": Auto, "ON": On, " off ": Off} {
		if got, err := ParseMode(in); err != nil || got != want {
			t.Errorf("%q: %v %v", in, got, err)
		}
		if m, _ := ParseMode(want.String()); m != want {
			t.Errorf("String round trip of %v", want)
		}
	}
	if _, err := ParseMode("sometimes"); !errors.Is(err, ErrBadMode) {
		t.Errorf("bad mode: %v", err)
	}
}

func TestDecodePageChunkCount(t *testing.T) {
	if _, err := DecodePage(nil, nil, 64, 5); !errors.Is(err, codecs.ErrCorrupt) {
		t.Fatal(err)
	}
}

// TestEncodeChunkAlways: chunks no ALP candidate admits (every value an
// exception for f32, which has no ALP-RD) still encode, and decode to the
// same bits; a chunk EncodeChunk accepts is returned unchanged.
func TestEncodeChunkAlways(t *testing.T) {
	cases := []struct {
		name  string
		width int
		v     []uint64
	}{
		{"f32 nan payloads", 32, []uint64{0x7fc00001, 0x7fc00002, 0xffc00003, 0x7f800001}},
		{"f32 one", 32, []uint64{uint64(math.Float32bits(0.1))}},
		{"f64 mixed", 64, []uint64{math.Float64bits(1.5), math.Float64bits(math.Inf(-1)), 0x7ff0000000000123}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ch, ok := EncodeChunkAlways(c.v, c.width)
			if !ok {
				t.Fatal("EncodeChunkAlways refused")
			}
			if want, wok := EncodeChunk(c.v, c.width); wok && want.Size() != ch.Size() {
				t.Fatalf("size %d, EncodeChunk gives %d", ch.Size(), want.Size())
			}
			got, err := DecodeChunk(nil, ch.Bufs, c.width, len(c.v))
			if err != nil {
				t.Fatal(err)
			}
			for i, x := range c.v {
				if y := readWord(got[i*c.width/8:], c.width); y != x {
					t.Fatalf("value %d: %#x, want %#x", i, y, x)
				}
			}
		})
	}
	if _, ok := EncodeChunkAlways(nil, 64); ok {
		t.Fatal("empty chunk accepted")
	}
}
