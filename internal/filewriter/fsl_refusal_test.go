package filewriter

import (
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/internal/lerr"
)

// TestFSLRefusals: the fixed-size lists the writer refuses say what
// pylance 14.0.2 does with them (measured: it refuses fixed_size_list<struct>
// at 2.1 and writes it from 2.2 on; refuses fixed_size_list<list> and
// fixed_size_list<fixed_size_list<struct>> with "Unsupported data type";
// panics on list<fixed_size_list<struct>> at 2.2, writes it and
// fixed_size_list<struct<list>> at 2.3); the fixed-size lists
// written are accepted, fixed_size_list<bool> among them from 2.1 on, as
// pylance 14.0.2 writes it.
func TestFSLRefusals(t *testing.T) {
	st := arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true})
	sl := arrow.StructOf(arrow.Field{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true})
	for _, c := range []struct {
		name      string
		typ       arrow.DataType
		ver       format.Version
		underList bool
		want      string // "" = accepted
	}{
		{"fsl_struct_21", arrow.FixedSizeListOf(2, st), format.V2_1, false, "refuses it at 2.1"},
		{"fsl_struct_22", arrow.FixedSizeListOf(2, st), format.V2_2, false, ""},
		{"fsl_struct_23", arrow.FixedSizeListOf(2, st), format.V2_3, false, ""},
		{"fsl_struct_under_list_22", arrow.FixedSizeListOf(2, st), format.V2_2, true, "under a list, needs file version 2.3"},
		{"fsl_struct_under_list_23", arrow.FixedSizeListOf(2, st), format.V2_3, true, ""},
		{"fsl_struct_list_23", arrow.FixedSizeListOf(2, sl), format.V2_3, false, ""},
		{"fsl_struct_list", arrow.FixedSizeListOf(2, sl), format.V2_2, false, "cannot read its own 2.2 pages"},
		{"fsl_fsl_struct", arrow.FixedSizeListOf(2, arrow.FixedSizeListOf(2, st)), format.V2_3, false, "refuses it too"},
		{"fsl_list", arrow.FixedSizeListOf(2, arrow.ListOf(arrow.PrimitiveTypes.Int32)), format.V2_2, false, "refuses it too"},
		{"fsl_bool", arrow.FixedSizeListOf(3, arrow.FixedWidthTypes.Boolean), format.V2_1, false, ""},
		{"fsl_fsl_bool", arrow.FixedSizeListOf(2, arrow.FixedSizeListOf(3, arrow.FixedWidthTypes.Boolean)), format.V2_2, true, ""},
		{"fsl_f32", arrow.FixedSizeListOf(4, arrow.PrimitiveTypes.Float32), format.V2_1, false, ""},
	} {
		err := checkFSLItems(arrow.Field{Name: c.name, Type: c.typ, Nullable: true}, c.ver, c.underList)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (!errors.Is(err, lerr.ErrUnsupportedType) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want ErrUnsupportedType saying %q", c.name, err, c.want)
		}
	}
}
