package indices

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/internal/filewriter"
)

// dirSink writes index files into a local directory.
type dirSink struct{ dir string }

func (s dirSink) WriteFile(ctx context.Context, name string, schema *arrow.Schema, recs []arrow.RecordBatch, globals [][]byte) (uint64, error) {
	w, err := filewriter.Create(ctx, filepath.Join(s.dir, name), schema, filewriter.WithFileVersion("2.2"), filewriter.WithSync(false))
	if err != nil {
		return 0, err
	}
	if err := filewriter.WriteAll(ctx, w, recs, globals); err != nil {
		return 0, err
	}
	return w.Stats().Bytes, nil
}

// floatColumn makes n float64 values from seed: repeated values, NULLs,
// NaN, -0 and +0, and ids that are row addresses over a few fragments.
func floatColumn(mem memory.Allocator, n int, seed uint64) (arrow.Array, []uint64) {
	r := rand.New(rand.NewPCG(seed, 1))
	b := array.NewFloat64Builder(mem)
	defer b.Release()
	ids := make([]uint64, n)
	for i := range n {
		ids[i] = uint64(i/100)<<32 | uint64(i%100)
		switch r.IntN(12) {
		case 0:
			b.AppendNull()
		case 1:
			b.Append(math.NaN())
		case 2:
			b.Append(math.Copysign(0, -1))
		case 3:
			b.Append(0)
		default:
			b.Append(float64(r.IntN(40)) - 20)
		}
	}
	return b.NewArray(), ids
}

// expectRows is the brute-force answer: ids of rows keep selects.
func expectRows(a arrow.Array, ids []uint64, keep func(i int) bool) []uint64 {
	var out []uint64
	for i := range ids {
		if keep(i) {
			out = append(out, ids[i])
		}
	}
	slices.Sort(out)
	return out
}

func sameRows(t *testing.T, what string, got *roaring64.Bitmap, want []uint64) {
	t.Helper()
	if !slices.Equal(got.ToArray(), want) && !(len(want) == 0 && got.IsEmpty()) {
		t.Fatalf("%s: %d rows, want %d", what, got.GetCardinality(), len(want))
	}
}

