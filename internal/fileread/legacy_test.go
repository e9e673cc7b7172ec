package fileread

import (
	"context"
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/format/pb/filepb"
	"github.com/lancego/lancego/layouts"
)

// manifestFields reads the schema fields of a dataset manifest: a
// test-only walk (the manifest is u32 length + lance.table.Manifest at the
// position its 16-byte footer names; field 1 is the repeated
// lance.file.Field schema). Dataset reading lives elsewhere.
func manifestFields(t testing.TB, path string) []*filepb.Field {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 20 || string(b[len(b)-4:]) != "LANC" {
		t.Fatalf("%s: not a manifest", path)
	}
	pos := binary.LittleEndian.Uint64(b[len(b)-16:])
	n := uint64(binary.LittleEndian.Uint32(b[pos:]))
	msg := b[pos+4 : pos+4+n]
	var fields []*filepb.Field
	for len(msg) > 0 {
		num, typ, k := protowire.ConsumeTag(msg)
		if k < 0 {
			t.Fatal(protowire.ParseError(k))
		}
		msg = msg[k:]
		k = protowire.ConsumeFieldValue(num, typ, msg)
		if k < 0 {
			t.Fatal(protowire.ParseError(k))
		}
		if num == 1 && typ == protowire.BytesType {
			v, _ := protowire.ConsumeBytes(msg)
			f := &filepb.Field{}
			if err := proto.Unmarshal(v, f); err != nil {
				t.Fatal(err)
			}
			fields = append(fields, f)
		}
		msg = msg[k:]
	}
	return fields
}

// TestPylanceLegacyFiles writes legacy (v1) datasets with pylance 14.0.2
// (testdata/pylance/gen_legacy.py: every plain type, strings with nulls
// and empties, lists, nested lists, structs, several batches per file),
// opens each data file with the fields of its manifest and compares scans
// and takes with what pylance read from the dataset.
func TestPylanceLegacyFiles(t *testing.T) {
	py := lancePython()
	if py == "" {
		t.Skip("no pylance venv (set LANCE_PY or create .ci/venv)")
	}
	dir := t.TempDir()
	cmd := exec.Command(py, "gen_legacy.py", dir)
	cmd.Dir = filepath.Join("..", "..", "testdata", "pylance")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gen_legacy.py: %v\n%s", err, out)
	}
	ctx := context.Background()
	for _, name := range []string{"legacy_types", "legacy_nested"} {
		t.Run(name, func(t *testing.T) {
			data, _ := filepath.Glob(filepath.Join(dir, name, "data", "*.lance"))
			mans, _ := filepath.Glob(filepath.Join(dir, name, "_versions", "*.manifest"))
			if len(data) != 1 || len(mans) != 1 {
				t.Fatalf("want one data file and one manifest, have %v %v", data, mans)
			}
			wantRows, wantCols := loadExpected(t, filepath.Join(dir, name+".expected.json"))
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			f, err := OpenLegacy(ctx, data[0], manifestFields(t, mans[0]), WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if f.Metadata().Version.String() != "0.2" {
				t.Errorf("version %s, want 0.2 (the footer of legacy files)", f.Metadata().Version)
			}
			checkFileReads(ctx, t, f, wantRows, wantCols)
			g, err := Open(ctx, data[0]) // the embedded schema
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			checkFileReads(ctx, t, g, wantRows, wantCols)
		})
	}
}

