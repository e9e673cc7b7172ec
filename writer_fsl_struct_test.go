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

// fslStructRows builds n rows of JSON for a fixed-size list of dim
// structs: row i is null when i%nullRow == 0 (nullRow > 0), child j null
// when (i+j)%nullChild == 0, and item(i, j) gives a child's JSON.
func fslStructRows(n, dim, nullRow, nullChild int, item func(i, j int) string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		if nullRow > 0 && i%nullRow == 0 {
			b.WriteString("null")
			continue
		}
		b.WriteByte('[')
		for j := range dim {
			if j > 0 {
				b.WriteByte(',')
			}
			if nullChild > 0 && (i+j)%nullChild == 0 {
				b.WriteString("null")
			} else {
				b.WriteString(item(i, j))
			}
		}
		b.WriteByte(']')
	}
	b.WriteByte(']')
	return b.String()
}

// TestWriterFSLStruct: fixed-size lists of structs are written as pylance
// 14.0.2 writes them: at 2.2 and 2.3 in dense pages (the list an item
// layer whose levels repeat per child, pages counted in items), at 2.3 in
// sparse pages with a fixed_size_list layer where its rules pick sparse
// (on request, all-null pages, mostly-null wide values). Pages and codec
// trees are compared with pylance's for the same input, and pylance reads
// ours back (checkWriterCases).
func TestWriterFSLStruct(t *testing.T) {
	mem := memory.NewGoAllocator()
	ab := arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true})
	sx := arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true})
	sv := arrow.StructOf(arrow.Field{Name: "v", Type: arrow.FixedSizeListOf(3, arrow.PrimitiveTypes.Float32), Nullable: true})
	ss := arrow.StructOf(arrow.Field{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true})
	sparse := map[string]string{"lance-encoding:structural-encoding": "sparse"}
	abItem := func(i, j int) string {
		if (i*3+j)%5 == 0 {
			return `{"a":null,"b":null}`
		}
		return fmt.Sprintf(`{"a":%d,"b":"s%d"}`, i-j*7, (i*j)%11)
	}
	xItem := func(i, j int) string { return fmt.Sprintf(`{"x":%d}`, int64(i)*1_000_003-int64(j)) }
	wide := func(i, j int) string {
		return fmt.Sprintf(`{"s":"%d-%d %s"}`, i, j, strings.Repeat(fmt.Sprint(i*j), 60))
	}
	cases := []struct {
		name string
		dt   arrow.DataType
		js   string
		md   map[string]string
		null bool // nullable list field
		// noPages23, when set, says why pylance's 2.3 pages are not compared.
		noPages23 string
		// noPages, when set, says why pylance's pages are not compared.
		noPages string
	}{
		{"ab_nulls", arrow.FixedSizeListOf(2, ab), fslStructRows(900, 2, 7, 3, abItem), nil, true, "", ""},
		{"x3_nulls", arrow.FixedSizeListOf(3, sx), fslStructRows(900, 3, 5, 4, xItem), nil, true, "", ""},
		{"x1_nulls", arrow.FixedSizeListOf(1, sx), fslStructRows(900, 1, 7, 3, xItem), nil, true, "",
			"the def-level codec of this null pattern differs from pylance's (level codec choice, not the fixed-size list)"},
		{"x_no_nulls", arrow.FixedSizeListOf(2, sx), fslStructRows(900, 2, 0, 0, xItem), nil, false, "", ""},
		{"x_const", arrow.FixedSizeListOf(2, sx), fslStructRows(900, 2, 0, 0, func(int, int) string { return `{"x":7}` }), nil, true, "", ""},
		{"x_all_null", arrow.FixedSizeListOf(2, sx), fslStructRows(900, 2, 1, 0, xItem), nil, true, "", ""},
		{"fsl_f32", arrow.FixedSizeListOf(2, sv), fslStructRows(900, 2, 6, 5, func(i, j int) string {
			if i%4 == 1 {
				return `{"v":null}`
			}
			return fmt.Sprintf(`{"v":[%d.5,null,%d]}`, i, j)
		}), nil, true, "pylance 14.0.2 dictionary-encodes these fixed-size lists of floats at 2.3; we do not (yet)", ""},
		{"wide_mostly_null", arrow.FixedSizeListOf(2, ss), fslStructRows(300, 2, 2, 3, wide), nil, true, "",
			"the def-level codec of these small chunks differs from pylance's (level codec choice, not the fixed-size list)"},
		{"ab_sparse", arrow.FixedSizeListOf(2, ab), fslStructRows(900, 2, 7, 3, abItem), sparse, true, "", ""},
	}
	var wcs []writerCase
	for _, ver := range []string{"2.2", "2.3"} {
		for _, c := range cases {
			if c.md != nil && ver != "2.3" {
				continue
			}
			a, _, err := array.FromJSON(mem, c.dt, strings.NewReader(c.js))
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			md := arrow.MetadataFrom(c.md)
			schema, rec := oneColumn(arrow.Field{Name: "f", Type: c.dt, Nullable: c.null, Metadata: md}, a)
			wc := writerCase{name: ver + "/" + c.name, ver: ver, schema: schema, recs: []arrow.RecordBatch{rec}}
			if ver == "2.3" && c.noPages23 != "" {
				wc.noPages = c.noPages23
			}
			if c.noPages != "" {
				wc.noPages = c.noPages
			}
			wcs = append(wcs, wc)
		}
	}
	checkWriterCases(t, wcs)
}

