package valuejson

import (
	"bytes"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

func testSchema() *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{
		{Name: "z_id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "a<&>", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
}

func TestColumnsAndWriter(t *testing.T) {
	mem := newMem(t)
	schema := testSchema()
	rec1, _, err := array.RecordFromJSON(mem, schema, strings.NewReader(`[{"z_id":1,"a<&>":"x"},{"z_id":2,"a<&>":null}]`))
	if err != nil {
		t.Fatal(err)
	}
	defer rec1.Release()
	empty, _, err := array.RecordFromJSON(mem, schema, strings.NewReader(`[]`))
	if err != nil {
		t.Fatal(err)
	}
	defer empty.Release()
	rec2, _, err := array.RecordFromJSON(mem, schema, strings.NewReader(`[{"z_id":3,"a<&>":""}]`))
	if err != nil {
		t.Fatal(err)
	}
	defer rec2.Release()

	doc, err := Columns(rec1)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := encode(t, doc), `{"num_rows":2,"columns":{"z_id":["1","2"],"a<&>":["x",null]}}`; got != want {
		t.Errorf("Columns = %s, want %s", got, want)
	}

	var out bytes.Buffer
	if err := WriteRecords(&out, schema, []arrow.RecordBatch{empty, rec1, empty, rec2}); err != nil {
		t.Fatal(err)
	}
	want := `{"num_rows":3,"columns":{"z_id":["1","2","3"],"a<&>":["x",null,""]}}` + "\n"
	if out.String() != want {
		t.Errorf("WriteRecords = %s, want %s", out.String(), want)
	}

	var none bytes.Buffer
	if err := WriteRecords(&none, schema, nil); err != nil {
		t.Fatal(err)
	}
	if got := none.String(); got != `{"num_rows":0,"columns":{"z_id":[],"a<&>":[]}}`+"\n" {
		t.Errorf("no batches = %s", got)
	}
}

func TestWriterRejectsMismatch(t *testing.T) {
	mem := newMem(t)
	other := arrow.NewSchema([]arrow.Field{
		{Name: "z_id", Type: arrow.PrimitiveTypes.Int32},
		{Name: "a", Type: arrow.BinaryTypes.String},
	}, nil)
	rec, _, err := array.RecordFromJSON(mem, other, strings.NewReader(`[{"z_id":1,"a":"x"}]`))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	w := NewWriter(testSchema())
	if err := w.Append(rec); err == nil {
		t.Error("Append accepted a record with a different column type")
	}
	if w.NumRows() != 0 {
		t.Errorf("NumRows = %d after failed Append", w.NumRows())
	}
}
