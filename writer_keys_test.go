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

// Tests of lance-encoding:* field metadata keys, each checked against
// pylance 14.0.2 (read-back of the input and identical pages).

// metaField is a nullable field with lance-encoding metadata kv (key,
// value pairs).
func metaField(name string, dt arrow.DataType, kv ...string) arrow.Field {
	var keys, vals []string
	for i := 0; i+1 < len(kv); i += 2 {
		keys, vals = append(keys, kv[i]), append(vals, kv[i+1])
	}
	return arrow.Field{Name: name, Type: dt, Nullable: true, Metadata: arrow.NewMetadata(keys, vals)}
}

// sizedValues builds n values of about size bytes (size + 0..199) of type
// dt (binary or utf8); text makes them words FSST can compress.
func sizedValues(mem memory.Allocator, dt arrow.DataType, n, size int, text bool) arrow.Array {
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	words := []string{"lance ", "column ", "mini-block ", "chunk ", "value ", "page "}
	for i := 0; i < n; i++ {
		var sb strings.Builder
		for k := 0; sb.Len() < size+(i*37)%200; k++ {
			if text {
				sb.WriteString(words[(i+k*k)%len(words)])
			} else {
				sb.WriteByte(byte('A' + (i+k)%26))
			}
		}
		switch bb := b.(type) {
		case *array.BinaryBuilder:
			bb.Append([]byte(sb.String()))
		case *array.StringBuilder:
			bb.Append(sb.String())
		}
	}
	return b.NewArray()
}

// oneColumn is a record of one column named after f.
func oneColumn(f arrow.Field, a arrow.Array) (*arrow.Schema, arrow.RecordBatch) {
	schema := arrow.NewSchema([]arrow.Field{f}, nil)
	return schema, array.NewRecordBatch(schema, []arrow.Array{a}, int64(a.Len()))
}

// TestWriterMiniBlockLargeValues requests the mini-block layout for values
// of 1.5 to 20 KB: like Lance, every chunk but the last holds a power of
// two of at least 2 values, even past the 4 KiB aim (we wrote 1-value
// chunks with log_num_values 0, which pylance refuses as corrupt: "non-final
// chunk 0 of 301 has invalid log_num_values=0"). FSST-compressed text goes
// through the same chunker.
func TestWriterMiniBlockLargeValues(t *testing.T) {
	mem := memory.NewGoAllocator()
	var cases []writerCase
	add := func(ver string, dt arrow.DataType, n, size int, text bool) {
		f := metaField("s", dt, "lance-encoding:structural-encoding", "miniblock")
		schema, rec := oneColumn(f, sizedValues(mem, dt, n, size, text))
		cases = append(cases, writerCase{name: fmt.Sprintf("%s/%s/%dx%d/text=%v", ver, dt, n, size, text),
			ver: ver, schema: schema, recs: []arrow.RecordBatch{rec}})
	}
	for _, ver := range []string{"2.1", "2.2", "2.3"} {
		add(ver, arrow.BinaryTypes.Binary, 301, 3000, false)
		add(ver, arrow.BinaryTypes.String, 301, 3000, true)
		add(ver, arrow.BinaryTypes.Binary, 64, 1500, false)
		add(ver, arrow.BinaryTypes.Binary, 3, 5000, false)
	}
	add("2.2", arrow.BinaryTypes.Binary, 33, 20000, false)
	checkWriterCases(t, cases)
}

// TestWriterMiniBlockTooWide checks the mini-block requests pylance 14.0.2
// refuses: 20 KB values at 2.1 (two of them overflow the 32 KiB chunk
// limit) and fixed-size lists of which two rows exceed a chunk.
func TestWriterMiniBlockTooWide(t *testing.T) {
	mem := memory.NewGoAllocator()
	mini := []string{"lance-encoding:structural-encoding", "miniblock"}
	fsl := func(dim int) arrow.Array {
		b := array.NewFixedSizeListBuilder(mem, int32(dim), arrow.PrimitiveTypes.Float32)
		defer b.Release()
		vb := b.ValueBuilder().(*array.Float32Builder)
		for i := 0; i < 8; i++ {
			b.Append(true)
			for k := 0; k < dim; k++ {
				vb.Append(float32(i*dim + k))
			}
		}
		return b.NewArray()
	}
	for _, tc := range []struct {
		name, ver string
		arr       arrow.Array
	}{
		{"2.1/binary_20KB", "2.1", sizedValues(mem, arrow.BinaryTypes.Binary, 8, 20000, false)},
		{"2.2/fsl_f32_1024", "2.2", fsl(1024)},
		{"2.1/fsl_f32_3000", "2.1", fsl(3000)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			schema, rec := oneColumn(metaField("v", tc.arr.DataType(), mini...), tc.arr)
			ctx := context.Background()
			w, err := Create(ctx, filepath.Join(t.TempDir(), "x.lance"), schema, WithFileVersion(tc.ver))
			if err != nil {
				t.Fatal(err)
			}
			if err = w.Write(ctx, rec); err == nil {
				err = w.Close(ctx)
			} else {
				w.Abort()
			}
			if !errors.Is(err, ErrInvalidArgument) {
				t.Fatalf("err %v, want ErrInvalidArgument", err)
			}
		})
	}
	// a row of 2,400 bytes: chunks of 2 rows, as pylance writes them
	arr := fsl(600)
	schema, rec := oneColumn(metaField("v", arr.DataType(), mini...), arr)
	checkWriterCases(t, []writerCase{{name: "2.2/fsl_f32_600", ver: "2.2", schema: schema, recs: []arrow.RecordBatch{rec}}})
}

