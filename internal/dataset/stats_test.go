package dataset

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/protobuf/proto"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/format/pb/file2pb"
	"github.com/lancego/lancego/format/pb/filepb"
	"github.com/lancego/lancego/internal/filewriter"
)

// colMeta builds column metadata whose pages have the given buffer
// sizes (one slice per page).
func colMeta(pages ...[]uint64) *file2pb.ColumnMetadata {
	cm := &file2pb.ColumnMetadata{}
	for _, p := range pages {
		cm.Pages = append(cm.Pages, &file2pb.ColumnMetadata_Page{BufferSizes: p})
	}
	return cm
}

// TestAddFileBytes checks Lance's attribution of a file's columns to
// fields (fragment.rs update_storage_stats): mapped columns, continuation
// columns, negative column indices, dropped fields, the field-0 default,
// repeated and shared entries.
func TestAddFileBytes(t *testing.T) {
	cols := []*file2pb.ColumnMetadata{colMeta([]uint64{1, 2}, []uint64{4}), colMeta([]uint64{8}), colMeta([]uint64{16, 32}), colMeta()}
	for _, tc := range []struct {
		name    string
		fields  []int32 // the schema's ids (byID order)
		dfField []int32
		dfCol   []int32
		want    []uint64
	}{
		{"one per field", []int32{0, 1, 2, 3}, []int32{0, 1, 2, 3}, []int32{0, 1, 2, 3}, []uint64{7, 8, 48, 0}},
		{"continuation", []int32{0, 1}, []int32{0, 1}, []int32{0, 2}, []uint64{15, 48}},
		{"parent without column", []int32{5, 6, 7}, []int32{5, 6, 7}, []int32{-1, 0, 1}, []uint64{0, 7, 56}},
		{"first column unmapped goes to field 0", []int32{0, 9}, []int32{9}, []int32{1}, []uint64{7, 56}},
		{"dropped field counts nowhere", []int32{1}, []int32{0, 1}, []int32{0, 2}, []uint64{48}},
		{"dropped field's continuation too", []int32{2}, []int32{1, 2}, []int32{0, 3}, []uint64{0}},
		{"repeated id: last non-negative entry", []int32{0, 1}, []int32{0, 1, 1, 1}, []int32{0, 1, 2, -1}, []uint64{15, 48}},
		{"shared column: largest id", []int32{3, 4}, []int32{4, 3}, []int32{0, 0}, []uint64{0, 63}},
		{"fields longer than column indices", []int32{0, 1}, []int32{0, 1}, []int32{0}, []uint64{63, 0}},
		{"no columns mapped", []int32{0, 1}, nil, nil, []uint64{63, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			byID := map[int32]int{}
			for k, id := range tc.fields {
				byID[id] = k
			}
			sizes := make([]uint64, len(tc.fields))
			df := &DataFile{Fields: tc.dfField, ColumnIndices: tc.dfCol}
			if err := addFileBytes(sizes, byID, df, &format.FileMetadata{Columns: cols}); err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(sizes) != fmt.Sprint(tc.want) {
				t.Fatalf("sizes %v, want %v", sizes, tc.want)
			}
		})
	}
}

// TestAddFileBytesOverflow: page sizes summing past 2^64-1 are corrupt,
// not wrapped.
func TestAddFileBytesOverflow(t *testing.T) {
	cols := []*file2pb.ColumnMetadata{colMeta([]uint64{1 << 63}, []uint64{1 << 63})}
	err := addFileBytes(make([]uint64, 1), map[int32]int{0: 0}, &DataFile{Fields: []int32{0}, ColumnIndices: []int32{0}}, &format.FileMetadata{Columns: cols})
	if !errors.Is(err, format.ErrCorrupt) {
		t.Fatalf("err %v, want ErrCorrupt", err)
	}
}

// pbField is a manifest field.
func pbField(id, parent int32, name string) *filepb.Field {
	return &filepb.Field{Id: id, ParentId: parent, Name: name}
}

