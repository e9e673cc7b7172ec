package dataset

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// indexSectionAt returns the index entries of version v's manifest in dir.
func indexSectionAt(t *testing.T, dir string, v uint64) []indexEntry {
	t.Helper()
	for _, naming := range []Naming{NamingV2, NamingV1} {
		b, err := os.ReadFile(filepath.Join(dir, VersionsDir, ManifestName(v, naming)))
		if err != nil {
			continue
		}
		m, err := DecodeManifestProto(int64(len(b)), b)
		if err != nil {
			t.Fatal(err)
		}
		e, err := readIndexEntries(b, m)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	t.Fatalf("no manifest of version %d in %s", v, dir)
	return nil
}

// TestWriteIndicesConcurrentAppends: pylance appends (read at version 5)
// while we append (read at 5 too): both commit; then pylance appends read
// at 6 over our commit of 7 (its conflict resolution reads our
// transaction). Every IndexMetadata entry keeps its bytes through our
// commit and pylance's, and pylance's answers with the indices cover
// every row.
func TestWriteIndicesConcurrentAppends(t *testing.T) {
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "a.lance")
	files := []string{filepath.Join(tmp, "n0.arrow"), filepath.Join(tmp, "n1.arrow"), filepath.Join(tmp, "n2.arrow")}
	indexPy(t, "build", dir, files[0])
	indexPy(t, "rows", files[1], "700", "50")
	indexPy(t, "rows", files[2], "750", "30")
	ds, err := OpenDataset(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	if ds.Version() != 5 {
		t.Fatalf("built version %d", ds.Version())
	}
	if v := strings.TrimSpace(string(indexPy(t, "stale", dir, "5", files[1]))); v != "6" {
		t.Fatalf("pylance's append committed version %s", v)
	}
	rdr := ipcReader(t, mem, files[0])
	d7, err := ds.Append(ctx, rdr) // read at 5, commits on 6
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer d7.Close()
	if d7.Version() != 7 {
		t.Fatalf("our append committed version %d", d7.Version())
	}
	if v := strings.TrimSpace(string(indexPy(t, "stale", dir, "6", files[2]))); v != "8" {
		t.Fatalf("pylance's append over ours committed version %s", v)
	}
	st := indexState(t, dir)
	checkIndexedAnswers(t, st, true)
	if st.Version != 8 || st.Rows != 780 || len(st.Indices) != 4 {
		t.Fatalf("version %d, %d rows, %d indices", st.Version, st.Rows, len(st.Indices))
	}
	for _, x := range st.Indices {
		if !reflect.DeepEqual(x["fragment_ids"], []any{0.0, 1.0, 2.0}) {
			t.Fatalf("index %v: appended fragments are not unindexed", x)
		}
	}
	base := indexSectionAt(t, dir, 5)
	for _, v := range []uint64{6, 7, 8} {
		got := indexSectionAt(t, dir, v)
		if len(got) != len(base) {
			t.Fatalf("version %d: %d index entries, want %d", v, len(got), len(base))
		}
		for i := range got {
			if !bytes.Equal(got[i].raw, base[i].raw) {
				t.Fatalf("version %d: index entry %d (%s) changed bytes", v, i, got[i].meta.Name)
			}
		}
	}
}
