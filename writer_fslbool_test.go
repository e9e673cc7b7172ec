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

// fslBoolRowsJSON is n rows of fixed_size_list<bool>[dim] as JSON: row i
// null when nullRows and i%7 == 3, item j of row i null when nullItems and
// (i*dim+j)%5 == 2, else (i*3+j)%3 == 0.
func fslBoolRowsJSON(dim, n int, nullRows, nullItems bool) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(fslBoolRowJSON(i, dim, nullRows, nullItems))
	}
	b.WriteByte(']')
	return b.String()
}

// fslBoolRowJSON is row i of fslBoolRowsJSON.
func fslBoolRowJSON(i, dim int, nullRows, nullItems bool) string {
	if nullRows && i%7 == 3 {
		return "null"
	}
	items := make([]string, dim)
	for j := range items {
		switch {
		case nullItems && (i*dim+j)%5 == 2:
			items[j] = "null"
		default:
			items[j] = fmt.Sprint((i*3+j)%3 == 0)
		}
	}
	return "[" + strings.Join(items, ",") + "]"
}

// fslBoolCase is a one-column writerCase of dt read from js, the field's
// metadata the key, value pair kv if given.
func fslBoolCase(t *testing.T, name, ver string, dt arrow.DataType, js string, kv ...string) writerCase {
	t.Helper()
	a, _, err := array.FromJSON(memory.NewGoAllocator(), dt, strings.NewReader(js))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	f := arrow.Field{Name: "v", Type: dt, Nullable: true}
	if len(kv) == 2 {
		f.Metadata = arrow.NewMetadata(kv[:1], kv[1:])
	}
	schema, rec := oneColumn(f, a)
	return writerCase{name: ver + "/" + name, ver: ver, schema: schema, recs: []arrow.RecordBatch{rec}}
}

// TestWriterFSLBool writes fixed_size_list<bool> as pylance 14.0.2 does from
// 2.1 on (measured): mini-block pages whatever the dimension (Lance counts
// a boolean item 0 bytes wide, so no row reaches the full-zip cutoff), the
// items bit-packed in a fixed_size_list(dim[, validity]) → flat(1) tree,
// chunks sized on Lance's estimate in words of 8 rows (codecs.FSLWord),
// no dictionary and no General under lz4/zstd keys. Each case is compared
// page by page with pylance's own file and read back by pylance and by our
// reader: dims 1/3/8/13 with and without null rows and items, 100 000 rows
// (many chunks), wide rows (2040, 4096), 44 and 48 booleans of one
// distinct row, the compression keys, and fixed_size_list<bool> under a
// fixed-size list, a list and a struct, fixed_size_list<struct<bool>>
// from 2.2 on. Several pages (our page budget) are read back only.
func TestWriterFSLBool(t *testing.T) {
	boolFSL := func(dim int) arrow.DataType { return arrow.FixedSizeListOf(int32(dim), arrow.FixedWidthTypes.Boolean) }
	var cases []writerCase
	for _, ver := range []string{"2.1", "2.2", "2.3"} {
		for _, dim := range []int{1, 3, 8, 13} {
			for _, v := range []struct {
				name        string
				rows, items bool
			}{{"no_nulls", false, false}, {"null_rows", true, false}, {"null_items", false, true}, {"nulls", true, true}} {
				name := fmt.Sprintf("d%d/%s", dim, v.name)
				cases = append(cases, fslBoolCase(t, name, ver, boolFSL(dim), fslBoolRowsJSON(dim, 900, v.rows, v.items)))
			}
		}
		cases = append(cases,
			fslBoolCase(t, "d3/100k_rows", ver, boolFSL(3), fslBoolRowsJSON(3, 100_000, true, true)),
			fslBoolCase(t, "d13/30k_rows", ver, boolFSL(13), fslBoolRowsJSON(13, 30_000, false, false)),
			fslBoolCase(t, "d2040/null_items", ver, boolFSL(2040), fslBoolRowsJSON(2040, 40, false, true)),
			fslBoolCase(t, "d4096/no_nulls", ver, boolFSL(4096), fslBoolRowsJSON(4096, 40, false, false)),
			fslBoolCase(t, "d4096/nulls", ver, boolFSL(4096), fslBoolRowsJSON(4096, 40, true, true)),
			fslBoolCase(t, "d48/1_distinct", ver, boolFSL(48), fslBoolRowsJSON(48, 5000, false, false)),
			fslBoolCase(t, "d44/1_distinct", ver, boolFSL(44), fslBoolRowsJSON(44, 5000, false, false)))
		cases = append(cases, fslBoolNested(t, ver)...)
		for _, comp := range []string{"zstd", "lz4"} { // pylance 14.0.2 leaves the items uncompressed
			cases = append(cases, fslBoolCase(t, "d13/"+comp, ver, boolFSL(13), fslBoolRowsJSON(13, 60_000, false, false),
				"lance-encoding:compression", comp))
		}
		paged := fslBoolCase(t, "d5/pages", ver, boolFSL(5), fslBoolRowsJSON(5, 200_000, true, true))
		paged.opts = []WriterOption{WithPageBudget(16 << 10)}
		paged.noPages = "several pages by our page budget; pylance's default budget writes one page"
		cases = append(cases, paged)
	}
	checkWriterCases(t, cases)
}