// checkBuilt builds a BTREE (pages of batch rows) and a BITMAP of a
// and checks that the readers answer equality, ranges and IS NULL as a
// scan of a does.
func checkBuilt(t *testing.T, a *array.Float64, ids []uint64, batch int) {
	t.Helper()
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	bdir, mdir := t.TempDir(), t.TempDir()
	in := ScalarBuild{Values: a, IDs: ids, Mem: mem}
	if _, err := BuildBTree(ctx, dirSink{bdir}, in, batch); err != nil {
		t.Fatal(err)
	}
	if _, err := BuildBitmap(ctx, dirSink{mdir}, in); err != nil {
		t.Fatal(err)
	}
	zdir := t.TempDir()
	zm, err := ColumnZones(ctx, in, uint64(batch))
	if err != nil {
		t.Fatal(err)
	}
	_, err = BuildZoneMap(ctx, dirSink{zdir}, zm, uint64(batch), mem)
	zm.Min.Release()
	zm.Max.Release()
	if err != nil {
		t.Fatal(err)
	}
	zmap, err := OpenZoneMap(ctx, zdir)
	if err != nil {
		t.Fatal(err)
	}
	defer zmap.Close()
	fdir := t.TempDir()
	if _, err := BuildBloomFilter(ctx, dirSink{fdir}, in, uint64(batch), 0.01); err != nil {
		t.Fatal(err)
	}
	bloom, err := OpenBloomFilter(ctx, fdir)
	if err != nil {
		t.Fatal(err)
	}
	defer bloom.Close()
	bt, err := OpenBTree(ctx, bdir)
	if err != nil {
		t.Fatal(err)
	}
	defer bt.Close()
	bm, err := OpenBitmap(ctx, mdir)
	if err != nil {
		t.Fatal(err)
	}
	defer bm.Close()
	// the expected rows are those the readers' comparison selects in a
	// scan of the column: the builders' order must agree with it
	for _, k := range []float64{-20, -3, 0, math.Copysign(0, -1), 7, 19, 25, math.NaN()} {
		key := FloatKey(k)
		for _, q := range []struct {
			name   string
			lo, hi Bound
			keep   func(c int) bool
		}{
			{"=", Bound{Key: key, Inclusive: true}, Bound{Key: key, Inclusive: true}, func(c int) bool { return c == 0 }},
			{">", Bound{Key: key}, Bound{Unbounded: true}, func(c int) bool { return c > 0 }},
			{"<=", Bound{Unbounded: true}, Bound{Key: key, Inclusive: true}, func(c int) bool { return c <= 0 }},
		} {
			want := expectRows(a, ids, func(i int) bool {
				if a.IsNull(i) {
					return false
				}
				c, err := compareAt(a, i, key)
				return err == nil && q.keep(c)
			})
			for name, r := range map[string]interface {
				Range(context.Context, Bound, Bound) (*roaring64.Bitmap, error)
			}{"btree": bt, "bitmap": bm} {
				got, err := r.Range(ctx, q.lo, q.hi)
				if err != nil {
					t.Fatal(err)
				}
				sameRows(t, fmt.Sprintf("%s: value %s %v", name, q.name, k), got, want)
			}
			// zone maps and bloom filters answer a superset (whole zones),
			// never missing a row
			got, err := zmap.Range(ctx, q.lo, q.hi)
			if err != nil {
				t.Fatal(err)
			}
			if q.name == "=" && !math.IsNaN(k) {
				bl, err := bloom.In(ctx, []Key{key}, arrow.PrimitiveTypes.Float64)
				if err != nil {
					t.Fatal(err)
				}
				for _, id := range want {
					if !bl.Contains(id) {
						t.Fatalf("bloom filter: value %v misses row %x", k, id)
					}
				}
			}
			for _, id := range want {
				if !got.Contains(id) {
					t.Fatalf("zone map: value %s %v misses row %x", q.name, k, id)
				}
			}
		}
	}
	want := expectRows(a, ids, a.IsNull)
	got, err := bt.IsNull(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sameRows(t, "btree IS NULL", got, want)
	if got, err = bm.IsNull(ctx); err != nil {
		t.Fatal(err)
	}
	sameRows(t, "bitmap IS NULL", got, want)
	got, exact, err := zmap.IsNull(ctx)
	if err != nil || !exact {
		t.Fatalf("zone map IS NULL: exact %v, %v", exact, err)
	}
	sameRows(t, "zone map IS NULL", got, want)
	if got, err = bloom.IsNull(ctx); err != nil {
		t.Fatal(err)
	}
	sameRows(t, "bloom filter IS NULL", got, want)
}

// TestBuildScalarRoundTrip: BTREE and BITMAP segments we build are read
// back by our readers with the answers of a scan, over page sizes that
// put page edges inside runs of equal values and of NULLs; an empty
// column builds an empty index.
func TestBuildScalarRoundTrip(t *testing.T) {
	mem := memory.NewGoAllocator()
	for _, c := range []struct{ n, batch int }{{1000, 64}, {1000, 4096}, {257, 1}, {0, 8}} {
		a, ids := floatColumn(mem, c.n, uint64(c.n+c.batch))
		checkBuilt(t, a.(*array.Float64), ids, c.batch)
		a.Release()
	}
}

// FuzzBuildScalar: arbitrary bytes make a float64 column (8 bytes a
// value; a 0xff first byte makes a NULL) and a page size; the built
// indices answer as a scan.
func FuzzBuildScalar(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0xf8, 0x7f, 0xff, 0, 0, 0, 0, 0, 0, 0, 0}, uint8(1))
	f.Add(make([]byte, 80), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, batch uint8) {
		if len(data) > 8*512 {
			return
		}
		b := array.NewFloat64Builder(memory.NewGoAllocator())
		defer b.Release()
		var ids []uint64
		for i := 0; i+8 <= len(data); i += 8 {
			if data[i] == 0xff {
				b.AppendNull()
			} else {
				b.Append(math.Float64frombits(binary.LittleEndian.Uint64(data[i:])))
			}
			ids = append(ids, uint64(i/24)<<32|uint64(i%24))
		}
		a := b.NewFloat64Array()
		defer a.Release()
		checkBuilt(t, a, ids, int(batch)+1)
	})
}