// TestWriterFullLastChunk checks the chunk table of fixed-width pages whose
// last chunk is full: Lance's value encoder gives it its log2 count like
// the others (0 marks only a partial last chunk), for flat values and
// fixed-size lists, also under General compression.
func TestWriterFullLastChunk(t *testing.T) {
	mem := memory.NewGoAllocator()
	ints := func(n int) arrow.Array {
		b := array.NewInt64Builder(mem)
		defer b.Release()
		for i := 0; i < n; i++ {
			b.Append(int64(uint64(i) * 0x9E3779B97F4A7C15 >> 1))
		}
		return b.NewArray()
	}
	vecs := func(n int) arrow.Array {
		b := array.NewFixedSizeListBuilder(mem, 4, arrow.PrimitiveTypes.Float32)
		defer b.Release()
		vb := b.ValueBuilder().(*array.Float32Builder)
		for i := 0; i < n; i++ {
			b.Append(true)
			for k := 0; k < 4; k++ {
				vb.Append(float32(i)*1.37 + float32(k))
			}
		}
		return b.NewArray()
	}
	var cases []writerCase
	for _, ver := range []string{"2.1", "2.2", "2.3"} {
		for _, tc := range []struct {
			name string
			arr  arrow.Array
			kv   []string
		}{
			{"flat_1024", ints(1024), []string{"lance-encoding:compression", "none"}},
			{"flat_1000", ints(1000), []string{"lance-encoding:compression", "none"}},
			{"fsl4_1024", vecs(1024), nil},
			{"fsl4_512", vecs(512), nil},
		} {
			schema, rec := oneColumn(metaField("x", tc.arr.DataType(), tc.kv...), tc.arr)
			cases = append(cases, writerCase{name: ver + "/" + tc.name, ver: ver, schema: schema, recs: []arrow.RecordBatch{rec}})
		}
	}
	checkWriterCases(t, cases)
}

// TestWriterLegacyBlob writes large_binary columns with lance-encoding:blob
// as pylance 14.0.2 does: blob pages (values out of line, a packed struct
// of positions and sizes) at 2.1 and 2.2, and a refusal at 2.3, which
// writes no legacy blob pages.
func TestWriterLegacyBlob(t *testing.T) {
	mem := memory.NewGoAllocator()
	blobs := func() arrow.Array {
		b := array.NewBinaryBuilder(mem, arrow.BinaryTypes.LargeBinary)
		defer b.Release()
		for i := 0; i < 40; i++ {
			switch i % 5 {
			case 1:
				b.AppendNull()
			case 2:
				b.Append(nil)
			default:
				b.Append([]byte(strings.Repeat(string(rune('a'+i%26)), 100+i*97)))
			}
		}
		return b.NewArray()
	}
	f := metaField("blob", arrow.BinaryTypes.LargeBinary, "lance-encoding:blob", "true")
	var cases []writerCase
	for _, ver := range []string{"2.1", "2.2"} {
		schema, rec := oneColumn(f, blobs())
		cases = append(cases, writerCase{name: ver + "/blob", ver: ver, schema: schema, recs: []arrow.RecordBatch{rec}})
	}
	checkWriterCases(t, cases)
	_, err := Create(context.Background(), filepath.Join(t.TempDir(), "x.lance"), arrow.NewSchema([]arrow.Field{f}, nil), WithFileVersion("2.3"))
	if !errors.Is(err, ErrUnsupportedType) {
		t.Fatalf("2.3: err %v, want ErrUnsupportedType", err)
	}
}

// TestWriterCompressionKey checks lance-encoding:compression on utf8 at
// every version against pylance 14.0.2: lz4 wraps mini-block values, and
// dictionary indices, in General(lz4); values of 256 bytes or more are
// full-zip General(zstd) with an explicit level 0 whatever the scheme.
// Pages are compared by layout only: our LZ4 and zstd compressors pick
// other matches than Lance's.
func TestWriterCompressionKey(t *testing.T) {
	mem := memory.NewGoAllocator()
	words := []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"}
	shapes := map[string]func(i int) *string{
		"short":   func(i int) *string { s := fmt.Sprintf("row %d some text %d", i, i*7919%1000); return &s },
		"lowcard": func(i int) *string { return &words[(i*i+3*i)%len(words)] },
		"nulls": func(i int) *string {
			if i%4 == 0 {
				return nil
			}
			s := fmt.Sprintf("v%d-%d", i, i*i%977)
			return &s
		},
		"long": func(i int) *string { s := strings.Repeat("x", 300) + fmt.Sprint(i); return &s },
	}
	var cases []writerCase
	for _, ver := range []string{"2.1", "2.2", "2.3"} {
		for _, scheme := range []string{"lz4", "zstd"} {
			for name, gen := range shapes {
				b := array.NewStringBuilder(mem)
				for i := 0; i < 3000; i++ {
					if s := gen(i); s != nil {
						b.Append(*s)
					} else {
						b.AppendNull()
					}
				}
				a := b.NewArray()
				b.Release()
				schema, rec := oneColumn(metaField("s", arrow.BinaryTypes.String, "lance-encoding:compression", scheme), a)
				cases = append(cases, writerCase{name: ver + "/" + scheme + "/" + name, ver: ver, schema: schema,
					recs: []arrow.RecordBatch{rec}, layoutOnly: true})
			}
		}
	}
	checkWriterCases(t, cases)
}
