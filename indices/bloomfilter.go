package indices

// BLOOMFILTER scalar index (spec indices.md §2.6): bloomfilter.lance has
// one row per zone (fragment_id, zone_start, zone_length, has_null,
// bloom_filter_data: a Parquet split-block bloom filter of the zone's
// values), schema metadata bloomfilter_item (the values each filter is
// sized for), bloomfilter_probability and null_bitmap = "1" (global buffer
// 1: the NULL rows). Zones are the zone map's. A value is hashed with
// XXH64 (seed 0) of its little-endian bytes (fixed width) or its bytes
// (strings, binary). Equality and IN give whole zones (recheck); IS NULL
// is exact.

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/cespare/xxhash/v2"

	"github.com/lancego/lancego/internal/fileread"
)

// BLOOMFILTER file, details and defaults as pylance 14.0.2 writes them.
const (
	BloomFilterFile           = "bloomfilter.lance"
	BloomFilterDetailsTypeURL = "/lance.index.pb.BloomFilterIndexDetails"
	// DefaultBloomItems is the rows per zone and the distinct values each
	// zone's filter is sized for; DefaultBloomProbability its false
	// positive rate.
	DefaultBloomItems       = 8192
	DefaultBloomProbability = 0.00057
)

// sbbfSalt are the split-block bloom filter's eight odd multipliers
// (the Parquet specification's).
var sbbfSalt = [8]uint32{0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31}

// sbbf is a split-block bloom filter: blocks of eight 32-bit words.
type sbbf []uint32

// newSBBF sizes a filter for ndv distinct values at false positive rate
// fpp, as Parquet writers size them: the least power of two of bytes
// (32 B to 128 MiB) whose estimated rate is at most fpp.
func newSBBF(ndv uint64, fpp float64) sbbf {
	lo, hi := 0, 64
	for hi > lo+1 {
		mid := (lo + hi) / 2
		if sbbfFalsePositives(ndv, mid) <= fpp {
			hi = mid
		} else {
			lo = mid
		}
	}
	log2 := min(max(hi, 5), 27)
	return make(sbbf, (1<<log2)/4)
}

// sbbfFalsePositives estimates the false positive rate of a filter of
// 2^log2Bytes bytes holding ndv values (Putze et al., "Cache-, hash- and
// space-efficient bloom filters", equation 3: a Poisson mixture over the
// values per block, summed from the smallest terms up).
func sbbfFalsePositives(ndv uint64, log2Bytes int) float64 {
	bits := math.Ldexp(8, log2Bytes)
	n := float64(ndv)
	if n == 0 {
		return 0
	}
	if n/bits > 2 {
		return 1
	}
	lam := 8 * 32 / (bits / n)
	loglam := math.Log(lam)
	var sum float64
	for i := 749; i >= 0; i-- {
		lg, _ := math.Lgamma(float64(i + 1))
		logp := float64(i)*loglam - lam - lg
		logInner := 8 * math.Log(1-math.Pow(1-1.0/32, float64(i)))
		sum += math.Exp(logp + logInner)
	}
	return min(sum, 1)
}

// block is the first word of the block hash h falls in.
func (f sbbf) block(h uint64) int {
	blocks := uint64(len(f) / 8)
	return int(((h>>32)*blocks)>>32) * 8
}

func (f sbbf) insert(h uint64) {
	b, x := f.block(h), uint32(h)
	for i, s := range sbbfSalt {
		f[b+i] |= 1 << ((x * s) >> 27)
	}
}

func (f sbbf) check(h uint64) bool {
	b, x := f.block(h), uint32(h)
	for i, s := range sbbfSalt {
		if f[b+i]&(1<<((x*s)>>27)) == 0 {
			return false
		}
	}
	return true
}