// TestBuildLabelListRoundTrip: a LABEL_LIST we build from lists with
// NULL lists, empty lists, NULL and repeated elements answers HasAny,
// HasAll and the NULL lists as a scan of the lists does.
func TestBuildLabelListRoundTrip(t *testing.T) {
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	lb := array.NewListBuilder(mem, arrow.PrimitiveTypes.Int64)
	vb := lb.ValueBuilder().(*array.Int64Builder)
	r := rand.New(rand.NewPCG(3, 4))
	var rows [][]int64
	var nullRows []bool
	ids := make([]uint64, 700)
	for i := range ids {
		ids[i] = uint64(i/300)<<32 | uint64(i%300)
		switch r.IntN(9) {
		case 0:
			lb.AppendNull()
			rows, nullRows = append(rows, nil), append(nullRows, true)
			continue
		case 1:
			vb.AppendNull()
		}
		lb.Append(true)
		var row []int64
		for range r.IntN(4) {
			v := int64(r.IntN(6))
			vb.Append(v)
			row = append(row, v)
		}
		rows, nullRows = append(rows, row), append(nullRows, false)
	}
	lists := lb.NewArray()
	lb.Release()
	defer lists.Release()
	dir := t.TempDir()
	if _, err := BuildLabelList(ctx, dirSink{dir}, ScalarBuild{Values: lists, IDs: ids, Mem: mem}); err != nil {
		t.Fatal(err)
	}
	ll, err := OpenLabelList(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ll.Close()
	for _, q := range [][]int64{{0}, {2, 5}, {1, 3}, {9}} {
		keys := make([]Key, len(q))
		for i, v := range q {
			keys[i] = IntKey(v)
		}
		anyWant := expectRows(lists, ids, func(i int) bool {
			return slices.ContainsFunc(q, func(v int64) bool { return slices.Contains(rows[i], v) })
		})
		allWant := expectRows(lists, ids, func(i int) bool {
			return !nullRows[i] && !slices.ContainsFunc(q, func(v int64) bool { return !slices.Contains(rows[i], v) })
		})
		got, err := ll.HasAny(ctx, keys)
		if err != nil {
			t.Fatal(err)
		}
		sameRows(t, fmt.Sprintf("has any %v", q), got, anyWant)
		if got, err = ll.HasAll(ctx, keys); err != nil {
			t.Fatal(err)
		}
		sameRows(t, fmt.Sprintf("has all %v", q), got, allWant)
	}
	got, err := ll.NullLists(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sameRows(t, "null lists", got, expectRows(lists, ids, func(i int) bool { return nullRows[i] }))
}

// TestSortOrderMatchesReference: the radix sorts (fixed width, and
// strings by prefix then whole bytes, NUL bytes and every length around
// 8 included) give the order of a plain stable sort by value.
func TestSortOrderMatchesReference(t *testing.T) {
	mem := memory.NewGoAllocator()
	r := rand.New(rand.NewPCG(7, 8))
	sb := array.NewStringBuilder(mem)
	ib := array.NewInt64Builder(mem)
	var strs []string
	var ints []int64
	for range 5000 {
		b := make([]byte, r.IntN(12))
		for j := range b {
			b[j] = "ab\x00z"[r.IntN(4)]
		}
		strs = append(strs, string(b))
		sb.Append(string(b))
		v := int64(r.IntN(600)) - 300
		if r.IntN(3) == 0 {
			v <<= 40
		}
		ints = append(ints, v)
		ib.Append(v)
	}
	for _, c := range []struct {
		a    arrow.Array
		less func(i, j int) int
	}{
		{sb.NewArray(), func(i, j int) int { return strings.Compare(strs[i], strs[j]) }},
		{ib.NewArray(), func(i, j int) int { return cmp.Compare(ints[i], ints[j]) }},
	} {
		got, _, err := sortOrder(c.a)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]int32, c.a.Len())
		for i := range want {
			want[i] = int32(i)
		}
		slices.SortStableFunc(want, func(x, y int32) int { return c.less(int(x), int(y)) })
		if !slices.Equal(got, want) {
			t.Fatalf("%s: order differs from a stable sort", c.a.DataType())
		}
		c.a.Release()
	}
}

// FuzzNGram: an NGRAM built from arbitrary strings (lines; "\x00" alone
// is NULL) gives, for any query with a trigram, every row containing it
// among its candidates, and exactly the NULL rows for IS NULL.
func FuzzNGram(f *testing.F) {
	f.Add("Hello World\nstraße Ünïcödé\n\x00\nab\nxyz-abc", "abc")
	f.Add("aaaa\nAAAB", "aab")
	f.Fuzz(func(t *testing.T, lines, q string) {
		if len(lines) > 4096 || len(q) > 64 {
			return
		}
		ctx := context.Background()
		rows := strings.Split(lines, "\n")
		b := array.NewStringBuilder(memory.NewGoAllocator())
		defer b.Release()
		ids := make([]uint64, len(rows))
		for i, r := range rows {
			ids[i] = uint64(i)
			if r == "\x00" {
				b.AppendNull()
			} else {
				b.Append(r)
			}
		}
		a := b.NewArray()
		defer a.Release()
		dir := t.TempDir()
		if _, err := BuildNGram(ctx, dirSink{dir}, ScalarBuild{Values: a, IDs: ids}); err != nil {
			t.Fatal(err)
		}
		g, err := OpenNGram(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		defer g.Close()
		got, known, err := g.Contains(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range rows {
			if known && r != "\x00" && strings.Contains(r, q) && !got.Contains(uint64(i)) {
				t.Fatalf("row %d %q contains %q but is no candidate", i, r, q)
			}
		}
		nulls, err := g.IsNull(ctx)
		if err != nil {
			t.Fatal(err)
		}
		sameRows(t, "ngram IS NULL", nulls, expectRows(a, ids, a.IsNull))
	})
}
