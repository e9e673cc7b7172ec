package dataset

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"google.golang.org/protobuf/proto"
)

func roaringOf(vals ...uint32) *roaring.Bitmap { return roaring.BitmapOf(vals...) }

// FuzzManifest: any bytes parse to a manifest or an error, never a panic;
// every fragment of a parsed manifest decodes or fails cleanly.
func FuzzManifest(f *testing.F) {
	for _, p := range realManifests(f) {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ParseManifestFile(int64(len(b)), b)
		if err != nil {
			return
		}
		for _, r := range m.Fragments {
			if fr, err := r.Decode(); err == nil && fr.Deletion != nil {
				_ = DeletionName(fr.ID, *fr.Deletion)
			}
		}
	})
}

// FuzzDeletions: any bytes decode to deleted rows below the fragment's
// row count, or an error.
func FuzzDeletions(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(testdata, "*", DeletionDir, "*"))
	if len(files) == 0 {
		f.Fatal("no deletion files")
	}
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, filepath.Ext(p) == ".bin", uint64(6000))
	}
	f.Fuzz(func(t *testing.T, b []byte, bitmap bool, rows uint64) {
		rows %= 1 << 20
		del, err := DecodeDeletions(b, bitmap, rows)
		if err != nil {
			return
		}
		if !del.IsEmpty() && uint64(del.Maximum()) >= rows {
			t.Fatalf("deleted row %d of %d", del.Maximum(), rows)
		}
		_ = LiveRanges(nil, del, 0, min(rows, 1<<16))
	})
}

// FuzzRowIDs: any bytes decode to exactly n row ids, each found again at
// its own row (unless repeated), or an error.
func FuzzRowIDs(f *testing.F) {
	seq, want := allKinds()
	b, _ := proto.Marshal(seq)
	f.Add(b, uint64(len(want)))
	for _, p := range realManifests(f) {
		raw, _ := os.ReadFile(p)
		m, err := ParseManifestFile(int64(len(raw)), raw)
		if err != nil {
			f.Fatal(err)
		}
		for _, r := range m.Fragments {
			if fr, err := r.Decode(); err == nil && len(fr.RowIDs) > 0 {
				f.Add(fr.RowIDs, fr.PhysicalRows)
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte, n uint64) {
		n %= 1 << 16
		r, err := DecodeRowIDs(b, n)
		if err != nil {
			return
		}
		if r.Len() != n {
			t.Fatalf("len %d, want %d", r.Len(), n)
		}
		for i := range min(n, 256) {
			if _, ok := r.Find(r.Get(i)); !ok {
				t.Fatalf("row id %d of row %d not found", r.Get(i), i)
			}
		}
	})
}
