package filewriter

import (
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/internal/lerr"
)

// TestFSLRefusals: the fixed-size lists the writer refuses say what
// pylance 14.0.2 does with them (measured: it writes
// fixed_size_list<struct> from 2.2 on, and refuses fixed_size_list<list>
// and fixed_size_list<fixed_size_list<struct>> with "Unsupported data
// type"); fixed-size lists of fixed-width items are accepted.
func TestFSLRefusals(t *testing.T) {
	st := arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true})
	for _, c := range []struct {
		name string
		typ  arrow.DataType
		want string // "" = accepted
	}{
		{"fsl_struct", arrow.FixedSizeListOf(2, st), "writes it from 2.2 on"},
		{"fsl_fsl_struct", arrow.FixedSizeListOf(2, arrow.FixedSizeListOf(2, st)), "refuses it too"},
		{"fsl_list", arrow.FixedSizeListOf(2, arrow.ListOf(arrow.PrimitiveTypes.Int32)), "refuses it too"},
		{"fsl_f32", arrow.FixedSizeListOf(4, arrow.PrimitiveTypes.Float32), ""},
	} {
		err := checkFSLItems(arrow.Field{Name: c.name, Type: c.typ, Nullable: true})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (!errors.Is(err, lerr.ErrUnsupportedType) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want ErrUnsupportedType saying %q", c.name, err, c.want)
		}
	}
}
