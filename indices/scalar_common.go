package indices

// Shared pieces of the scalar index readers: the RowAddrTreeMap row-set
// serialization (spec indices.md §1.6 format 2), typed query keys compared
// with the values of an Arrow column in Lance's order, and reading a whole
// small index file into records.

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/internal/fileread"
	lanceio "github.com/lancego/lancego/io"
)

// maxRowAddrEntries bounds the fragments one RowAddrTreeMap may name, so a
// corrupt count cannot make the decoder allocate without bound.
const maxRowAddrEntries = 1 << 20

// decodeRowAddrBitmap decodes Lance's RowAddrTreeMap: u32 LE entry count,
// then per entry u32 fragment id, u32 byte length and that many bytes of a
// portable 32-bit roaring bitmap of row offsets. A byte length of 0 selects
// the whole fragment; such fragments are returned in full (their ids) and
// left out of the bitmap.
func decodeRowAddrBitmap(b []byte) (rows *roaring64.Bitmap, full []uint32, err error) {
	if len(b) < 4 {
		return nil, nil, fmt.Errorf("%w: row address map of %d bytes", ErrCorrupt, len(b))
	}
	n := binary.LittleEndian.Uint32(b)
	if n > maxRowAddrEntries || uint64(n)*8 > uint64(len(b)-4) {
		return nil, nil, fmt.Errorf("%w: row address map names %d fragments in %d bytes", ErrCorrupt, n, len(b))
	}
	rows = roaring64.New()
	pos := 4
	for i := uint32(0); i < n; i++ {
		if len(b)-pos < 8 {
			return nil, nil, fmt.Errorf("%w: row address map entry %d truncated at byte %d", ErrCorrupt, i, pos)
		}
		frag := binary.LittleEndian.Uint32(b[pos:])
		ln := binary.LittleEndian.Uint32(b[pos+4:])
		pos += 8
		if ln == 0 {
			full = append(full, frag)
			continue
		}
		if uint64(ln) > uint64(len(b)-pos) {
			return nil, nil, fmt.Errorf("%w: row address map entry %d (fragment %d) needs %d bytes at byte %d of %d", ErrCorrupt, i, frag, ln, pos, len(b))
		}
		bm := roaring.New()
		if _, err := bm.FromUnsafeBytes(b[pos : pos+int(ln)]); err != nil {
			return nil, nil, fmt.Errorf("%w: row address map entry %d (fragment %d): %v", ErrCorrupt, i, frag, err)
		}
		if err := bm.Validate(); err != nil {
			return nil, nil, fmt.Errorf("%w: row address map entry %d (fragment %d): %v", ErrCorrupt, i, frag, err)
		}
		addRows(rows, frag, bm)
		pos += int(ln)
	}
	return rows, full, nil
}

// addRows adds the offsets of bm in fragment frag to rows.
func addRows(rows *roaring64.Bitmap, frag uint32, bm *roaring.Bitmap) {
	hi := uint64(frag) << 32
	it := bm.Iterator()
	for it.HasNext() {
		rows.Add(hi | uint64(it.Next()))
	}
}

// KeyKind says which field of a Key holds its value.
type KeyKind uint8

// The kinds of a Key.
const (
	KeyNull   KeyKind = iota // SQL NULL
	KeyInt                   // signed integers, dates, timestamps (Int)
	KeyUint                  // unsigned integers (Uint)
	KeyFloat                 // floats (Float), NaN above every number
	KeyString                // strings and binary (Str), bytewise
	KeyBool                  // booleans (Int: 0 or 1)
)

// Key is one constant of an index query, compared with the values of an
// index column in the column's order (Arrow total order for floats).
type Key struct {
	Kind  KeyKind
	Int   int64
	Uint  uint64
	Float float64
	Str   string
}

// IntKey, UintKey, FloatKey, StringKey and BoolKey make keys.
func IntKey(v int64) Key     { return Key{Kind: KeyInt, Int: v} }
func UintKey(v uint64) Key   { return Key{Kind: KeyUint, Uint: v} }
func FloatKey(v float64) Key { return Key{Kind: KeyFloat, Float: v} }
func StringKey(v string) Key { return Key{Kind: KeyString, Str: v} }
func BoolKey(v bool) Key     { return Key{Kind: KeyBool, Int: b2i(v)} }
func b2i(v bool) int64 {
	if v {
		return 1
	}
	return 0
}

