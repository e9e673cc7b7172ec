package format

import (
	"errors"
	"testing"

	"github.com/lancego/lancego/format/pb/filepb"
)

// TestNestedFixedSizeListIsUnsupported: newer Lance writes fixed-size lists
// of structs; the schema builder must call them unsupported, not corrupt.
func TestNestedFixedSizeListIsUnsupported(t *testing.T) {
	fields := []*filepb.Field{
		{Name: "fs", Id: 0, ParentId: -1, LogicalType: "fixed_size_list:struct:2", Nullable: true},
		{Name: "item", Id: 1, ParentId: 0, LogicalType: "struct"},
		{Name: "a", Id: 2, ParentId: 1, LogicalType: "int32"},
	}
	_, err := BuildSchema(&filepb.Schema{Fields: fields}, V2_2)
	if !errors.Is(err, ErrUnsupportedEncoding) || errors.Is(err, ErrCorrupt) {
		t.Fatalf("err = %v, want ErrUnsupportedEncoding", err)
	}
}
