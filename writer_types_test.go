package lance

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// dictKeyTypes are the Arrow dictionary key types.
var dictKeyTypes = []arrow.DataType{
	arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64,
	arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Uint32, arrow.PrimitiveTypes.Uint64,
}

// dictValueTypes are the dictionary value types of the key-width matrix.
var dictValueTypes = []arrow.DataType{
	arrow.BinaryTypes.String, arrow.BinaryTypes.LargeString, arrow.BinaryTypes.Binary, arrow.PrimitiveTypes.Int64,
}

// dictValues builds six dictionary values of type vt (the fifth used by no
// key); with nullValue the third is null.
func dictValues(mem memory.Allocator, vt arrow.DataType, nullValue bool) arrow.Array {
	strs := []string{"apple", "banana", "cherry", "durian", "never used", "fig"}
	ints := []int64{10, -3, 7, 1 << 40, 99, 0}
	b := array.NewBuilder(mem, vt)
	defer b.Release()
	for i := range strs {
		if nullValue && i == 2 {
			b.AppendNull()
			continue
		}
		switch bb := b.(type) {
		case *array.StringBuilder:
			bb.Append(strs[i])
		case *array.LargeStringBuilder:
			bb.Append(strs[i])
		case *array.BinaryBuilder:
			bb.Append([]byte(strs[i]))
		case *array.Int64Builder:
			bb.Append(ints[i])
		}
	}
	return b.NewArray()
}

// dictKeys builds n keys of type kt cycling over the used values (every
// seventh null with nullKeys).
func dictKeys(mem memory.Allocator, kt arrow.DataType, n int, nullKeys bool) arrow.Array {
	used := []int{0, 1, 2, 3, 5, 1, 1, 0}
	var sb strings.Builder
	sb.WriteByte('[')
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		if nullKeys && i%7 == 3 {
			sb.WriteString("null")
			continue
		}
		fmt.Fprint(&sb, used[(i/3)%len(used)])
	}
	sb.WriteByte(']')
	a, _, err := array.FromJSON(mem, kt, strings.NewReader(sb.String()))
	if err != nil {
		panic(err)
	}
	return a
}

// dictRecord is one batch of a nullable dictionary column "d" beside an
// int32 column "i".
func dictRecord(mem memory.Allocator, kt, vt arrow.DataType, n int, nullKeys, nullValues bool) (*arrow.Schema, arrow.RecordBatch) {
	dt := &arrow.DictionaryType{IndexType: kt, ValueType: vt}
	schema := arrow.NewSchema([]arrow.Field{{Name: "d", Type: dt, Nullable: true}}, nil)
	keys, vals := dictKeys(mem, kt, n, nullKeys), dictValues(mem, vt, nullValues)
	defer keys.Release()
	defer vals.Release()
	d := array.NewDictionaryArray(dt, keys, vals)
	defer d.Release()
	return schema, array.NewRecordBatch(schema, []arrow.Array{d}, int64(n))
}

// TestWriterDictionaryKeyWidths writes dictionary columns of every key
// type and value type, with nulls in the keys, in the values or both, at
// every version: Lance keeps them dictionary-encoded with indices of the
// declared key width (its "already dictionary encoded" path), the null
// values moved into the keys. Real Lance must read the input back, and
// pylance must write the very same pages.
func TestWriterDictionaryKeyWidths(t *testing.T) {
	mem := memory.NewGoAllocator()
	nulls := []struct {
		name         string
		keys, values bool
	}{{"no_nulls", false, false}, {"null_keys", true, false}, {"null_values", false, true}, {"null_both", true, true}}
	var cases []writerCase
	for _, ver := range []string{"2.1", "2.2", "2.3"} {
		for _, kt := range dictKeyTypes {
			for _, vt := range dictValueTypes {
				for _, nl := range nulls {
					schema, rec := dictRecord(mem, kt, vt, 3000, nl.keys, nl.values)
					cases = append(cases, writerCase{name: fmt.Sprintf("%s/%s/%s/%s", ver, kt, vt, nl.name),
						ver: ver, schema: schema, recs: []arrow.RecordBatch{rec}})
				}
			}
		}
	}
	checkWriterCases(t, cases)
}

