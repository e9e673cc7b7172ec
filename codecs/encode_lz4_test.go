package codecs

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pierrec/lz4/v4"
)

// lz4Inputs are generated inputs covering the compressor's paths: tiny
// (all literals), repetitive, text-like, random, runs, and inputs on both
// sides of the 64 KiB + 11 table switch and past the 65,535-byte window.
func lz4Inputs() map[string][]byte {
	r := rand.New(rand.NewPCG(4, 2026))
	in := map[string][]byte{"empty": {}}
	words := strings.Fields("lance column page chunk dictionary value offset null list struct the of a")
	text := func(n int) []byte {
		var b []byte
		for len(b) < n {
			b = append(b, words[r.IntN(len(words))]...)
			b = append(b, ' ')
		}
		return b[:n]
	}
	randBytes := func(n, alphabet int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.IntN(alphabet))
		}
		return b
	}
	for _, n := range []int{1, 5, 12, 13, 14, 16, 20, 31, 56, 64, 100, 255, 300, 1000, 4096, 5000, 65535, 65546, 65547, 65548, 70000, 200000} {
		in[fmt.Sprintf("text_%d", n)] = text(n)
		in[fmt.Sprintf("rand_%d", n)] = randBytes(n, 256)
		in[fmt.Sprintf("small_alphabet_%d", n)] = randBytes(n, 3)
		in[fmt.Sprintf("zeros_%d", n)] = make([]byte, n)
		rows := make([]byte, 0, n)
		for len(rows) < n {
			rows = append(rows, byte(len(rows)/7), 0, 0, 0, byte(r.IntN(2)), 0x34, 0)
		}
		in[fmt.Sprintf("rows_%d", n)] = rows[:n]
	}
	far := append(randBytes(70000, 256), 0)
	far = append(far, far[:5000]...) // a repeat 70,001 bytes back: out of reach
	in["far_repeat"] = far
	return in
}

// TestLZ4MatchesReference: our blocks equal liblz4's LZ4_compress_default,
// byte for byte (testdata/lz4ref/compress.py calls the system's liblz4;
// skipped without python3 or the library).
func TestLZ4MatchesReference(t *testing.T) {
	py := os.Getenv("LANCE_PY")
	if py == "" {
		py = "python3"
	}
	if _, err := exec.LookPath(py); err != nil {
		t.Skip("no python: ", err)
	}
	dir := t.TempDir()
	inputs := lz4Inputs()
	var list strings.Builder
	for name, b := range inputs {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		list.WriteString(p + "\n")
	}
	cmd := exec.Command(py, filepath.Join("..", "testdata", "lz4ref", "compress.py"))
	cmd.Stdin = strings.NewReader(list.String())
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 3 {
		t.Skip("no liblz4 shared library")
	}
	if err != nil {
		t.Fatalf("compress.py: %v\n%s", err, out)
	}
	t.Logf("liblz4 %s", bytes.TrimSpace(out))
	for name, b := range inputs {
		want, err := os.ReadFile(filepath.Join(dir, name+".lz4"))
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendLZ4Block(nil, b); !bytes.Equal(got, want) {
			t.Errorf("%s (%d bytes): ours %d bytes, liblz4 %d bytes; first difference at byte %d", name, len(b), len(got), len(want), firstDiff(got, want))
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// FuzzLZ4Block: every block we write decodes (pierrec/lz4) to its input
// and stays within lz4BlockBound.
func FuzzLZ4Block(f *testing.F) {
	for _, b := range lz4Inputs() {
		if len(b) <= 5000 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		blk := AppendLZ4Block(nil, src)
		if len(blk) > lz4BlockBound(len(src)) {
			t.Fatalf("%d-byte block for %d bytes, bound %d", len(blk), len(src), lz4BlockBound(len(src)))
		}
		out := make([]byte, len(src))
		n, err := lz4.UncompressBlock(blk, out)
		if len(src) == 0 {
			return
		}
		if err != nil || !bytes.Equal(out[:n], src) {
			t.Fatalf("round trip: %v (%d of %d bytes)", err, n, len(src))
		}
	})
}