// fslBoolNested are fixed_size_list<bool> cases under a fixed-size list, a
// list and a struct, and (from 2.2 on) fixed_size_list<struct<bool, int64>>.
func fslBoolNested(t *testing.T, ver string) []writerCase {
	var fsl, list, st, fst []string
	for i := range 900 {
		fsl = append(fsl, fmt.Sprintf("[%s,%s]", fslBoolRowJSON(2*i, 3, false, true), fslBoolRowJSON(2*i+1, 3, false, true)))
		switch {
		case i%9 == 4:
			list = append(list, "null")
		default:
			l := make([]string, i%4)
			for k := range l {
				l[k] = fslBoolRowJSON(i+k, 3, true, true)
			}
			list = append(list, "["+strings.Join(l, ",")+"]")
		}
		st = append(st, fmt.Sprintf(`{"b":%s,"x":%d}`, fslBoolRowJSON(i, 5, true, true), i))
		second := fmt.Sprintf(`{"b":null,"x":%d}`, 2*i)
		if i%5 == 1 {
			second = "null"
		}
		fst = append(fst, fmt.Sprintf(`[{"b":%t,"x":%d},%s]`, i%3 == 0, i, second))
		if i%7 == 3 {
			fst[i] = "null"
		}
	}
	stb := arrow.StructOf(arrow.Field{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true})
	b3 := arrow.FixedSizeListOf(3, arrow.FixedWidthTypes.Boolean)
	stt := arrow.StructOf(arrow.Field{Name: "b", Type: arrow.FixedSizeListOf(5, arrow.FixedWidthTypes.Boolean), Nullable: true},
		arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true})
	cases := []writerCase{
		fslBoolCase(t, "fsl2_of_d3", ver, arrow.FixedSizeListOf(2, b3), "["+strings.Join(fsl, ",")+"]"),
		fslBoolCase(t, "list_of_d3", ver, arrow.ListOf(b3), "["+strings.Join(list, ",")+"]"),
		fslBoolCase(t, "struct_d5", ver, stt, "["+strings.Join(st, ",")+"]"),
	}
	if ver != "2.1" { // fixed-size lists of structs: from 2.2 on
		cases = append(cases, fslBoolCase(t, "d2_of_struct_bool", ver, arrow.FixedSizeListOf(2, stb), "["+strings.Join(fst, ",")+"]"))
	}
	return cases
}

// TestWriterFSLBoolRefusals: rows of booleans whose estimated 2 words
// (codecs.FSLWord) exceed a mini-block chunk are refused with
// ErrInvalidArgument as pylance 14.0.2 refuses them ("Value is too wide
// for miniblock encoding: 16 values require 8194 bytes" for 4097 booleans,
// while 4092 are written), and a requested full-zip layout, on which
// pylance panics, with ErrUnsupportedType.
func TestWriterFSLBoolRefusals(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name string
		dim  int
		kv   []string
		want error // nil: written and read back
	}{
		{"d4092", 4092, nil, nil},
		{"d4097", 4097, nil, ErrInvalidArgument},
		{"d3/fullzip", 3, []string{"lance-encoding:structural-encoding", "fullzip"}, ErrUnsupportedType},
	} {
		wc := fslBoolCase(t, c.name, "2.1", arrow.FixedSizeListOf(int32(c.dim), arrow.FixedWidthTypes.Boolean),
			fslBoolRowsJSON(c.dim, 20, false, false), c.kv...)
		if c.want == nil {
			roundTripCase(t, &wc, t.TempDir())
			continue
		}
		w, err := Create(ctx, filepath.Join(t.TempDir(), "x.lance"), wc.schema, WithFileVersion("2.1"))
		if err != nil {
			t.Fatal(err)
		}
		err = w.Write(ctx, wc.recs[0])
		if cerr := w.Close(ctx); err == nil {
			err = cerr
		}
		if !errors.Is(err, c.want) {
			t.Errorf("%s: err %v, want %v", c.name, err, c.want)
		}
	}
}