// TestWriterFSLStructBelowStruct: a fixed-size list of structs inside a
// struct, null structs included, written as pylance writes it.
func TestWriterFSLStructBelowStruct(t *testing.T) {
	mem := memory.NewGoAllocator()
	sx := arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true})
	dt := arrow.StructOf(arrow.Field{Name: "v", Type: arrow.FixedSizeListOf(2, sx), Nullable: true})
	var b strings.Builder
	b.WriteByte('[')
	for i := range 600 {
		if i > 0 {
			b.WriteByte(',')
		}
		switch {
		case i%9 == 0:
			b.WriteString("null")
		case i%4 == 0:
			b.WriteString(`{"v":null}`)
		default:
			fmt.Fprintf(&b, `{"v":[{"x":%d},%s]}`, i, map[bool]string{true: "null", false: `{"x":null}`}[i%3 == 0])
		}
	}
	b.WriteByte(']')
	a, _, err := array.FromJSON(mem, dt, strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	var wcs []writerCase
	for _, ver := range []string{"2.2", "2.3"} {
		schema, rec := oneColumn(arrow.Field{Name: "s", Type: dt, Nullable: true}, a)
		wcs = append(wcs, writerCase{name: ver + "/struct_fsl_struct", ver: ver, schema: schema, recs: []arrow.RecordBatch{rec}})
	}
	checkWriterCases(t, wcs)
}

// TestWriterFSLStructRefusals: the fixed-size lists of structs pylance
// 14.0.2 refuses (2.1, nested ones) or cannot read back (beside lists at
// 2.2) are refused at Create with ErrUnsupportedType
// saying why.
func TestWriterFSLStructRefusals(t *testing.T) {
	sx := arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true})
	sl := arrow.StructOf(arrow.Field{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true})
	for _, c := range []struct {
		ver  string
		dt   arrow.DataType
		want string
	}{
		{"2.1", arrow.FixedSizeListOf(2, sx), "needs file version 2.2"},
		{"2.1", arrow.StructOf(arrow.Field{Name: "v", Type: arrow.FixedSizeListOf(2, sx), Nullable: true}), "needs file version 2.2"},
		{"2.2", arrow.FixedSizeListOf(2, arrow.FixedSizeListOf(2, sx)), "refuses it too"},
		{"2.3", arrow.FixedSizeListOf(2, arrow.FixedSizeListOf(2, sx)), "refuses it too"},
		{"2.2", arrow.ListOf(arrow.FixedSizeListOf(2, sx)), "under a list, needs file version 2.3"},
		{"2.2", arrow.FixedSizeListOf(2, sl), "with a list inside, needs file version 2.3"},
		{"2.2", arrow.FixedSizeListOf(2, arrow.ListOf(arrow.PrimitiveTypes.Int32)), "refuses it too"},
	} {
		schema := arrow.NewSchema([]arrow.Field{{Name: "f", Type: c.dt, Nullable: true}}, nil)
		_, err := Create(context.Background(), filepath.Join(t.TempDir(), "x.lance"), schema, WithFileVersion(c.ver))
		if !errors.Is(err, ErrUnsupportedType) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: err %v, want ErrUnsupportedType saying %q", c.ver, c.dt, err, c.want)
		}
	}
}