// TestWriterDictionaryNested writes dictionary columns inside a struct and
// a list, and one split over batches sharing their dictionary (Lance
// normalizes each dictionary's null values wherever it sits).
func TestWriterDictionaryNested(t *testing.T) {
	mem := memory.NewGoAllocator()
	var cases []writerCase
	for _, ver := range []string{"2.1", "2.2", "2.3"} {
		for _, kt := range []arrow.DataType{arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Uint16} {
			name := ver + "/" + kt.String()
			_, d := dictRecord(mem, kt, arrow.BinaryTypes.String, 2000, true, true)
			col := d.Column(0)
			st, err := array.NewStructArray([]arrow.Array{col}, []string{"d"})
			if err != nil {
				t.Fatal(err)
			}
			sSchema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: st.DataType(), Nullable: true}}, nil)
			cases = append(cases, writerCase{name: name + "/struct", ver: ver, schema: sSchema,
				recs: []arrow.RecordBatch{array.NewRecordBatch(sSchema, []arrow.Array{st}, int64(st.Len()))}})
			lst := listOfDict(mem, col)
			lSchema := arrow.NewSchema([]arrow.Field{{Name: "l", Type: lst.DataType(), Nullable: true}}, nil)
			cases = append(cases, writerCase{name: name + "/list", ver: ver, schema: lSchema,
				recs: []arrow.RecordBatch{array.NewRecordBatch(lSchema, []arrow.Array{lst}, int64(lst.Len()))}})
			cases = append(cases, writerCase{name: name + "/batches", ver: ver, schema: d.Schema(),
				recs: []arrow.RecordBatch{d.NewSlice(0, 700), d.NewSlice(700, 1500), d.NewSlice(1500, 2000)},
				// Lance keeps a dictionary the batches share (the same buffers) once, as we
				// do; the batches pylance reads from IPC no longer share it, so it
				// concatenates the three copies (arrow-rs concat).
				noPages: "pylance's batches do not share their dictionary"})
		}
	}
	checkWriterCases(t, cases)
}

// listOfDict wraps values in a list array of lists of 0 to 4 entries
// (every eleventh list null).
func listOfDict(mem memory.Allocator, values arrow.Array) arrow.Array {
	offsets := []int32{0}
	var valid []bool
	for pos, i := int32(0), 0; int(pos) < values.Len(); i++ {
		if i%11 != 5 { // null lists are empty
			pos = min(pos+int32(i%5), int32(values.Len()))
		}
		offsets = append(offsets, pos)
		valid = append(valid, i%11 != 5)
	}
	n := len(valid)
	nulls := make([]byte, (n+7)/8)
	nullN := 0
	for i, v := range valid {
		if v {
			nulls[i/8] |= 1 << (i % 8)
		} else {
			nullN++
		}
	}
	dt := arrow.ListOf(values.DataType())
	data := array.NewData(dt, n, []*memory.Buffer{memory.NewBufferBytes(nulls), memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offsets))},
		[]arrow.ArrayData{values.Data()}, nullN, 0)
	defer data.Release()
	return array.MakeFromData(data)
}

// TestWriterDictionaryHostileKeys checks that a dictionary key outside its
// dictionary is refused as an invalid argument (with and without null
// values, which take different paths).
func TestWriterDictionaryHostileKeys(t *testing.T) {
	for _, values := range []string{`["a","b"]`, `["a",null]`} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String}
		keys, _, _ := array.FromJSON(mem, dt.IndexType, strings.NewReader(`[0,1,9,0]`))
		vals, _, _ := array.FromJSON(mem, dt.ValueType, strings.NewReader(values))
		d := array.NewDictionaryArray(dt, keys, vals)
		schema := arrow.NewSchema([]arrow.Field{{Name: "d", Type: dt, Nullable: true}}, nil)
		rec := array.NewRecordBatch(schema, []arrow.Array{d}, int64(d.Len()))
		ctx := t.Context()
		w, err := Create(ctx, filepath.Join(t.TempDir(), "x.lance"), schema)
		if err != nil {
			t.Fatal(err)
		}
		err = w.Write(ctx, rec)
		if err == nil {
			err = w.Close(ctx)
		} else {
			w.Abort()
		}
		if !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("values %s: err %v, want ErrInvalidArgument", values, err)
		}
		for _, a := range []interface{ Release() }{rec, d, keys, vals} {
			a.Release()
		}
		mem.AssertSize(t, 0)
	}
}