// bloomHasher returns the XXH64 of row i's value bytes, for the types
// Lance's bloom filters take (false for others).
func bloomHasher(a arrow.Array) (func(i int) uint64, bool) {
	var buf [8]byte
	le := func(v uint64, w int) uint64 {
		binary.LittleEndian.PutUint64(buf[:], v)
		return xxhash.Sum64(buf[:w])
	}
	switch a := a.(type) {
	case *array.Int8:
		return func(i int) uint64 { return le(uint64(a.Value(i)), 1) }, true
	case *array.Int16:
		return func(i int) uint64 { return le(uint64(a.Value(i)), 2) }, true
	case *array.Int32:
		return func(i int) uint64 { return le(uint64(a.Value(i)), 4) }, true
	case *array.Int64:
		return func(i int) uint64 { return le(uint64(a.Value(i)), 8) }, true
	case *array.Uint8:
		return func(i int) uint64 { return le(uint64(a.Value(i)), 1) }, true
	case *array.Uint16:
		return func(i int) uint64 { return le(uint64(a.Value(i)), 2) }, true
	case *array.Uint32:
		return func(i int) uint64 { return le(uint64(a.Value(i)), 4) }, true
	case *array.Uint64:
		return func(i int) uint64 { return le(a.Value(i), 8) }, true
	case *array.Float32:
		return func(i int) uint64 { return le(uint64(math.Float32bits(a.Value(i))), 4) }, true
	case *array.Float64:
		return func(i int) uint64 { return le(math.Float64bits(a.Value(i)), 8) }, true
	case *array.Date32:
		return func(i int) uint64 { return le(uint64(a.Value(i)), 4) }, true
	case *array.Date64:
		return func(i int) uint64 { return le(uint64(a.Value(i)), 8) }, true
	case *array.Time32:
		return func(i int) uint64 { return le(uint64(a.Value(i)), 4) }, true
	case *array.Time64:
		return func(i int) uint64 { return le(uint64(a.Value(i)), 8) }, true
	case *array.Timestamp:
		return func(i int) uint64 { return le(uint64(a.Value(i)), 8) }, true
	}
	if val, ok := bytesValues(a); ok {
		return func(i int) uint64 { return xxhash.Sum64(val(i)) }, true
	}
	return nil, false
}

// BuildBloomFilter writes a BLOOMFILTER segment of in (row addresses for
// ids, in address order) through sink: the zone map's zones (items rows
// each), one filter per zone sized for items values at probability fpp.
func BuildBloomFilter(ctx context.Context, sink FileSink, in ScalarBuild, items uint64, fpp float64) ([]IndexFile, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	if items == 0 {
		items, fpp = DefaultBloomItems, DefaultBloomProbability
	}
	if !(fpp > 0 && fpp < 1) || items > 1<<32 {
		return nil, fmt.Errorf("%w: bloom filter of %d items at probability %v", ErrInvalidQuery, items, fpp)
	}
	hash, ok := bloomHasher(in.Values)
	if !ok {
		return nil, fmt.Errorf("%w: a BLOOMFILTER index on a %s column", ErrUnsupported, in.Values.DataType())
	}
	zones, spans, err := zoneSpans(in.IDs, items)
	if err != nil {
		return nil, err
	}
	mem := in.mem()
	data := array.NewBinaryBuilder(mem, arrow.BinaryTypes.Binary)
	defer data.Release()
	hasNull := array.NewBooleanBuilder(mem)
	defer hasNull.Release()
	var nulls []uint64
	fr, st, ln := make([]uint64, len(zones)), make([]uint64, len(zones)), make([]uint64, len(zones))
	size := len(newSBBF(items, fpp))
	buf := make([]byte, 4*size)
	for zi, z := range zones {
		f := make(sbbf, size)
		null := false
		for i := spans[zi][0]; i < spans[zi][1]; i++ {
			if in.Values.IsNull(i) {
				null = true
				nulls = append(nulls, in.IDs[i])
				continue
			}
			f.insert(hash(i))
		}
		for w, v := range f {
			binary.LittleEndian.PutUint32(buf[4*w:], v)
		}
		data.Append(buf)
		hasNull.Append(null)
		fr[zi], st[zi], ln[zi] = z.Fragment, z.Start, z.Length
	}
	nb, err := AppendRowAddrTreeMap(nil, nulls)
	if err != nil {
		return nil, err
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "fragment_id", Type: arrow.PrimitiveTypes.Uint64},
		{Name: "zone_start", Type: arrow.PrimitiveTypes.Uint64},
		{Name: "zone_length", Type: arrow.PrimitiveTypes.Uint64},
		{Name: "has_null", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "bloom_filter_data", Type: arrow.BinaryTypes.Binary},
	}, metadataOf("null_bitmap", "1", "bloomfilter_item", strconv.FormatUint(items, 10),
		"bloomfilter_probability", strconv.FormatFloat(fpp, 'f', -1, 64)))
	file, err := writeOneBatch(ctx, sink, BloomFilterFile, schema, []arrow.Array{uint64Array(mem, fr), uint64Array(mem, st),
		uint64Array(mem, ln), hasNull.NewArray(), data.NewArray()}, [][]byte{nb})
	if err != nil {
		return nil, err
	}
	return []IndexFile{file}, nil
}

