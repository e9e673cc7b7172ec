package zonestats

import (
	"bytes"
	"fmt"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Seed is a parsed and validated zone seed of one column. Only seeds that
// passed every validation rule are ever returned, so any Seed may be used
// to prune.
type Seed struct {
	// Version is the seed version, 0 or 1.
	Version int
	// RowsPerZone is the zone size from the locator.
	RowsPerZone uint64
	// Zones holds one Stats per zone, in row order.
	Zones []Stats
	// NullBitmap holds the exact null offsets (row 0 = first row covered
	// by the seed), or nil when the seed has no seed_null_bitmap (null
	// positions unknown, rule N1). Callers must not modify it.
	NullBitmap *roaring.Bitmap

	info *typeInfo
}

// Type returns the column's Arrow type.
func (s *Seed) Type() arrow.DataType { return s.info.dt }

// Rows returns the number of rows the seed covers (the sum of its zone
// lengths; validation guarantees it fits in 64 bits).
func (s *Seed) Rows() uint64 {
	var n uint64
	for i := range s.Zones {
		n += s.Zones[i].ZoneLength
	}
	return n
}

// Summary merges all zones into one Stats for the whole data file.
func (s *Seed) Summary() (Stats, error) {
	out := Stats{info: s.info, NaNSignKnown: true}
	for _, z := range s.Zones {
		var err error
		if out, err = Merge(out, z); err != nil {
			return Stats{}, err
		}
	}
	return out, nil
}

// ParseSeed parses the bytes of a seed's global buffer and validates it
// against the column type, the locator's rows_per_zone and the number of
// rows the data file covers. Every rule of the specification's checklist
// (L2–L5, C1–C4, B1–B5, N1–N4) is checked; a failure wraps ErrInvalidSeed
// (or ErrUnsupportedVersion) and names the rule. mem may be nil.
func ParseSeed(data []byte, col arrow.DataType, rowsPerZone, rows uint64, mem memory.Allocator) (*Seed, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	if rowsPerZone == 0 {
		return nil, fmt.Errorf("%w: L1: rows_per_zone is 0", ErrInvalidSeed)
	}
	s := &Seed{RowsPerZone: rowsPerZone, info: newTypeInfo(col)}
	meta, err := s.readIPC(data, mem)
	if err != nil {
		return nil, err
	}
	if err := s.validate(rows); err != nil {
		return nil, err
	}
	if text, ok := meta[MetaNullBitmap]; ok {
		if s.NullBitmap, err = decodeNullBitmap(text, rows); err != nil {
			return nil, err
		}
		if err := s.checkBitmapCounts(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// readIPC opens the IPC file, checks its schema and reads all zones. It
// returns the schema metadata. A panic inside the IPC decoder (malformed
// flatbuffers) is reported as an L2 failure.
func (s *Seed) readIPC(data []byte, mem memory.Allocator) (meta map[string]string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: L2: not a readable Arrow IPC file: %v", ErrInvalidSeed, r)
		}
	}()
	if err := checkIPCFooter(data); err != nil {
		return nil, fmt.Errorf("%w: L2: not an Arrow IPC file: %v", ErrInvalidSeed, err)
	}
	r, err := ipc.NewFileReader(bytes.NewReader(data), ipc.WithAllocator(mem))
	if err != nil {
		return nil, fmt.Errorf("%w: L2: not an Arrow IPC file: %v", ErrInvalidSeed, err)
	}
	defer r.Close()
	md := r.Schema().Metadata()
	meta = make(map[string]string, md.Len())
	for i, k := range md.Keys() {
		meta[k] = md.Values()[i]
	}
	if err := s.checkSchema(r.Schema(), meta); err != nil {
		return nil, err
	}
	for i := 0; i < r.NumRecords(); i++ {
		if err := s.readRecord(r, i); err != nil {
			return nil, err
		}
	}
	return meta, nil
}

// readRecord appends the zones of record i.
func (s *Seed) readRecord(r *ipc.FileReader, i int) error {
	rec, err := r.RecordBatch(i)
	if err != nil {
		return fmt.Errorf("%w: L2: record %d: %v", ErrInvalidSeed, i, err)
	}
	// The reader owns rec and releases it on the next call or Close.
	return s.addZones(rec)
}

// countCols returns the count columns of rec in schema order.
func (s *Seed) countCols(rec arrow.RecordBatch) (nulls, nans, neg *array.Uint32, lens *array.Uint64, err error) {
	cols := rec.Columns()[2:]
	if s.Version == 0 {
		cols = append([]arrow.Array{cols[0], cols[1], nil}, cols[2])
	}
	for _, c := range cols {
		if c != nil && c.NullN() != 0 {
			return nil, nil, nil, nil, fmt.Errorf("%w: L4: a count column holds nulls", ErrInvalidSeed)
		}
	}
	nulls, _ = cols[0].(*array.Uint32)
	nans, _ = cols[1].(*array.Uint32)
	neg, _ = cols[2].(*array.Uint32)
	lens, _ = cols[3].(*array.Uint64)
	if nulls == nil || nans == nil || lens == nil || (s.Version == 1 && neg == nil) {
		return nil, nil, nil, nil, fmt.Errorf("%w: L4: count column arrays have the wrong type", ErrInvalidSeed)
	}
	return nulls, nans, neg, lens, nil
}

// addZones converts the rows of one record into Stats.
func (s *Seed) addZones(rec arrow.RecordBatch) error {
	nulls, nans, neg, lens, err := s.countCols(rec)
	if err != nil {
		return err
	}
	minB, err := s.boundReader(rec.Column(0))
	if err != nil {
		return err
	}
	maxB, err := s.boundReader(rec.Column(1))
	if err != nil {
		return err
	}
	for i := 0; i < int(rec.NumRows()); i++ {
		z := Stats{info: s.info, ZoneLength: lens.Value(i), NullCount: uint64(nulls.Value(i)),
			NaNCount: uint64(nans.Value(i)), NaNSignKnown: s.Version == 1}
		if neg != nil {
			z.NegativeNaNCount = uint64(neg.Value(i))
		}
		if err := s.setBounds(&z, minB, maxB, i); err != nil {
			return fmt.Errorf("zone %d: %w", len(s.Zones), err)
		}
		s.Zones = append(s.Zones, z)
	}
	return nil
}