// TestLegacyOpenWithEmbeddedSchema: Open reads a legacy file with the
// schema its writer embedded (the same values as with the manifest's
// fields), and a truncated legacy metadata is an ErrCorrupt error.
func TestLegacyOpenWithEmbeddedSchema(t *testing.T) {
	path, _ := goldenLegacy(t)
	wantRows, wantCols := loadExpected(t, filepath.Join("..", "..", "testdata", "legacy", "legacy_small.expected.json"))
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	f, err := Open(ctx, path, WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	checkFileReads(ctx, t, f, wantRows, wantCols)

	b := make([]byte, 64)
	binary.LittleEndian.PutUint32(b, 1000) // a metadata longer than the file
	binary.LittleEndian.PutUint16(b[58:], 2)
	copy(b[60:], "LANC")
	bad := filepath.Join(t.TempDir(), "legacy.lance")
	if err := os.WriteFile(bad, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ctx, bad); !errors.Is(err, layouts.ErrCorrupt) {
		t.Fatalf("Open of a truncated legacy file: %v", err)
	}
	if _, err := OpenLegacy(ctx, bad, nil); !errors.Is(err, layouts.ErrCorrupt) {
		t.Fatalf("OpenLegacy of a truncated legacy file: %v", err)
	}
}

// goldenLegacy returns the committed legacy data file and its fields.
func goldenLegacy(t testing.TB) (string, []*filepb.Field) {
	data, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "legacy", "legacy_small", "data", "*.lance"))
	mans, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "legacy", "legacy_small", "_versions", "*.manifest"))
	if len(data) != 1 || len(mans) != 1 {
		t.Fatalf("golden legacy dataset missing: %v %v", data, mans)
	}
	return data[0], manifestFields(t, mans[0])
}

// TestLegacyGolden reads the committed legacy file (3 batches; every page
// kind) without pylance and compares with what pylance read.
func TestLegacyGolden(t *testing.T) {
	path, fields := goldenLegacy(t)
	wantRows, wantCols := loadExpected(t, filepath.Join("..", "..", "testdata", "legacy", "legacy_small.expected.json"))
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	f, err := OpenLegacy(ctx, path, fields, WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	checkFileReads(ctx, t, f, wantRows, wantCols)
}

// FuzzReadLegacyFile opens a mutated legacy file (with the golden file's
// fields) and reads every row by scan and take: values or an error, never
// a panic, a hang or an unbounded allocation.
func FuzzReadLegacyFile(f *testing.F) {
	path, fields := goldenLegacy(f)
	b, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		ctx := context.Background()
		file, err := newLegacyFile(ctx, "fuzz", bytesSource{readOnlyCopy(t, b)}, b, fields, DefaultConfig())
		if err != nil || file.NumRows() > 1<<20 {
			return
		}
		for rec, err := range file.Batches(ctx, ScanOptions{BatchSize: 3}) {
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

// TestLegacyMetadataSizes: every legacy data file in testdata opens with
// metadata sizes that neither panic nor wrap (they have no global
// buffers) and a Legacy layout whose page table covers the schema's field
// ids; a v2 file has no Legacy layout.
func TestLegacyMetadataSizes(t *testing.T) {
	ctx := context.Background()
	n := 0
	err := filepath.WalkDir(filepath.Join("..", "..", "testdata"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".lance" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil || !IsLegacyTail(b) {
			return err
		}
		n++
		f, err := Open(ctx, p)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			return nil
		}
		defer f.Close()
		m, l := f.Metadata(), f.Legacy()
		if l == nil || m.NumFooterBytes() != m.FileSize-l.PageTablePosition || m.NumFooterBytes() == 0 ||
			m.NumDataBytes() != l.PageTablePosition || m.NumColumnMetadataBytes() != l.MetadataPosition-l.PageTablePosition {
			t.Errorf("%s: footer %d, data %d, column metadata %d bytes; layout %+v", p, m.NumFooterBytes(), m.NumDataBytes(), m.NumColumnMetadataBytes(), l)
			return nil
		}
		ids := map[int32]bool{}
		for _, c := range l.Columns {
			ids[c.FieldID] = len(c.Pages) == len(l.BatchStarts)-1 && c.Encoding != ""
		}
		m.Schema.Walk(func(fl *format.Field) bool {
			if !ids[fl.ID] {
				t.Errorf("%s: field %q (id %d) has no page table column", p, fl.Name, fl.ID)
			}
			return true
		})
		return nil
	})
	if err != nil || n < 10 {
		t.Fatalf("%d legacy files: %v", n, err)
	}
	f, err := Open(ctx, filepath.Join("..", "..", "testdata", "pylance", "2.1", "big_list_page.lance"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Legacy() != nil {
		t.Fatal("a 2.1 file has a Legacy layout")
	}
}
