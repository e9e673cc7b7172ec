package zonestats

import (
	"bytes"
	"encoding/hex"
	"fmt"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Seed schema field names and metadata keys.
const (
	fieldMin         = "min"
	fieldMax         = "max"
	fieldNullCount   = "null_count"
	fieldNaNCount    = "nan_count"
	fieldNegNaNCount = "negative_nan_count"
	fieldZoneLength  = "zone_length"

	// MetaVersion is the seed IPC schema metadata key holding the seed
	// version ("1"); it is absent in version 0 seeds.
	MetaVersion = "version"
	// MetaNullBitmap is the seed IPC schema metadata key holding the
	// hex-encoded portable Roaring bitmap of null offsets.
	MetaNullBitmap = "seed_null_bitmap"
)

// seedSchema returns the version 1 seed schema for a column type.
func seedSchema(dt arrow.DataType, meta map[string]string) *arrow.Schema {
	md := arrow.MetadataFrom(meta)
	return arrow.NewSchema([]arrow.Field{
		{Name: fieldMin, Type: dt, Nullable: true},
		{Name: fieldMax, Type: dt, Nullable: true},
		{Name: fieldNullCount, Type: arrow.PrimitiveTypes.Uint32},
		{Name: fieldNaNCount, Type: arrow.PrimitiveTypes.Uint32},
		{Name: fieldNegNaNCount, Type: arrow.PrimitiveTypes.Uint32},
		{Name: fieldZoneLength, Type: arrow.PrimitiveTypes.Uint64},
	}, &md)
}

// writeSeed serializes zones as a version 1 seed IPC file.
func writeSeed(mem memory.Allocator, info *typeInfo, zones []Stats, nulls *roaring.Bitmap) ([]byte, error) {
	meta := map[string]string{MetaVersion: "1"}
	if nulls != nil {
		raw, err := nulls.ToBytes()
		if err != nil {
			return nil, fmt.Errorf("zonestats: serializing null bitmap: %w", err)
		}
		meta[MetaNullBitmap] = hex.EncodeToString(raw)
	}
	schema := seedSchema(info.dt, meta)
	var buf bytes.Buffer
	w, err := ipc.NewFileWriter(&buf, ipc.WithSchema(schema), ipc.WithAllocator(mem))
	if err != nil {
		return nil, fmt.Errorf("zonestats: writing seed: %w", err)
	}
	if len(zones) > 0 {
		rec := seedRecord(mem, schema, info, zones)
		err = w.Write(rec)
		rec.Release()
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("zonestats: writing seed: %w", err)
	}
	return buf.Bytes(), nil
}

// seedRecord builds the record of all zones.
func seedRecord(mem memory.Allocator, schema *arrow.Schema, info *typeInfo, zones []Stats) arrow.RecordBatch {
	cols := []arrow.Array{
		boundArray(mem, info, zones, false),
		boundArray(mem, info, zones, true),
		countArray(mem, zones, func(z *Stats) uint64 { return z.NullCount }),
		countArray(mem, zones, func(z *Stats) uint64 { return z.NaNCount }),
		countArray(mem, zones, func(z *Stats) uint64 { return z.NegativeNaNCount }),
		lengthArray(mem, zones),
	}
	rec := array.NewRecordBatch(schema, cols, int64(len(zones)))
	for _, c := range cols {
		c.Release()
	}
	return rec
}

// countArray builds a UInt32 count column. Zone counts never exceed
// MaxRowsPerZone, so the conversion is exact.
func countArray(mem memory.Allocator, zones []Stats, f func(*Stats) uint64) arrow.Array {
	b := array.NewUint32Builder(mem)
	defer b.Release()
	for i := range zones {
		b.Append(uint32(f(&zones[i])))
	}
	return b.NewArray()
}

// lengthArray builds the UInt64 zone_length column.
func lengthArray(mem memory.Allocator, zones []Stats) arrow.Array {
	b := array.NewUint64Builder(mem)
	defer b.Release()
	for i := range zones {
		b.Append(zones[i].ZoneLength)
	}
	return b.NewArray()
}

// boundArray builds the min (or max) column of the column's type.
func boundArray(mem memory.Allocator, info *typeInfo, zones []Stats, isMax bool) arrow.Array {
	if !info.bounded() {
		b := array.NewBuilder(mem, info.dt)
		defer b.Release()
		b.AppendNulls(len(zones))
		return b.NewArray()
	}
	vals := valueArray(mem, info, zones, isMax)
	dt, ok := info.dt.(*arrow.DictionaryType)
	if !ok {
		return vals
	}
	defer vals.Release()
	return dictionaryOf(mem, dt, vals)
}

// valueArray builds bounds in the value type, null where unknown.
func valueArray(mem memory.Allocator, info *typeInfo, zones []Stats, isMax bool) arrow.Array {
	b := array.NewBuilder(mem, info.vt)
	defer b.Release()
	for i := range zones {
		z := &zones[i]
		v, ok := z.min, z.hasMin
		if isMax {
			v, ok = z.max, z.hasMax
		}
		if ok {
			appendValue(b, info, &v)
		} else {
			b.AppendNull()
		}
	}
	return b.NewArray()
}

// dictionaryOf wraps vals as a dictionary array whose row i points at
// dictionary entry i (null where vals is null).
func dictionaryOf(mem memory.Allocator, dt *arrow.DictionaryType, vals arrow.Array) arrow.Array {
	b := array.NewBuilder(mem, dt.IndexType)
	defer b.Release()
	idxInfo := newTypeInfo(dt.IndexType)
	for i := 0; i < vals.Len(); i++ {
		if vals.IsNull(i) {
			b.AppendNull()
			continue
		}
		v := value{i: int64(i), u: uint64(i)}
		appendValue(b, idxInfo, &v)
	}
	idx := b.NewArray()
	defer idx.Release()
	return array.NewDictionaryArray(dt, idx, vals)
}
