package plainjson

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// source hands out fuzz bytes; past the end it returns zeros.
type source struct{ b []byte }

func (s *source) byte() byte {
	if len(s.b) == 0 {
		return 0
	}
	c := s.b[0]
	s.b = s.b[1:]
	return c
}

func (s *source) u64() uint64 {
	var w [8]byte
	n := copy(w[:], s.b)
	s.b = s.b[n:]
	return binary.LittleEndian.Uint64(w[:])
}

func (s *source) bytes(max int) []byte {
	n := min(int(s.byte())%(max+1), len(s.b))
	out := s.b[:n]
	s.b = s.b[n:]
	return out
}

var fuzzZones = []string{"", "UTC", "America/New_York", "+05:30", "Asia/Kathmandu"}

// randType picks an Arrow type; nested types only while depth > 0.
func (s *source) randType(depth int) arrow.DataType {
	leaves := []arrow.DataType{
		arrow.FixedWidthTypes.Boolean, arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32,
		arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Uint32,
		arrow.PrimitiveTypes.Uint64, arrow.FixedWidthTypes.Float16, arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64,
		arrow.BinaryTypes.String, arrow.BinaryTypes.LargeBinary, &arrow.FixedSizeBinaryType{ByteWidth: 3},
		arrow.FixedWidthTypes.Date32, arrow.FixedWidthTypes.Date64, arrow.FixedWidthTypes.Time32ms, arrow.FixedWidthTypes.Time64ns,
		arrow.FixedWidthTypes.Duration_us, arrow.Null,
	}
	k := int(s.byte())
	if depth <= 0 {
		k %= len(leaves) + 2
	} else {
		k %= len(leaves) + 7
	}
	switch k - len(leaves) {
	case 0:
		return &arrow.Decimal128Type{Precision: 38, Scale: int32(int8(s.byte())) % 40}
	case 1:
		return &arrow.TimestampType{Unit: arrow.TimeUnit(s.byte() % 4), TimeZone: fuzzZones[int(s.byte())%len(fuzzZones)]}
	case 2:
		return arrow.ListOf(s.randType(depth - 1))
	case 3:
		return arrow.FixedSizeListOf(int32(s.byte()%3+1), s.randType(depth-1))
	case 4:
		return arrow.StructOf(arrow.Field{Name: "a", Type: s.randType(depth - 1), Nullable: true},
			arrow.Field{Name: string(s.bytes(4)), Type: s.randType(depth - 1), Nullable: true})
	case 5:
		return arrow.MapOf(arrow.BinaryTypes.String, s.randType(depth-1))
	case 6:
		return &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
	}
	return leaves[k]
}