// BloomFilter is an opened BLOOMFILTER segment (every zone in memory).
type BloomFilter struct {
	url     string
	zones   []Zone
	filters []sbbf
	file    indexFile
}

// OpenBloomFilterWith opens the BLOOMFILTER segment in directory dir
// relative to op.
func OpenBloomFilterWith(ctx context.Context, op Opener, dir string) (*BloomFilter, error) {
	f, err := openIndexFile(ctx, op, dir, BloomFilterFile)
	if err != nil {
		return nil, err
	}
	b := &BloomFilter{url: f.name, file: f}
	if f.f.NumRows() > maxZones {
		b.Close()
		return nil, fmt.Errorf("%w: %s: %d zones", ErrCorrupt, b.url, f.f.NumRows())
	}
	recs, err := readWhole(ctx, f.f, []string{"fragment_id", "zone_start", "zone_length", "bloom_filter_data"})
	if err != nil {
		b.Close()
		return nil, err
	}
	defer releaseAll(recs)
	for _, r := range recs {
		fr, ok1 := r.Column(0).(*array.Uint64)
		st, ok2 := r.Column(1).(*array.Uint64)
		ln, ok3 := r.Column(2).(*array.Uint64)
		bits, ok4 := r.Column(3).(*array.Binary)
		if !ok1 || !ok2 || !ok3 || !ok4 {
			b.Close()
			return nil, fmt.Errorf("%w: %s: zone columns of unexpected types", ErrCorrupt, b.url)
		}
		for i := 0; i < int(r.NumRows()); i++ {
			z := Zone{Fragment: fr.Value(i), Start: st.Value(i), Length: ln.Value(i)}
			raw := bits.Value(i)
			if z.Fragment > math.MaxUint32 || z.Start > math.MaxUint32 || z.Length > math.MaxUint32-z.Start ||
				len(raw) < 32 || len(raw)%32 != 0 {
				b.Close()
				return nil, fmt.Errorf("%w: %s: zone %d (fragment %d, rows %d+%d, a filter of %d bytes)", ErrCorrupt, b.url,
					len(b.zones), z.Fragment, z.Start, z.Length, len(raw))
			}
			f := make(sbbf, len(raw)/4)
			for w := range f {
				f[w] = binary.LittleEndian.Uint32(raw[4*w:])
			}
			b.zones, b.filters = append(b.zones, z), append(b.filters, f)
		}
	}
	return b, nil
}

// OpenBloomFilter opens the BLOOMFILTER segment in directory dir.
func OpenBloomFilter(ctx context.Context, dir string, opts ...fileread.Option) (*BloomFilter, error) {
	return OpenBloomFilterWith(ctx, pathOpener{opts}, dir)
}

// Close releases the segment.
func (b *BloomFilter) Close() error { return b.file.close() }

