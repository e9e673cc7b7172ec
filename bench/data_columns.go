package bench

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// ColumnsDataset holds one column of every type the writer is timed on
// alone (issue #40): the side-by-side table's column shapes (a struct of
// int16 and f64, sequential and random i64, a price walk, f32, i32 with
// 10% nulls, list<int32>, 8-value, short and 300–700-byte strings) and the
// other writer types (an Arrow dictionary, a decimal, a timestamp, a date,
// a list of lists, a struct holding a list and a string, a fixed-size
// list, a blob column).
const ColumnsDataset = "columns"

// blobMetaKey marks a large_binary field as a Lance blob column.
const blobMetaKey = "lance-encoding:blob"

// columnsSchema is ColumnsDataset's schema.
func columnsSchema() *arrow.Schema {
	i32, i16, f64, str := arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Float64, arrow.BinaryTypes.String
	return arrow.NewSchema([]arrow.Field{
		{Name: "struct_i16_f64", Type: arrow.StructOf(arrow.Field{Name: "a", Type: i16}, arrow.Field{Name: "b", Type: f64})},
		{Name: "i64_seq", Type: arrow.PrimitiveTypes.Int64},
		{Name: "f64_walk", Type: f64},
		{Name: "f32", Type: arrow.PrimitiveTypes.Float32},
		{Name: "i64_rand", Type: arrow.PrimitiveTypes.Int64},
		{Name: "i32_null10", Type: i32, Nullable: true},
		{Name: "list_i32", Type: arrow.ListOf(i32)},
		{Name: "str_dict8", Type: str},
		{Name: "str_short8_24", Type: str},
		{Name: "str_long300_700", Type: str},
		{Name: "dict_i16_str", Type: &arrow.DictionaryType{IndexType: i16, ValueType: str}},
		{Name: "decimal18_2", Type: &arrow.Decimal128Type{Precision: 18, Scale: 2}},
		{Name: "ts_us", Type: &arrow.TimestampType{Unit: arrow.Microsecond}},
		{Name: "date32", Type: arrow.FixedWidthTypes.Date32},
		{Name: "list_list_i32", Type: arrow.ListOf(arrow.ListOf(i32))},
		{Name: "struct_list_str", Type: arrow.StructOf(arrow.Field{Name: "tags", Type: arrow.ListOf(str)}, arrow.Field{Name: "name", Type: str})},
		{Name: "fsl_f32x16", Type: arrow.FixedSizeListOf(16, arrow.PrimitiveTypes.Float32)},
		{Name: "blob", Type: arrow.BinaryTypes.LargeBinary, Nullable: true,
			Metadata: arrow.NewMetadata([]string{blobMetaKey}, []string{"true"})},
	}, nil)
}

// fillColumn fills ColumnsDataset column col with n rows; it reports
// false for a column name of another data set.
func (g *generator) fillColumn(col string, b array.Builder, n int) bool {
	switch col {
	case "struct_i16_f64":
		sb := b.(*array.StructBuilder)
		ab, fb := sb.FieldBuilder(0).(*array.Int16Builder), sb.FieldBuilder(1).(*array.Float64Builder)
		for range n {
			sb.Append(true)
			ab.Append(int16(g.rng.IntN(2000)))
			fb.Append(g.rng.NormFloat64() * 100)
		}
	case "i64_seq":
		for range n {
			g.sorted++
			b.(*array.Int64Builder).Append(g.sorted)
		}
	case "f64_walk":
		g.fillWalk(b.(*array.Float64Builder), n)
	case "f32":
		for range n {
			b.(*array.Float32Builder).Append(float32(g.rng.NormFloat64()))
		}
	case "i64_rand":
		for range n {
			b.(*array.Int64Builder).Append(int64(g.rng.Uint64()))
		}
	case "i32_null10":
		ib := b.(*array.Int32Builder)
		for range n {
			if g.rng.IntN(10) == 0 {
				ib.AppendNull()
			} else {
				ib.Append(int32(g.rng.IntN(1 << 20)))
			}
		}
	case "list_i32":
		g.fillList(b.(*array.ListBuilder), n)
	case "str_dict8":
		vocab := g.dictVocab("dict8_short")
		for range n {
			b.(*array.StringBuilder).Append(vocab[g.rng.IntN(len(vocab))])
		}
	case "str_short8_24":
		for range n {
			b.(*array.StringBuilder).Append(g.ident(8 + g.rng.IntN(17)))
		}
	case "str_long300_700":
		for range n {
			l := 300 + g.rng.IntN(401)
			b.(*array.StringBuilder).Append(g.text(l)[:l])
		}
	default:
		return g.fillColumnMore(col, b, n)
	}
	return true
}