// appendRandom appends one value (or a null) to b.
func (s *source) appendRandom(b array.Builder) {
	if c := s.byte(); c%5 == 0 {
		b.AppendNull()
		return
	}
	switch b := b.(type) {
	case *array.BooleanBuilder:
		b.Append(s.byte()&1 == 1)
	case *array.Int8Builder:
		b.Append(int8(s.u64()))
	case *array.Int16Builder:
		b.Append(int16(s.u64()))
	case *array.Int32Builder:
		b.Append(int32(s.u64()))
	case *array.Int64Builder:
		b.Append(int64(s.u64()))
	case *array.Uint8Builder:
		b.Append(uint8(s.u64()))
	case *array.Uint16Builder:
		b.Append(uint16(s.u64()))
	case *array.Uint32Builder:
		b.Append(uint32(s.u64()))
	case *array.Uint64Builder:
		b.Append(s.u64())
	case *array.Float16Builder:
		b.Append(float16.FromBits(uint16(s.u64())))
	case *array.Float32Builder:
		b.Append(math.Float32frombits(uint32(s.u64())))
	case *array.Float64Builder:
		b.Append(math.Float64frombits(s.u64()))
	case *array.StringBuilder:
		b.BinaryBuilder.Append(s.bytes(8)) // any bytes, invalid UTF-8 too
	case *array.BinaryBuilder:
		b.Append(s.bytes(8))
	case *array.FixedSizeBinaryBuilder:
		b.Append([]byte{s.byte(), s.byte(), s.byte()})
	case *array.Date32Builder:
		b.Append(arrow.Date32(s.u64()))
	case *array.Date64Builder:
		b.Append(arrow.Date64(s.u64()))
	case *array.Time32Builder:
		b.Append(arrow.Time32(s.u64()))
	case *array.Time64Builder:
		b.Append(arrow.Time64(s.u64()))
	case *array.DurationBuilder:
		b.Append(arrow.Duration(s.u64()))
	case *array.TimestampBuilder:
		b.Append(arrow.Timestamp(s.u64()))
	case *array.Decimal128Builder:
		b.Append(decimal128.New(int64(s.u64()), s.u64()))
	case *array.NullBuilder:
		b.AppendNull()
	case *array.MapBuilder:
		b.Append(true)
		for range s.byte() % 3 {
			b.KeyBuilder().(*array.StringBuilder).Append(string(s.bytes(4)))
			s.appendRandom(b.ItemBuilder())
		}
	case *array.ListBuilder:
		b.Append(true)
		for range s.byte() % 4 {
			s.appendRandom(b.ValueBuilder())
		}
	case *array.FixedSizeListBuilder:
		b.Append(true)
		n := b.Type().(*arrow.FixedSizeListType).Len()
		for range n {
			s.appendRandom(b.ValueBuilder())
		}
	case *array.StructBuilder:
		b.Append(true)
		for i := range b.NumField() {
			s.appendRandom(b.FieldBuilder(i))
		}
	case *array.BinaryDictionaryBuilder:
		_ = b.AppendString(string(s.bytes(3)))
	default:
		b.AppendNull()
	}
}

// FuzzWriter: random arrays of random (nested) types never panic and
// always print valid JSON, as one array and as JSON Lines.
func FuzzWriter(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{4, 3, 1, 2, 255, 255, 255, 255, 255, 255, 255, 127, 9})
	f.Add(bytes.Repeat([]byte{0x1b, 0xff, 0x7f, 0x80, 0x01, 0x00, 0xc3}, 12))
	f.Add(bytes.Repeat([]byte{0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x15, 0x16, 0x0b, 0xff, 0x7c}, 20))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := &source{b: data}
		mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
		defer mem.AssertSize(t, 0)
		fields := make([]arrow.Field, 1+int(s.byte())%3)
		for i := range fields {
			fields[i] = arrow.Field{Name: string(s.bytes(3)), Type: s.randType(3), Nullable: true}
		}
		rb := array.NewRecordBuilder(mem, arrow.NewSchema(fields, nil))
		defer rb.Release()
		rows := int(s.byte()) % 6
		for range rows {
			for i := range fields {
				s.appendRandom(rb.Field(i))
			}
		}
		rec := rb.NewRecordBatch()
		defer rec.Release()
		var whole, lines bytes.Buffer
		for _, c := range []struct {
			out   *bytes.Buffer
			lines bool
		}{{&whole, false}, {&lines, true}} {
			w := NewWriter(c.out, c.lines)
			if err := w.Write(rec); err != nil {
				t.Fatalf("%v: %v", rec.Schema(), err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
		}
		var got []json.RawMessage
		if err := json.Unmarshal(whole.Bytes(), &got); err != nil || len(got) != rows {
			t.Fatalf("%v: %d rows, %v:\n%s", rec.Schema(), len(got), err, whole.String())
		}
		ls := bytes.Split(bytes.TrimSuffix(lines.Bytes(), []byte("\n")), []byte("\n"))
		if rows == 0 {
			ls = nil
		}
		if len(ls) != rows {
			t.Fatalf("%d lines for %d rows", len(ls), rows)
		}
		for i, l := range ls {
			if !json.Valid(l) || !bytes.Equal(l, bytes.TrimSpace(got[i])) {
				t.Fatalf("line %d %s vs array element %s", i, l, got[i])
			}
		}
	})
}
