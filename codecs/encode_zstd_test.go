package codecs

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// zstdInputs are inputs for the literals-only frame writer: mini-block-like
// chunks (small u32 offsets before random value bytes: the data where
// libzstd Huffman-codes literals and klauspost does not), sizes around the
// literal header and block boundaries, one-symbol runs, text and uniformly
// random bytes.
func zstdInputs() map[string][]byte {
	r := rand.New(rand.NewPCG(7, 2026))
	in := map[string][]byte{"empty": {}, "one": {42}}
	chunk := func(values int) []byte {
		var offs, data []byte
		for range values {
			offs = binary.LittleEndian.AppendUint32(offs, uint32(len(data)))
			for range 4 + r.IntN(20) {
				data = append(data, byte(r.IntN(256)))
			}
		}
		return append(binary.LittleEndian.AppendUint32(offs, uint32(len(data))), data...)
	}
	skewed := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.IntN(256) & r.IntN(256))
		}
		return b
	}
	for _, v := range []int{8, 12, 20, 30, 40, 50, 60, 70, 80, 100, 130, 160, 200, 250, 300, 400, 600, 800, 1000, 1500, 2000, 3000, 4000, 6000} {
		in[fmt.Sprintf("chunk_%d", v)] = chunk(v)
	}
	for _, n := range []int{16, 17, 255, 256, 1023, 1024, 1025, 16383, 16384, 65791, 65792, 131072, 131073, 300000} {
		in[fmt.Sprintf("skewed_%d", n)] = skewed(n)
	}
	in["run_5000"] = bytes.Repeat([]byte{7}, 5000)
	in["run_200000"] = bytes.Repeat([]byte{9}, 200000)
	in["text"] = []byte(strings.Repeat("lance column page chunk dictionary value offset ", 400))
	uniform := make([]byte, 70000)
	for i := range uniform {
		uniform[i] = byte(r.IntN(256))
	}
	in["uniform_70000"] = uniform
	return in
}

// TestZstdLiteralsFrameRoundTrip: klauspost's decoder reads every frame
// back, and a frame is never bigger than the input plus framing.
func TestZstdLiteralsFrameRoundTrip(t *testing.T) {
	dec, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	for name, src := range zstdInputs() {
		frame, ok := appendZstdLiteralsFrame(nil, src, nil)
		if !ok {
			t.Fatalf("%s: refused", name)
		}
		got, err := dec.DecodeAll(frame, nil)
		if err != nil || !bytes.Equal(got, src) {
			t.Fatalf("%s: %v (%d of %d bytes)", name, err, len(got), len(src))
		}
		if bound := len(src) + 9 + 3*(len(src)/zstdMaxBlockSize+1); len(frame) > bound {
			t.Errorf("%s: %d-byte frame for %d bytes, bound %d", name, len(frame), len(src), bound)
		}
	}
	if _, ok := appendZstdLiteralsFrame(nil, make([]byte, zstdLitsFrameMaxSize+1), nil); ok {
		t.Error("frame past the single-segment limit accepted")
	}
}

// TestZstdLiteralsFrameReference: the system's libzstd (through
// testdata/zstdref/zstd.py) decodes our literals-only frames, and on the
// mini-block-like chunks CompressZstdLance shrinks exactly when libzstd's
// level 3 does: the decision Lance's General(zstd) keep-if-smaller check
// makes. Skipped without python3 or libzstd.
func TestZstdLiteralsFrameReference(t *testing.T) {
	py := os.Getenv("LANCE_PY")
	if py == "" {
		py = "python3"
	}
	if _, err := exec.LookPath(py); err != nil {
		t.Skip("no python: ", err)
	}
	dir := t.TempDir()
	inputs := zstdInputs()
	var list strings.Builder
	for name, src := range inputs {
		p := filepath.Join(dir, name)
		frame, _ := appendZstdLiteralsFrame(nil, src, nil)
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p+".ours", frame, 0o644); err != nil {
			t.Fatal(err)
		}
		list.WriteString(p + "\n")
	}
	cmd := exec.Command(py, filepath.Join("..", "testdata", "zstdref", "zstd.py"))
	cmd.Stdin = strings.NewReader(list.String())
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 3 {
		t.Skip("no libzstd shared library")
	}
	if err != nil {
		t.Fatalf("zstd.py: %v\n%s", err, out)
	}
	t.Logf("libzstd %s", bytes.TrimSpace(out))
	for name, src := range inputs {
		p := filepath.Join(dir, name)
		if got, err := os.ReadFile(p + ".out"); err != nil || !bytes.Equal(got, src) {
			t.Errorf("%s: libzstd decoded %d of %d bytes (%v)", name, len(got), len(src), err)
		}
		if !strings.HasPrefix(name, "chunk_") {
			continue
		}
		ref, err := os.ReadFile(p + ".zst")
		if err != nil {
			t.Fatal(err)
		}
		ours, err := CompressZstdLance(nil, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		ours = ours[8:] // the size prefix is Lance's, not zstd's
		if (len(ours) < len(src)) != (len(ref) < len(src)) {
			t.Errorf("%s (%d bytes): ours %d bytes, libzstd %d: they disagree on shrinking", name, len(src), len(ours), len(ref))
		}
	}
}

// FuzzZstdLiteralsFrame: every literals-only frame decodes to its input.
func FuzzZstdLiteralsFrame(f *testing.F) {
	for _, b := range zstdInputs() {
		if len(b) <= 5000 {
			f.Add(b)
		}
	}
	dec, err := zstd.NewReader(nil)
	if err != nil {
		f.Fatal(err)
	}
	defer dec.Close()
	f.Fuzz(func(t *testing.T, src []byte) {
		frame, ok := appendZstdLiteralsFrame(nil, src, nil)
		if !ok {
			t.Fatalf("%d bytes refused", len(src))
		}
		got, err := dec.DecodeAll(frame, nil)
		if err != nil || !bytes.Equal(got, src) {
			t.Fatalf("round trip: %v (%d of %d bytes)", err, len(got), len(src))
		}
	})
}
