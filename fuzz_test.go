package lance

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReadFile opens mutated Lance files from read-only memory and reads
// every row by scan and by take: any input must give values or an error,
// never a panic, a hang, an unbounded allocation or a write into the bytes
// read (a scan's pages may be views of a read-only file map).
func FuzzReadFile(f *testing.F) {
	for _, pat := range []string{"testdata/corpus/*/*.lance", "testdata/pylance/*/*.lance"} {
		files, _ := filepath.Glob(pat)
		for _, p := range files {
			if st, err := os.Stat(p); err == nil && st.Size() < 64<<10 {
				b, _ := os.ReadFile(p)
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ctx := context.Background()
		file, err := newFile(ctx, "fuzz", bytesSource{readOnlyCopy(t, b)}, defaultConfig())
		if err != nil {
			return
		}
		if file.NumRows() > 1<<20 {
			return // a claimed row count this large only costs time, not safety
		}
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