// compareAt compares the non-null value arr[i] with k: -1, 0 or 1.
func compareAt(arr arrow.Array, i int, k Key) (int, error) {
	switch a := arr.(type) {
	case *array.Int8:
		return cmpSigned(int64(a.Value(i)), k)
	case *array.Int16:
		return cmpSigned(int64(a.Value(i)), k)
	case *array.Int32:
		return cmpSigned(int64(a.Value(i)), k)
	case *array.Int64:
		return cmpSigned(a.Value(i), k)
	case *array.Date32:
		return cmpSigned(int64(a.Value(i)), k)
	case *array.Date64:
		return cmpSigned(int64(a.Value(i)), k)
	case *array.Timestamp:
		return cmpSigned(int64(a.Value(i)), k)
	case *array.Uint8:
		return cmpUnsigned(uint64(a.Value(i)), k)
	case *array.Uint16:
		return cmpUnsigned(uint64(a.Value(i)), k)
	case *array.Uint32:
		return cmpUnsigned(uint64(a.Value(i)), k)
	case *array.Uint64:
		return cmpUnsigned(a.Value(i), k)
	case *array.Float32:
		return cmpFloat(float64(a.Value(i)), k)
	case *array.Float64:
		return cmpFloat(a.Value(i), k)
	case *array.String:
		return cmpString(a.Value(i), k)
	case *array.LargeString:
		return cmpString(a.Value(i), k)
	case *array.Binary:
		return cmpString(string(a.Value(i)), k)
	case *array.LargeBinary:
		return cmpString(string(a.Value(i)), k)
	case *array.Boolean:
		if k.Kind != KeyBool {
			return 0, fmt.Errorf("%w: %s column, key kind %d", ErrKeyType, arr.DataType(), k.Kind)
		}
		return cmpInt(b2i(a.Value(i)), k.Int), nil
	}
	return 0, fmt.Errorf("%w: %s column", ErrKeyType, arr.DataType())
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpSigned(v int64, k Key) (int, error) {
	switch k.Kind {
	case KeyInt:
		return cmpInt(v, k.Int), nil
	case KeyUint:
		if v < 0 || k.Uint > math.MaxInt64 {
			return -1, nil
		}
		return cmpInt(v, int64(k.Uint)), nil
	case KeyFloat:
		return cmpFloat(float64(v), k)
	}
	return 0, fmt.Errorf("%w: integer column, key kind %d", ErrKeyType, k.Kind)
}

func cmpUnsigned(v uint64, k Key) (int, error) {
	switch k.Kind {
	case KeyUint:
		switch {
		case v < k.Uint:
			return -1, nil
		case v > k.Uint:
			return 1, nil
		}
		return 0, nil
	case KeyInt:
		if k.Int < 0 || v > math.MaxInt64 {
			return 1, nil
		}
		return cmpInt(int64(v), k.Int), nil
	case KeyFloat:
		return cmpFloat(float64(v), k)
	}
	return 0, fmt.Errorf("%w: unsigned column, key kind %d", ErrKeyType, k.Kind)
}

// cmpFloat compares as Lance's filters do: numbers numerically (-0 equals
// +0), a NaN with its sign bit set below every number and a NaN without
// one above (IEEE total order's places for them), NaNs of one sign equal.
func cmpFloat(v float64, k Key) (int, error) {
	var w float64
	switch k.Kind {
	case KeyFloat:
		w = k.Float
	case KeyInt:
		w = float64(k.Int)
	case KeyUint:
		w = float64(k.Uint)
	default:
		return 0, fmt.Errorf("%w: float column, key kind %d", ErrKeyType, k.Kind)
	}
	vn, wn := math.IsNaN(v), math.IsNaN(w)
	switch {
	case vn || wn:
		return cmpInt(nanRank(v), nanRank(w)), nil
	case v < w:
		return -1, nil
	case v > w:
		return 1, nil
	}
	return 0, nil
}

// nanRank places a float among NaNs: -1 for a negative NaN, 1 for a
// positive one, 0 for a number (only called when one side is NaN).
func nanRank(f float64) int64 {
	switch {
	case !math.IsNaN(f):
		return 0
	case math.Signbit(f):
		return -1
	}
	return 1
}

func cmpString(v string, k Key) (int, error) {
	if k.Kind != KeyString {
		return 0, fmt.Errorf("%w: string column, key kind %d", ErrKeyType, k.Kind)
	}
	return strings.Compare(v, k.Str), nil
}

// readWhole reads the named columns of every row of a (small) index file.
func readWhole(ctx context.Context, f *fileread.File, cols []string) ([]arrow.RecordBatch, error) {
	return readRows(ctx, f, cols, 0, f.NumRows())
}

// readRows reads rows [from, to) of the named columns.
func readRows(ctx context.Context, f *fileread.File, cols []string, from, to uint64) ([]arrow.RecordBatch, error) {
	var out []arrow.RecordBatch
	if from >= to {
		return nil, nil
	}
	for rec, err := range f.Batches(ctx, fileread.ScanOptions{Columns: cols, From: from, To: to, BatchSize: 1 << 16}) {
		if err != nil {
			releaseAll(out)
			return nil, fmt.Errorf("indices: read %s rows [%d,%d): %w", f.URL(), from, to, err)
		}
		out = append(out, rec)
	}
	return out, nil
}

func releaseAll(recs []arrow.RecordBatch) {
	for _, r := range recs {
		r.Release()
	}
}

// memoryAllocator is the allocator index readers build arrays with.
func memoryAllocator() memory.Allocator { return memory.DefaultAllocator }

// pathOpener opens index files by path or URL (names are full paths), for
// callers holding an index directory rather than a dataset.
type pathOpener struct{ opts []fileread.Option }

// OpenFile opens the Lance file at name.
func (p pathOpener) OpenFile(ctx context.Context, name string) (*fileread.File, error) {
	return fileread.Open(ctx, name, p.opts...)
}

// ReadRange reads n bytes at off of the file at name.
func (p pathOpener) ReadRange(ctx context.Context, name string, off, n uint64) ([]byte, error) {
	obj, err := lanceio.Open(ctx, name, lanceio.Config{})
	if err != nil {
		return nil, fmt.Errorf("indices: %s: %w", name, err)
	}
	defer obj.Close()
	if off > uint64(obj.Size()) || n > uint64(obj.Size())-off {
		return nil, fmt.Errorf("%w: %s: range [%d, +%d) outside %d bytes", ErrCorrupt, name, off, n, obj.Size())
	}
	buf := make([]byte, n)
	if err := obj.ReadAt(ctx, buf, int64(off)); err != nil {
		return nil, fmt.Errorf("indices: %s: %w", name, err)
	}
	return buf, nil
}

// indexFile is an opened file of a scalar segment with its opener and name.
type indexFile struct {
	op   Opener
	name string
	f    *fileread.File
}

// openIndexFile opens file base of segment directory dir.
func openIndexFile(ctx context.Context, op Opener, dir, base string) (indexFile, error) {
	name := dir + "/" + base
	f, err := op.OpenFile(ctx, name)
	if err != nil {
		return indexFile{}, fmt.Errorf("indices: open %s: %w", name, err)
	}
	return indexFile{op: op, name: name, f: f}, nil
}

// close closes the file (once).
func (x *indexFile) close() error {
	if x.f == nil {
		return nil
	}
	err := x.f.Close()
	x.f = nil
	return err
}

// nullBitmapBuffer reads the RowAddrTreeMap named by schema metadata key
// (a global buffer number); ok is false when the key is absent.
func nullBitmapBuffer(ctx context.Context, x indexFile, key string) (rows *roaring64.Bitmap, ok bool, err error) {
	f := x.f
	v, ok := schemaMeta(f.Schema(), key)
	if !ok {
		return nil, false, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return nil, false, fmt.Errorf("%w: %s: %s = %q", ErrCorrupt, x.name, key, v)
	}
	b, err := readVectorBuffer(ctx, x.op, x.name, f, n)
	if err != nil {
		return nil, false, err
	}
	rows, full, err := decodeRowAddrBitmap(b)
	if err != nil {
		return nil, false, fmt.Errorf("%s %s: %w", x.name, key, err)
	}
	for _, fr := range full {
		rows.AddRange(uint64(fr)<<32, (uint64(fr)+1)<<32)
	}
	return rows, true, nil
}
