package indices

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/internal/filewriter"
)

// rowAddrMap serializes a RowAddrTreeMap of frag → offsets (Lance's
// format 2 of spec §1.6).
func rowAddrMap(t testing.TB, frags map[uint32][]uint32) []byte {
	b := binary.LittleEndian.AppendUint32(nil, uint32(len(frags)))
	for f := uint32(0); f < 8; f++ {
		offs, ok := frags[f]
		if !ok {
			continue
		}
		bm, err := roaring.BitmapOf(offs...).ToBytes()
		if err != nil {
			t.Fatal(err)
		}
		b = binary.LittleEndian.AppendUint32(b, f)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(bm)))
		b = append(b, bm...)
	}
	return b
}

// writeIndexFile writes one Lance file of the given columns, schema
// metadata and global buffers, returning its bytes.
func writeIndexFile(t testing.TB, cols map[string]arrow.Array, order []string, meta map[string]string, bufs [][]byte) []byte {
	ctx := context.Background()
	var fields []arrow.Field
	var arrs []arrow.Array
	for _, n := range order {
		fields = append(fields, arrow.Field{Name: n, Type: cols[n].DataType(), Nullable: true})
		arrs = append(arrs, cols[n])
	}
	schema := arrow.NewSchema(fields, nil)
	path := filepath.Join(t.TempDir(), "f.lance")
	w, err := filewriter.Create(ctx, path, schema)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range meta {
		w.AddSchemaMetadata(k, v)
	}
	for _, b := range bufs {
		if _, err := w.AddGlobalBuffer(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	rec := array.NewRecordBatch(schema, arrs, int64(arrs[0].Len()))
	if err := w.Write(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func i64s(vs ...any) arrow.Array {
	bld := array.NewInt64Builder(memory.DefaultAllocator)
	for _, v := range vs {
		if v == nil {
			bld.AppendNull()
		} else {
			bld.Append(int64(v.(int)))
		}
	}
	return bld.NewArray()
}

func u32s(vs ...uint32) arrow.Array {
	bld := array.NewUint32Builder(memory.DefaultAllocator)
	bld.AppendValues(vs, nil)
	return bld.NewArray()
}

func u64s(vs ...uint64) arrow.Array {
	bld := array.NewUint64Builder(memory.DefaultAllocator)
	bld.AppendValues(vs, nil)
	return bld.NewArray()
}

func bools(vs ...bool) arrow.Array {
	b := array.NewBooleanBuilder(memory.NewGoAllocator())
	defer b.Release()
	b.AppendValues(vs, nil)
	return b.NewArray()
}

func bins(vs ...[]byte) arrow.Array {
	bld := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.Binary)
	bld.AppendValues(vs, nil)
	return bld.NewArray()
}

func strs(vs ...any) arrow.Array {
	bld := array.NewStringBuilder(memory.DefaultAllocator)
	for _, v := range vs {
		if v == nil {
			bld.AppendNull()
		} else {
			bld.Append(v.(string))
		}
	}
	return bld.NewArray()
}

// scalarSeeds are valid files of each scalar index kind, by kind:
// 0 BTREE page_lookup, 1 BTREE page_data, 2 BITMAP, 3 LABEL_LIST, 4 ZONEMAP.
func scalarSeeds(t testing.TB) [][]byte {
	lookup := writeIndexFile(t, map[string]arrow.Array{
		"min": i64s(nil, 5), "max": i64s(3, 9), "null_count": u32s(1, 0), "page_idx": u32s(0, 1),
	}, []string{"min", "max", "null_count", "page_idx"}, map[string]string{"batch_size": "2"}, nil)
	data := writeIndexFile(t, map[string]arrow.Array{
		"values": i64s(nil, 3, 5, 9), "ids": u64s(2, 0, 1, 1<<32),
	}, []string{"values", "ids"}, nil, nil)
	bm := func() map[string]arrow.Array {
		return map[string]arrow.Array{
			"keys":    strs(nil, "a", "b"),
			"bitmaps": bins(rowAddrMap(t, map[uint32][]uint32{0: {1}}), rowAddrMap(t, map[uint32][]uint32{0: {0, 2}, 1: {5}}), rowAddrMap(t, map[uint32][]uint32{1: {0}})),
		}
	}
	bitmap := writeIndexFile(t, bm(), []string{"keys", "bitmaps"}, nil, nil)
	ll := bm()
	ll["keys"] = strs("a", "b", "c")
	label := writeIndexFile(t, ll, []string{"keys", "bitmaps"}, map[string]string{"lance:label_list_nulls": "1"},
		[][]byte{rowAddrMap(t, map[uint32][]uint32{0: {7}})})
	zone := writeIndexFile(t, map[string]arrow.Array{
		"min": i64s(1, nil), "max": i64s(50, nil), "null_count": u32s(0, 3), "nan_count": u32s(0, 0),
		"fragment_id": u64s(0, 1), "zone_start": u64s(0, 0), "zone_length": u64s(10, 3),
	}, []string{"min", "max", "null_count", "nan_count", "fragment_id", "zone_start", "zone_length"},
		map[string]string{"null_bitmap": "1"}, [][]byte{rowAddrMap(t, map[uint32][]uint32{1: {0, 1, 2}})})
	var p1, p2 bytes.Buffer
	pl := roaring64.BitmapOf(1, 5<<32|2)
	_, _ = pl.WriteTo(&p1)
	_, _ = roaring64.BitmapOf(3).WriteTo(&p2)
	ngram := writeIndexFile(t, map[string]arrow.Array{
		"tokens": u32s(0, NGramTokens(nil, "abc")[0]), "posting_list": bins(p2.Bytes(), p1.Bytes()),
	}, []string{"tokens", "posting_list"}, nil, nil)
	filter := make([]byte, 64)
	filter[3], filter[40] = 0x10, 0x01
	bloom := writeIndexFile(t, map[string]arrow.Array{
		"fragment_id": u64s(0, 1), "zone_start": u64s(0, 0), "zone_length": u64s(10, 3),
		"has_null": bools(false, true), "bloom_filter_data": bins(filter, filter[:32]),
	}, []string{"fragment_id", "zone_start", "zone_length", "has_null", "bloom_filter_data"},
		map[string]string{"null_bitmap": "1"}, [][]byte{rowAddrMap(t, map[uint32][]uint32{1: {0, 2}})})
	return [][]byte{lookup, data, bitmap, label, zone, ngram, bloom}
}

// scalarFiles are the file names of each seed kind.
var scalarFiles = [...]string{BTreeLookupFile, BTreeDataFile, BitmapFile, BitmapFile, ZoneMapFile, NGramFile, BloomFilterFile}

// runScalarQueries opens the segment of kind in dir and runs every query
// shape; errors are fine, panics and hangs are not.
func runScalarQueries(ctx context.Context, kind int, dir string) error {
	lo, hi := Bound{Key: IntKey(2), Inclusive: true}, Bound{Key: IntKey(6)}
	keys := []Key{IntKey(3), IntKey(9), StringKey("a")}
	switch kind {
	case 0, 1:
		b, err := OpenBTree(ctx, dir)
		if err != nil {
			return err
		}
		defer b.Close()
		_, _ = b.Equal(ctx, IntKey(5))
		_, _ = b.In(ctx, keys)
		_, _ = b.Range(ctx, lo, hi)
		_, err = b.IsNull(ctx)
		return err
	case 2:
		b, err := OpenBitmap(ctx, dir)
		if err != nil {
			return err
		}
		defer b.Close()
		_, _ = b.Equal(ctx, StringKey("a"))
		_, _ = b.In(ctx, []Key{StringKey("a"), StringKey("zz")})
		_, _ = b.Range(ctx, Bound{Key: StringKey("a")}, Bound{Unbounded: true})
		_, err = b.IsNull(ctx)
		return err
	case 3:
		l, err := OpenLabelList(ctx, dir)
		if err != nil {
			return err
		}
		defer l.Close()
		_, _ = l.HasAny(ctx, []Key{StringKey("a"), StringKey("c")})
		_, _ = l.HasAll(ctx, []Key{StringKey("a"), StringKey("b")})
		_, err = l.NullLists(ctx)
		return err
	case 6:
		b, err := OpenBloomFilter(ctx, dir)
		if err != nil {
			return err
		}
		defer b.Close()
		_, _ = b.In(ctx, keys, arrow.PrimitiveTypes.Int64)
		_, _ = b.In(ctx, []Key{StringKey("a")}, arrow.BinaryTypes.String)
		_, err = b.IsNull(ctx)
		return err
	case 5:
		g, err := OpenNGram(ctx, dir)
		if err != nil {
			return err
		}
		defer g.Close()
		_, _, _ = g.Contains(ctx, "xabcx")
		_, err = g.IsNull(ctx)
		return err
	default:
		z, err := OpenZoneMap(ctx, dir)
		if err != nil {
			return err
		}
		defer z.Close()
		_, _ = z.Range(ctx, lo, hi)
		_, _ = z.In(ctx, keys)
		_, _, err = z.IsNull(ctx)
		return err
	}
}

// TestScalarSeedsOpen checks the fuzz seeds are valid segments that
// answer as built (so the fuzzer starts from files that reach the query
// code).
func TestScalarSeedsOpen(t *testing.T) {
	ctx := context.Background()
	seeds := scalarSeeds(t)
	for kind := range seeds {
		dir := seedDir(t, seeds, kind, seeds[kind])
		if err := runScalarQueries(ctx, kind, dir); err != nil {
			t.Errorf("kind %d: %v", kind, err)
		}
	}
	dir := seedDir(t, seeds, 0, seeds[0])
	b, err := OpenBTree(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	got, err := b.In(ctx, []Key{IntKey(3), IntKey(9)})
	if err != nil || got.GetCardinality() != 2 || !got.Contains(0) || !got.Contains(1<<32) {
		t.Errorf("btree IN (3, 9) = %v, %v; want [0 %d]", got, err, uint64(1)<<32)
	}
	z, err := OpenZoneMap(ctx, seedDir(t, seeds, 4, seeds[4]))
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	nulls, exact, err := z.IsNull(ctx)
	if err != nil || !exact || nulls.GetCardinality() != 3 {
		t.Errorf("zonemap IS NULL = %v exact %v, %v", nulls, exact, err)
	}
}

// seedDir writes the files of kind's segment (b for the fuzzed one) into
// a fresh directory.
func seedDir(t testing.TB, seeds [][]byte, kind int, b []byte) string {
	dir := t.TempDir()
	files := map[string][]byte{scalarFiles[kind]: b}
	if kind == 0 {
		files[BTreeDataFile] = seeds[1]
	} else if kind == 1 {
		files[BTreeLookupFile] = seeds[0]
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// FuzzScalarIndexFiles opens corrupted BTREE, BITMAP, LABEL_LIST,
// ZONEMAP, NGRAM and BLOOMFILTER files and queries them: truncated pages, bad offsets, corrupt
// row sets must give errors, never panics or unbounded allocation.
func FuzzScalarIndexFiles(f *testing.F) {
	seeds := scalarSeeds(f)
	for kind, s := range seeds {
		f.Add(uint8(kind), s)
		f.Add(uint8(kind), s[:len(s)/2])
	}
	f.Fuzz(func(t *testing.T, kind uint8, b []byte) {
		k := int(kind) % len(seeds)
		_ = runScalarQueries(context.Background(), k, seedDir(t, seeds, k, b))
	})
}

// FuzzRowAddrMap decodes arbitrary RowAddrTreeMap bytes (BITMAP and
// LABEL_LIST bitmaps, null sets).
func FuzzRowAddrMap(f *testing.F) {
	f.Add(rowAddrMap(f, map[uint32][]uint32{0: {1, 2}, 3: {9}}))
	f.Add([]byte{1, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		rows, _, err := decodeRowAddrBitmap(b)
		if err == nil && rows == nil {
			t.Fatal("nil rows without error")
		}
	})
}