// fillColumnMore fills the writer-type columns of ColumnsDataset.
func (g *generator) fillColumnMore(col string, b array.Builder, n int) bool {
	switch col {
	case "dict_i16_str":
		vocab := g.dictVocab("dict2000_short")[:1000]
		db := b.(*array.BinaryDictionaryBuilder)
		// every batch's dictionary is the whole vocabulary in one order
		// (an IPC file holds one dictionary per field)
		arr := array.NewStringBuilder(memory.DefaultAllocator)
		arr.AppendValues(vocab, nil)
		dict := arr.NewStringArray()
		_ = db.InsertStringDictValues(dict)
		dict.Release()
		arr.Release()
		for range n {
			_ = db.AppendString(vocab[g.dictIndex(len(vocab))])
		}
	case "decimal18_2":
		for range n {
			b.(*array.Decimal128Builder).Append(decimal128.FromI64(int64(g.rng.IntN(100_000_000))))
		}
	case "ts_us":
		for range n {
			g.ts += int64(g.rng.IntN(2_000_000))
			b.(*array.TimestampBuilder).Append(arrow.Timestamp(1_700_000_000_000_000 + g.ts))
		}
	case "date32":
		for range n {
			b.(*array.Date32Builder).Append(arrow.Date32(18000 + g.rng.IntN(3650)))
		}
	case "list_list_i32":
		lb := b.(*array.ListBuilder)
		for range n {
			lb.Append(true)
			for range g.rng.IntN(4) {
				g.fillList(lb.ValueBuilder().(*array.ListBuilder), 1)
			}
		}
	case "struct_list_str":
		sb := b.(*array.StructBuilder)
		lb, nb := sb.FieldBuilder(0).(*array.ListBuilder), sb.FieldBuilder(1).(*array.StringBuilder)
		vb := lb.ValueBuilder().(*array.StringBuilder)
		for range n {
			sb.Append(true)
			lb.Append(true)
			for range g.rng.IntN(4) {
				vb.Append(g.words[zipf(g.rng, len(g.words))])
			}
			nb.Append(g.ident(6 + g.rng.IntN(10)))
		}
	case "fsl_f32x16":
		fb := b.(*array.FixedSizeListBuilder)
		vb := fb.ValueBuilder().(*array.Float32Builder)
		for range n {
			fb.Append(true)
			for range 16 {
				vb.Append(float32(g.rng.NormFloat64()))
			}
		}
	case "blob":
		g.fillBlobs(b.(*array.BinaryBuilder), n)
	default:
		return false
	}
	return true
}

// fillWalk appends a price walk: cents that move a little every row.
func (g *generator) fillWalk(fb *array.Float64Builder, n int) {
	if g.walk == 0 {
		g.walk = 10000
	}
	for range n {
		g.walk = max(1, g.walk+int64(math.Round(g.rng.NormFloat64()*5)))
		fb.Append(float64(g.walk) / 100)
	}
}

// fillBlobs appends 256–2,048-byte payloads to one row in 8, the others
// null (about 140 MB over a million rows).
func (g *generator) fillBlobs(bb *array.BinaryBuilder, n int) {
	buf := make([]byte, 2048)
	for range n {
		if g.rng.IntN(8) != 0 {
			bb.AppendNull()
			continue
		}
		l := 256 + g.rng.IntN(1793)
		for i := 0; i < l; i += 8 {
			v := g.rng.Uint64()
			for j := 0; j < 8 && i+j < l; j++ {
				buf[i+j] = byte(v >> (8 * j))
			}
		}
		bb.Append(buf[:l])
	}
}
