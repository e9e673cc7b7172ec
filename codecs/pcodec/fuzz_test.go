package pcodec

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzDecompress feeds hostile standalone files to the decoder (bin tables,
// ANS states, mode and delta headers are all attacker-controlled): it must
// not panic, and a success yields whole numbers within the bound.
func FuzzDecompress(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(goldenDir, "*.pco"))
	for i, p := range files {
		if i%4 != 0 {
			continue
		}
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		const maxN = 4096
		out, typ, err := Decompress(nil, src, maxN)
		if err != nil {
			return
		}
		if wb := int(typ.Bits() / 8); wb == 0 || len(out)%wb != 0 || len(out)/wb > maxN {
			t.Fatalf("%v: %d bytes", typ, len(out))
		}
	})
}
