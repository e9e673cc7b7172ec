package fileread

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReadFile opens mutated Lance files from read-only memory as Open
// does (v2, else legacy v1 with its embedded schema) and reads every row
// by scan and by take: any input must give values or an error, never a
// panic, a hang, an unbounded allocation or a write into the bytes read (a
// scan's pages may be views of a read-only file map). Seeds: the corpus,
// pylance goldens, and the legacy and compatibility data files.
func FuzzReadFile(f *testing.F) {
	for _, b := range fuzzReadSeeds(f) {
		f.Add(b)
	}
	for _, b := range fslStructSeeds(f) { // dense fixed-size lists of structs
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ctx := context.Background()
		file, err := openFuzzed(ctx, readOnlyCopy(t, b))
		if err != nil {
			return
		}
		if file.NumRows() > 1<<20 {
			return // a claimed row count this large only costs time, not safety
		}
		defer file.Close()
		if n := file.NumRows(); n > 0 { // a take before any scan has cached pages (2.0 windows)
			if rec, err := file.Take(ctx, []uint64{n / 3}, nil); err == nil {
				rec.Release()
			}
		}
		for rec, err := range file.Batches(ctx, ScanOptions{BatchSize: 1000}) {
			if err != nil {
				break
			}
			rec.Release()
		}
		if n := file.NumRows(); n > 0 {
			if rec, err := file.Take(ctx, []uint64{n - 1, 0, n / 2}, nil); err == nil {
				rec.Release()
			}
		}
	})
}

// fuzzReadSeeds returns the seed files of FuzzReadFile (those under 64 KiB).
func fuzzReadSeeds(tb testing.TB) [][]byte {
	var out [][]byte
	for _, pat := range []string{"../../testdata/corpus/*/*.lance", "../../testdata/pylance/*/*.lance",
		"../../testdata/legacy/*/data/*.lance", "../../testdata/compat/*/*/data/*.lance"} {
		files, _ := filepath.Glob(pat)
		for _, p := range files {
			if st, err := os.Stat(p); err == nil && st.Size() < 64<<10 {
				b, err := os.ReadFile(p)
				if err != nil {
					tb.Fatal(err)
				}
				out = append(out, b)
			}
		}
	}
	return out
}

// openFuzzed opens b as Open would, from its last DefaultTailSize bytes.
func openFuzzed(ctx context.Context, b []byte) (*File, error) {
	return openFromTail(ctx, "fuzz", bytesSource{b}, b[len(b)-min(len(b), DefaultTailSize):], DefaultConfig())
}

// TestFuzzReadFileSeedsOpen: every seed of FuzzReadFile opens through the
// fuzz target's path, the legacy ones (v1, embedded schema) included.
func TestFuzzReadFileSeedsOpen(t *testing.T) {
	legacy := 0
	for i, b := range fuzzReadSeeds(t) {
		f, err := openFuzzed(context.Background(), b)
		if err != nil {
			t.Errorf("seed %d: %v", i, err)
			continue
		}
		if f.Legacy() != nil {
			legacy++
		}
		f.Close()
	}
	if legacy < 10 {
		t.Fatalf("%d legacy seeds open", legacy)
	}
}