// In returns the rows of every zone whose filter may hold one of keys
// (candidates: recheck). A key of another kind than the column is
// ErrKeyType.
func (b *BloomFilter) In(_ context.Context, keys []Key, typ arrow.DataType) (*roaring64.Bitmap, error) {
	hs := make([]uint64, 0, len(keys))
	for _, k := range keys {
		h, err := bloomKeyHash(k, typ)
		if err != nil {
			return nil, err
		}
		hs = append(hs, h)
		// -0 equals +0 but hashes apart: look for both (Lance looks for
		// the key's bits only, and misses the other zero)
		if f, ok := keyFloat(k); ok && f == 0 && (typ.ID() == arrow.FLOAT32 || typ.ID() == arrow.FLOAT64) {
			if h, err = bloomKeyHash(FloatKey(math.Copysign(0, -1)*math.Copysign(1, f)), typ); err == nil {
				hs = append(hs, h)
			}
		}
	}
	out := roaring64.New()
	for zi, z := range b.zones {
		for _, h := range hs {
			if b.filters[zi].check(h) {
				base := z.Fragment<<32 | z.Start
				out.AddRange(base, base+z.Length)
				break
			}
		}
	}
	return out, nil
}

// IsNull returns the NULL rows (exact).
func (b *BloomFilter) IsNull(ctx context.Context) (*roaring64.Bitmap, error) {
	rows, ok, err := nullBitmapBuffer(ctx, b.file, "null_bitmap")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%w: %s: no null bitmap", ErrCorrupt, b.url)
	}
	return rows, nil
}

// bloomKeyHash hashes a query key as the column's values of type typ are
// hashed (the key converted to the column's width; a key the type cannot
// hold is ErrKeyType).
func bloomKeyHash(k Key, typ arrow.DataType) (uint64, error) {
	b := array.NewBuilder(memoryAllocator(), typ)
	defer b.Release()
	ok := true
	switch bb := b.(type) {
	case *array.StringBuilder:
		ok = k.Kind == KeyString
		bb.Append(k.Str)
	case *array.LargeStringBuilder:
		ok = k.Kind == KeyString
		bb.Append(k.Str)
	case *array.BinaryBuilder:
		ok = k.Kind == KeyString
		bb.Append([]byte(k.Str))
	case *array.Float64Builder:
		f, fok := keyFloat(k)
		ok = fok
		bb.Append(f)
	case *array.Float32Builder:
		f, fok := keyFloat(k)
		ok = fok && float64(float32(f)) == f
		bb.Append(float32(f))
	default:
		v, iok := keyInt(k)
		ok = iok && appendIntKey(b, v)
	}
	if !ok {
		return 0, fmt.Errorf("%w: %s column, key kind %d", ErrKeyType, typ, k.Kind)
	}
	a := b.NewArray()
	defer a.Release()
	h, _ := bloomHasher(a)
	if h == nil {
		return 0, fmt.Errorf("%w: %s column", ErrKeyType, typ)
	}
	return h(0), nil
}

func keyFloat(k Key) (float64, bool) {
	switch k.Kind {
	case KeyFloat:
		return k.Float, true
	case KeyInt:
		return float64(k.Int), true
	case KeyUint:
		return float64(k.Uint), true
	}
	return 0, false
}

func keyInt(k Key) (int64, bool) {
	switch k.Kind {
	case KeyInt:
		return k.Int, true
	case KeyUint:
		return int64(k.Uint), k.Uint <= math.MaxInt64
	}
	return 0, false
}

// appendIntKey appends v to an integer or temporal builder when it fits.
func appendIntKey(b array.Builder, v int64) bool {
	switch bb := b.(type) {
	case *array.Int8Builder:
		bb.Append(int8(v))
		return v == int64(int8(v))
	case *array.Int16Builder:
		bb.Append(int16(v))
		return v == int64(int16(v))
	case *array.Int32Builder:
		bb.Append(int32(v))
		return v == int64(int32(v))
	case *array.Int64Builder:
		bb.Append(v)
	case *array.Uint8Builder:
		bb.Append(uint8(v))
		return v == int64(uint8(v))
	case *array.Uint16Builder:
		bb.Append(uint16(v))
		return v == int64(uint16(v))
	case *array.Uint32Builder:
		bb.Append(uint32(v))
		return v == int64(uint32(v))
	case *array.Uint64Builder:
		bb.Append(uint64(v))
		return v >= 0
	case *array.Date32Builder:
		bb.Append(arrow.Date32(v))
		return v == int64(int32(v))
	case *array.Date64Builder:
		bb.Append(arrow.Date64(v))
	case *array.TimestampBuilder:
		bb.Append(arrow.Timestamp(v))
	default:
		return false
	}
	return true
}
