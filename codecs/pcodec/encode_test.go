package pcodec

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// series are the size-comparison data sets of the issue: smooth series,
// random walks, vectors and noise, plus adversarial floats.
func series(n int) map[string][]float64 {
	r := rand.New(rand.NewPCG(1, 2))
	smooth, walk, vec, noise, adv := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	p := 100.0
	specials := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, math.MaxFloat64, -1.5}
	for i := range smooth {
		smooth[i] = math.Sin(float64(i)/40) * 100
		p += float64(r.IntN(21)-10) / 100
		walk[i] = math.Round(p*100) / 100
		vec[i] = r.NormFloat64() * 0.1 // an embedding's components
		noise[i] = math.Float64frombits(r.Uint64()>>2 | 0x3000000000000000)
		adv[i] = specials[i%len(specials)]
		if i%3 == 0 {
			adv[i] = float64(1-2*(i%2)) * float64(i)
		}
	}
	repeats := make([]float64, n) // a few random vectors recurring (lookback territory)
	for i := range repeats {
		repeats[i] = vec[(i%37)+37*((i/370)%3)]
	}
	return map[string][]float64{"smooth": smooth, "walk": walk, "vectors": vec, "noise": noise, "adversarial": adv, "repeats": repeats}
}

func rawOf(v []float64, t NumberType) []byte {
	var b []byte
	for _, x := range v {
		switch t {
		case F16:
			b = binary.LittleEndian.AppendUint16(b, f32ToF16(float32(x)))
		case F32:
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(x)))
		default:
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
		}
	}
	return b
}

func TestCompressRoundTrip(t *testing.T) {
	for name, v := range series(3000) {
		for _, typ := range []NumberType{F16, F32, F64} {
			for _, level := range []int{0, 4, 8, 12} {
				raw := rawOf(v, typ)
				enc, err := Compress(raw, typ, level)
				if err != nil {
					t.Fatal(err)
				}
				got, gt, err := Decompress(nil, enc, len(v))
				if err != nil || gt != typ || !bytes.Equal(got, raw) {
					t.Fatalf("%s %v level %d: err %v type %v equal %v", name, typ, level, err, gt, bytes.Equal(got, raw))
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, typ := range []NumberType{I16, U16, I32, U32, I64, U64} {
		wb := int(typ.Bits() / 8)
		raw := make([]byte, 0, 2000*wb)
		x := uint64(0)
		for i := 0; i < 2000; i++ {
			x += uint64(r.IntN(7)) - 3
			if i%500 == 0 {
				x = r.Uint64()
			}
			raw = appendWord(raw, x, typ.Bits())
		}
		enc, err := Compress(raw, typ, 8)
		if err != nil {
			t.Fatal(err)
		}
		if got, gt, err := Decompress(nil, enc, 2000); err != nil || gt != typ || !bytes.Equal(got, raw) {
			t.Fatalf("%v: %v", typ, err)
		}
	}
	if _, err := Compress([]byte{1, 2}, U8, 8); err == nil {
		t.Fatal("u8 accepted")
	}
	for _, n := range []int{0, 1, 2, 3, 255, 256, 257, 1025} {
		raw := rawOf(series(max(n, 1))["walk"][:n], F64)
		enc, err := Compress(raw, F64, 8)
		if err != nil {
			t.Fatal(err)
		}
		if got, _, err := Decompress(nil, enc, n); n > 0 && (err != nil || !bytes.Equal(got, raw)) {
			t.Fatalf("n=%d: %v", n, err)
		}
	}
}

// TestCompressInteropRealPco writes our files, decompresses them with the
// real pco bit for bit, and compares sizes with pco at the same level.
func TestCompressInteropRealPco(t *testing.T) {
	py := os.Getenv("LANCE_PY")
	if py == "" {
		t.Skip("LANCE_PY not set")
	}
	if err := exec.Command(py, "-c", "import pcodec").Run(); err != nil {
		t.Skip("pcodec not importable by LANCE_PY")
	}
	dir := t.TempDir()
	for name, v := range series(4096) {
		for _, typ := range []NumberType{F16, F32, F64} {
			for _, level := range []int{0, 8, 12} {
				raw := rawOf(v, typ)
				enc, err := Compress(raw, typ, level)
				if err != nil {
					t.Fatal(err)
				}
				base := filepath.Join(dir, fmt.Sprintf("%s_%v_l%d", name, typ, level))
				for ext, b := range map[string][]byte{".pco": enc, ".raw": raw, ".meta": []byte(fmt.Sprintf("%v %d", typ, level))} {
					if err := os.WriteFile(base+ext, b, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
	// Integers (classic mode, consecutive/lookback delta): an i64 walk and u32 repeats.
	ints := map[string][]byte{}
	var i64, u32 []byte
	x := int64(-5000)
	for i := 0; i < 4096; i++ {
		x += int64(i%7) - 3
		i64 = binary.LittleEndian.AppendUint64(i64, uint64(x))
		u32 = binary.LittleEndian.AppendUint32(u32, uint32(i%37)*100003)
	}
	ints["i64"], ints["u32"] = i64, u32
	for name, raw := range ints {
		typ := map[string]NumberType{"i64": I64, "u32": U32}[name]
		enc, err := Compress(raw, typ, DefaultLevel)
		if err != nil {
			t.Fatal(err)
		}
		base := filepath.Join(dir, "ints_"+name)
		for ext, b := range map[string][]byte{".pco": enc, ".raw": raw, ".meta": []byte(fmt.Sprintf("%v %d", typ, DefaultLevel))} {
			if err := os.WriteFile(base+ext, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	out, err := exec.Command(py, "../../testdata/pcodec/check.py", dir).Output()
	if err != nil {
		t.Fatalf("check.py: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 6*3*3+2 {
		t.Fatalf("check.py printed %d lines", len(lines))
	}
	for _, line := range lines {
		f := strings.Fields(line)
		ours, _ := strconv.Atoi(f[2])
		theirs, _ := strconv.Atoi(f[3])
		t.Logf("%-24s %s ours %6d pco %6d (%+.1f%%)", f[0], f[1], ours, theirs, 100*float64(ours-theirs)/float64(theirs))
		if f[1] != "OK" {
			t.Errorf("%s: real pco does not decode our file to the same numbers", f[0])
		}
		if !strings.HasPrefix(f[0], "adversarial") && float64(ours) > 1.10*float64(theirs) {
			t.Errorf("%s: %d bytes > 110%% of pco's %d", f[0], ours, theirs)
		}
	}
}
