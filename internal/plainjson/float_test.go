package plainjson

import (
	"math"
	"math/big"
	"math/rand/v2"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/lancego/lancego/internal/testkit"
)

// TestFloat16Exhaustive: every finite binary16 value prints as a decimal
// that rounds back to it (nearer to it than to either neighbour, or
// halfway with an even significand), checked in exact rational
// arithmetic.
func TestFloat16Exhaustive(t *testing.T) {
	for b := range 1 << 16 {
		f := half(uint16(b))
		s := string(AppendFloat16(nil, uint16(b)))
		if math.IsNaN(f) || math.IsInf(f, 0) {
			if s[0] != '"' {
				t.Fatalf("%#04x: %s, want a string", b, s)
			}
			continue
		}
		d, ok := new(big.Rat).SetString(s)
		if !ok {
			t.Fatalf("%#04x: %q is not a number", b, s)
		}
		if f == 0 {
			if d.Sign() != 0 || (b == 0x8000) != strings.HasPrefix(s, "-") {
				t.Fatalf("%#04x: %s", b, s)
			}
			continue
		}
		mag := uint16(b) & 0x7fff
		lo, hi := half(mag-1), 65536.0
		if mag < 0x7bff {
			hi = half(mag + 1)
		}
		a := new(big.Rat).Abs(d)
		x := new(big.Rat).SetFloat64(math.Abs(f))
		loMid := new(big.Rat).Add(x, new(big.Rat).SetFloat64(lo))
		loMid.Quo(loMid, big.NewRat(2, 1))
		hiMid := new(big.Rat).Add(x, new(big.Rat).SetFloat64(hi))
		hiMid.Quo(hiMid, big.NewRat(2, 1))
		even := b&1 == 0
		inLo, inHi := a.Cmp(loMid) > 0 || even && a.Cmp(loMid) == 0, a.Cmp(hiMid) < 0 || even && a.Cmp(hiMid) == 0
		if !inLo || !inHi || (d.Sign() < 0) != (f < 0) {
			t.Fatalf("%#04x (%v): %s does not round back", b, f, s)
		}
	}
}

// TestFloat16ShortestAsNumpy: the same decimal as numpy's shortest repr
// of every positive finite binary16 value (numpy from LANCE_PY's venv).
func TestFloat16ShortestAsNumpy(t *testing.T) {
	py := testkit.LancePython()
	if py == "" {
		t.Skip("no python venv (set LANCE_PY)")
	}
	script := `import numpy as np
v = np.arange(0x7c00, dtype=np.uint16).view(np.float16)
print("\n".join(str(x) for x in v))`
	out, err := exec.Command(py, "-c", script).Output()
	if err != nil {
		t.Fatalf("numpy: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 0x7c00 {
		t.Fatalf("numpy printed %d values", len(lines))
	}
	for b, want := range lines {
		got := string(AppendFloat16(nil, uint16(b)))
		g, ok1 := new(big.Rat).SetString(got)
		w, ok2 := new(big.Rat).SetString(want)
		if !ok1 || !ok2 || g.Cmp(w) != 0 || sigDigits(got) != sigDigits(want) {
			t.Errorf("%#04x: %s, numpy %s", b, got, want)
		}
	}
}

// sigDigits counts the significant digits of a decimal number's text.
func sigDigits(s string) int {
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		s = s[:i]
	}
	s = strings.NewReplacer("-", "", ".", "").Replace(s)
	s = strings.Trim(s, "0")
	return max(len(s), 1)
}

// TestFloatRoundTrip: random float32 and float64 bit patterns print as
// numbers that parse back to the same bits (NaN and infinities as
// strings), positional in [1e-6, 1e21).
func TestFloatRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		f64 := math.Float64frombits(r.Uint64())
		f32 := math.Float32frombits(r.Uint32())
		for _, c := range []struct {
			v    float64
			bits int
		}{{f64, 64}, {float64(f32), 32}} {
			s := string(AppendFloat(nil, c.v, c.bits))
			if math.IsNaN(c.v) || math.IsInf(c.v, 0) {
				if s != `"NaN"` && s != `"Infinity"` && s != `"-Infinity"` {
					t.Fatalf("%v: %s", c.v, s)
				}
				continue
			}
			back, err := strconv.ParseFloat(s, c.bits)
			if err != nil || math.Float64bits(back) != math.Float64bits(c.v) {
				t.Fatalf("%v (%d bits): %s reads back as %v, %v", c.v, c.bits, s, back, err)
			}
			a := math.Abs(c.v)
			if exp := strings.ContainsAny(s, "e"); exp != (a != 0 && (a < 1e-6 || a >= 1e21)) && c.bits == 64 {
				t.Fatalf("%v: %s", c.v, s)
			}
		}
	}
}
