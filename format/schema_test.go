package format

import (
	"errors"
	"strings"
	"testing"

	"github.com/lancego/lancego/format/pb/filepb"
)

// TestColumnAssignment checks the 2.1 example from the Lance source comment:
// a: struct<x>, b, y: struct<z, c, w>, z: list<int32> gives x=0, b=1,
// z=2, c=3, w=4, item=5.
func TestColumnAssignment(t *testing.T) {
	fields := []*filepb.Field{
		field("a", 0, -1, "struct", nil), field("x", 1, 0, "int32", nil),
		field("b", 2, -1, "int32", nil),
		field("y", 3, -1, "struct", nil), field("z", 4, 3, "int32", nil),
		field("c", 5, 3, "int32", nil), field("w", 6, 3, "int32", nil),
		field("z", 7, -1, "list", nil), field("item", 8, 7, "int32", nil),
	}
	s, err := BuildSchema(&filepb.Schema{Fields: fields}, V2_1)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int32]int{0: -1, 1: 0, 2: 1, 3: -1, 4: 2, 5: 3, 6: 4, 7: -1, 8: 5}
	s.Walk(func(f *Field) bool {
		if f.Column != want[f.ID] {
			t.Errorf("field %d (%s): column %d, want %d", f.ID, f.Name, f.Column, want[f.ID])
		}
		return true
	})
	if s.NumColumns != 6 || s.ColumnField(5).Name != "item" || s.ColumnField(6) != nil {
		t.Fatalf("NumColumns %d", s.NumColumns)
	}
	s20, err := BuildSchema(&filepb.Schema{Fields: fields}, V2_0)
	if err != nil || s20.NumColumns != 9 {
		t.Fatalf("2.0: %v, %d columns", err, s20.NumColumns)
	}
}

// TestSchemaMetadataAndExtension checks metadata and extension_name.
func TestSchemaMetadataAndExtension(t *testing.T) {
	f := field("v", 0, -1, "fixed_size_binary:16", map[string]string{"k": "v"})
	f.ExtensionName = "arrow.uuid"
	s, err := BuildSchema(&filepb.Schema{Fields: []*filepb.Field{f},
		Metadata: map[string][]byte{"owner": []byte("me")}}, V2_2)
	if err != nil {
		t.Fatal(err)
	}
	as := s.ArrowSchema()
	if v, _ := as.Metadata().GetValue("owner"); v != "me" {
		t.Errorf("schema metadata %v", as.Metadata())
	}
	if v, _ := as.Field(0).Metadata.GetValue(ArrowExtensionNameKey); v != "arrow.uuid" {
		t.Errorf("field metadata %v", as.Field(0).Metadata)
	}
}

// TestBlobFlags checks blob v1 / legacy packed flags.
func TestBlobFlags(t *testing.T) {
	fields := []*filepb.Field{
		field("b", 0, -1, "large_binary", map[string]string{BlobKey: "true"}),
		field("p", 1, -1, "struct", map[string]string{LegacyPackedKey: "TRUE"}),
		field("x", 2, 1, "int32", nil), field("y", 3, 1, "int64", nil),
	}
	s, err := BuildSchema(&filepb.Schema{Fields: fields}, V2_1)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Fields[0].BlobV1 || !s.Fields[1].Packed || s.NumColumns != 2 || s.Fields[1].Column != 1 {
		t.Fatalf("flags: blob %v packed %v columns %d", s.Fields[0].BlobV1, s.Fields[1].Packed, s.NumColumns)
	}
}

// TestHostileSchemas checks that malformed trees are rejected.
func TestHostileSchemas(t *testing.T) {
	deep := []*filepb.Field{field("f0", 0, -1, "struct", nil)}
	for i := int32(1); i <= MaxSchemaDepth+1; i++ {
		deep = append(deep, field("f", i, i-1, "struct", nil))
	}
	tests := []struct {
		name   string
		fields []*filepb.Field
		msg    string
	}{
		{"duplicate id", []*filepb.Field{field("a", 0, -1, "int32", nil), field("b", 0, -1, "int32", nil)}, "duplicate id 0"},
		{"self parent", []*filepb.Field{field("a", 0, 0, "struct", nil)}, "parent id 0 not defined before"},
		{"cycle", []*filepb.Field{field("a", 0, 1, "struct", nil), field("b", 1, 0, "struct", nil)}, "not defined before"},
		{"unknown parent", []*filepb.Field{field("a", 0, 5, "int32", nil)}, "parent id 5"},
		{"negative id", []*filepb.Field{field("a", -5, -1, "int32", nil)}, "bad id -5"},
		{"bad parent id", []*filepb.Field{field("a", 1, -3, "int32", nil)}, "parent id -3"},
		{"child of leaf", []*filepb.Field{field("a", 0, -1, "int32", nil), field("b", 1, 0, "int32", nil)}, "non-nested type"},
		{"stray descriptor", []*filepb.Field{field("a", -1, -1, "int32", nil)}, "id -1 outside a blob v2"},
		{"too deep", deep, "nesting deeper than 64"},
		{"list without item", []*filepb.Field{field("l", 0, -1, "list", nil)}, "needs 1 child"},
		{"list with two", []*filepb.Field{field("l", 0, -1, "large_list", nil), field("a", 1, 0, "int8", nil),
			field("b", 2, 0, "int8", nil)}, "needs 1 child"},
		{"map without struct", []*filepb.Field{field("m", 0, -1, "map", nil), field("e", 1, 0, "int8", nil)}, "map entries"},
		{"map nullable key", []*filepb.Field{field("m", 0, -1, "map", nil), field("entries", 1, 0, "struct", nil),
			field("key", 2, 1, "string", nil), field("value", 3, 1, "int32", nil)}, "map key is nullable"},
		{"bad leaf type", []*filepb.Field{field("a", 0, -1, "float128", nil)}, "float128"},
		{"bad descriptor type", []*filepb.Field{field("b", 0, -1, "struct", map[string]string{BlobKey: "true"}),
			field("kind", -1, -1, "list", nil)}, "needs 1 child"},
	}
	for _, tt := range tests {
		_, err := BuildSchema(&filepb.Schema{Fields: tt.fields}, V2_1)
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: %v, want ErrCorrupt containing %q", tt.name, err, tt.msg)
		}
	}
}