// TestWriterFSLItems writes the fixed-size lists the writer supports (of
// fixed-width items, nested too, with null lists and null items) and
// checks that the others are refused at Create with ErrUnsupportedType:
// of variable-width items (pylance panics on them) and of lists (pylance
// refuses them). Fixed-size lists of structs: writer_fsl_struct_test.go;
// of booleans: writer_fslbool_test.go.
func TestWriterFSLItems(t *testing.T) {
	mem := memory.NewGoAllocator()
	fromJSON := func(dt arrow.DataType, js string) arrow.Array {
		a, _, err := array.FromJSON(mem, dt, strings.NewReader(js))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	var cases []writerCase
	for _, ver := range []string{"2.1", "2.2", "2.3"} {
		for _, tc := range []struct {
			name     string
			dt       arrow.DataType
			js, full string // with nulls, without
		}{
			{"f16", arrow.FixedSizeListOf(3, arrow.FixedWidthTypes.Float16), `[[1.5,null,-2],null,[0,0.25,8]]`, `[[1.5,3,-2],[1,2,3],[0,0.25,8]]`},
			{"i16x2x3", arrow.FixedSizeListOf(3, arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int16)), `[[[1,2],[3,null],null],null,[[7,8],[9,10],[11,12]]]`,
				`[[[1,2],[3,4],[5,6]],[[-1,-2],[0,0],[1,1]],[[7,8],[9,10],[11,12]]]`},
			{"decimal128", arrow.FixedSizeListOf(2, &arrow.Decimal128Type{Precision: 10, Scale: 2}), `[["1.25","-3.50"],null,[null,"99999999.99"]]`,
				`[["1.25","-3.50"],["0.01","7"],["5","99999999.99"]]`},
			{"timestamp_us_utc", arrow.FixedSizeListOf(2, &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}), `[[0,1700000000000000],null,[null,5]]`,
				`[[0,1700000000000000],[3,4],[8,5]]`},
		} {
			rows := strings.TrimSuffix(strings.TrimPrefix(tc.js, "["), "]")
			a := fromJSON(tc.dt, "["+strings.Repeat(rows+",", 299)+rows+"]") // 900 rows
			schema, rec := oneColumn(arrow.Field{Name: "v", Type: tc.dt, Nullable: true}, a)
			nc := writerCase{name: ver + "/" + tc.name, ver: ver, schema: schema, recs: []arrow.RecordBatch{rec}}
			cases = append(cases, nc)
			full := strings.TrimSuffix(strings.TrimPrefix(tc.full, "["), "]")
			b := fromJSON(tc.dt, "["+strings.Repeat(full+",", 299)+full+"]")
			schema, rec = oneColumn(arrow.Field{Name: "v", Type: tc.dt, Nullable: true}, b)
			c := writerCase{name: ver + "/" + tc.name + "/no_nulls", ver: ver, schema: schema, recs: []arrow.RecordBatch{rec}}
			cases = append(cases, c)
		}
	}
	checkWriterCases(t, cases)
	// Fixed-size lists of structs (written from 2.2 on) have their own
	// tests: writer_fsl_struct_test.go.
	for _, item := range []arrow.DataType{arrow.BinaryTypes.String, arrow.BinaryTypes.LargeBinary,
		arrow.ListOf(arrow.PrimitiveTypes.Int32), arrow.FixedSizeListOf(2, arrow.BinaryTypes.Binary)} {
		for _, ver := range []string{"2.1", "2.2", "2.3"} {
			schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: arrow.FixedSizeListOf(3, item), Nullable: true}}, nil)
			_, err := Create(context.Background(), filepath.Join(t.TempDir(), "x.lance"), schema, WithFileVersion(ver))
			if !errors.Is(err, ErrUnsupportedType) {
				t.Errorf("%s fixed_size_list<%s>: err %v, want ErrUnsupportedType", ver, item, err)
			}
		}
	}
}