// TestPreOrderFields checks Lance's field order (Schema::field_ids: the
// tree built from the flat list, in pre-order) and the refusals of
// malformed lists.
func TestPreOrderFields(t *testing.T) {
	for _, tc := range []struct {
		name string
		flat []*filepb.Field
		want string
		err  bool
	}{
		{"flat", []*filepb.Field{pbField(0, -1, "a"), pbField(1, -1, "b")}, "[0:a 1:b]", false},
		{"nested", []*filepb.Field{pbField(0, -1, "st"), pbField(1, 0, "x"), pbField(2, 0, "l"), pbField(3, 2, "item"), pbField(4, -1, "z")},
			"[0:st 1:st.x 2:st.l 3:st.l.item 4:z]", false},
		{"child listed after a later top-level field", []*filepb.Field{pbField(0, -1, "a"), pbField(1, -1, "b"), pbField(2, 0, "c")},
			"[0:a 2:a.c 1:b]", false},
		{"duplicate id", []*filepb.Field{pbField(0, -1, "a"), pbField(0, -1, "b")}, "", true},
		{"child before parent", []*filepb.Field{pbField(1, 0, "x"), pbField(0, -1, "a")}, "", true},
		{"missing parent", []*filepb.Field{pbField(1, 7, "x")}, "", true},
		{"empty", nil, "[]", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, byID, err := preOrderFields(tc.flat)
			if tc.err {
				if !errors.Is(err, format.ErrCorrupt) {
					t.Fatalf("err %v, want ErrCorrupt", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var s []string
			for k, f := range got {
				s = append(s, fmt.Sprintf("%d:%s", f.ID, f.Path))
				if byID[f.ID] != k {
					t.Errorf("byID[%d] = %d, want %d", f.ID, byID[f.ID], k)
				}
			}
			if fmt.Sprint(s) != tc.want && !(len(s) == 0 && tc.want == "[]") {
				t.Fatalf("order %v, want %s", s, tc.want)
			}
		})
	}
}

// FuzzAddFileBytes feeds random data file entries and page sizes: no
// panic, and the bytes attributed never exceed the pages' total.
func FuzzAddFileBytes(f *testing.F) {
	f.Add([]byte{0, 0, 1, 1, 2, 255}, []byte{1, 2, 3, 4})
	f.Add([]byte{}, []byte{9})
	f.Fuzz(func(t *testing.T, entries, pages []byte) {
		var df DataFile
		for k := 0; k+1 < len(entries); k += 2 {
			df.Fields = append(df.Fields, int32(entries[k]%8))
			df.ColumnIndices = append(df.ColumnIndices, int32(int8(entries[k+1]))%6)
		}
		var cols []*file2pb.ColumnMetadata
		var total uint64
		for _, p := range pages {
			cols = append(cols, colMeta([]uint64{uint64(p)}, []uint64{uint64(p) * 3}))
			total += uint64(p) * 4
		}
		byID := map[int32]int{0: 0, 2: 1, 5: 2}
		sizes := make([]uint64, 3)
		if err := addFileBytes(sizes, byID, &df, &format.FileMetadata{Columns: cols}); err != nil {
			t.Fatal(err)
		}
		if sizes[0]+sizes[1]+sizes[2] > total {
			t.Fatalf("attributed %v of %d bytes", sizes, total)
		}
	})
}

// TestTableStatsIO: TableStats opens each data file once (one request
// each, files this small are read whole) and reads nothing more, with or
// without zone seeds; a second call reads nothing. A file without seeds
// gives no column statistics, one with seeds one per seeded column.
func TestTableStatsIO(t *testing.T) {
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, tc := range []struct {
		name   string
		opts   []filewriter.Option
		seeded int
	}{
		{"no seeds", nil, 0},
		{"seeds", []filewriter.Option{filewriter.WithZoneSeeds(64)}, 6},
		{"seeds of two columns", []filewriter.Option{filewriter.WithZoneSeeds(64, "i", "s")}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "ds")
			rec := seedTable(mem, 500)
			rdr, err := array.NewRecordReader(rec.Schema(), []arrow.RecordBatch{rec})
			rec.Release()
			if err != nil {
				t.Fatal(err)
			}
			ds, err := CreateDataset(ctx, dir, rdr, WithMaxRowsPerFile(200), WithFileOptions(tc.opts...))
			rdr.Release()
			if err != nil {
				t.Fatal(err)
			}
			ds.Close()
			ds, err = OpenDataset(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			defer ds.Close()
			before := ds.Stats().Requests
			st, err := ds.TableStats(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if got := ds.Stats().Requests - before; got != 3 {
				t.Errorf("%d requests for 3 data files", got)
			}
			if st.LiveRows != 500 || len(st.Fragments) != 3 || st.Fragments[2].PhysicalRows != 100 {
				t.Fatalf("stats %+v", st)
			}
			for _, f := range st.Fragments {
				if len(f.Columns) != tc.seeded || (tc.seeded == 0) != (f.Columns == nil) {
					t.Errorf("fragment %d: %d column statistics, want %d", f.ID, len(f.Columns), tc.seeded)
				}
			}
			for _, fl := range st.Fields {
				if fl.ParentID == -1 && fl.DataBytes == 0 && fl.Path != "none" && fl.Path != "l" {
					t.Errorf("field %s: no bytes", fl.Path)
				}
			}
			before = ds.Stats().Requests
			again, err := ds.TableStats(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if got := ds.Stats().Requests - before; got != 0 {
				t.Errorf("a second TableStats made %d requests", got)
			}
			if fmt.Sprint(again.Fields) != fmt.Sprint(st.Fields) {
				t.Errorf("second call differs: %v vs %v", again.Fields, st.Fields)
			}
		})
	}
}

// TestTableStatsLegacyReadsNoFile: a legacy (0.1) dataset has no bytes
// per field in Lance, and TableStats opens none of its data files.
func TestTableStatsLegacyReadsNoFile(t *testing.T) {
	ctx := context.Background()
	ds, err := OpenDataset(ctx, filepath.Join("..", "..", "testdata", "compat", "v0.15.0", "v1_with_files.lance"))
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	if sv, err := ds.storageVersion(); err != nil || !sv.legacy {
		t.Fatalf("storage version %v (%v), want legacy", sv, err)
	}
	before := ds.Stats().Requests
	st, err := ds.TableStats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := ds.Stats().Requests - before; got != 0 {
		t.Errorf("%d requests", got)
	}
	if len(st.Fields) == 0 || st.LiveRows == 0 {
		t.Fatalf("stats %+v", st)
	}
	for _, f := range st.Fields {
		if f.DataBytes != 0 {
			t.Errorf("field %s: %d bytes in a legacy dataset", f.Path, f.DataBytes)
		}
	}
}

// TestTableStatsCorruptManifestFields: a manifest whose field list is not
// a tree is refused with ErrCorrupt (Lance would panic).
func TestTableStatsCorruptManifestFields(t *testing.T) {
	ds := &Dataset{url: "mem://x", man: &Manifest{Version: 1, Fields: []*filepb.Field{proto.Clone(pbField(1, 4, "x")).(*filepb.Field)}}}
	if _, err := ds.TableStats(context.Background()); !errors.Is(err, format.ErrCorrupt) {
		t.Fatalf("err %v, want ErrCorrupt", err)
	}
}
