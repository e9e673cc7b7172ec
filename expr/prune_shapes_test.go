package expr

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestPruneShapes checks every filter shape issue #34 asks zone seeds to
// decide, each parsed from SQL over ten zones of 100 rows whose stats
// exclude the match in all zones but the ones listed: x = row (Int32),
// s = "k%03d" of the row, n = NULL in zone 0 and the row elsewhere.
// runPruneCases also checks that no selected row lies in a pruned zone.
func TestPruneShapes(t *testing.T) {
	mem := memory.DefaultAllocator
	xb, sb, nb := array.NewInt32Builder(mem), array.NewStringBuilder(mem), array.NewInt64Builder(mem)
	defer xb.Release()
	defer sb.Release()
	defer nb.Release()
	for i := range 1000 {
		xb.Append(int32(i))
		sb.Append(fmt.Sprintf("k%03d", i))
		if i < 100 {
			nb.AppendNull()
		} else {
			nb.Append(int64(i))
		}
	}
	cols := []arrow.Array{xb.NewArray(), sb.NewArray(), nb.NewArray()}
	for _, c := range cols {
		defer c.Release()
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "n", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	}, nil)
	rec := array.NewRecordBatch(schema, cols, 1000)
	defer rec.Release()
	z0, z9, z12 := []int{0}, []int{9}, []int{1, 2}
	shapes := []struct {
		sql  string
		keep []int
	}{
		{"x < 50", z0},
		{"x >= 950", z9},
		{"x = 123", []int{1}},
		{"950 <= x", z9},
		{"x BETWEEN 120 AND 230", z12},
		{"x NOT BETWEEN 50 AND 999", z0},
		{"x IN (3, 5, 7)", z0},
		{"x IN (3, 905)", []int{0, 9}},
		{"n IS NULL", z0},
		{"n IS NOT NULL", []int{1, 2, 3, 4, 5, 6, 7, 8, 9}},
		{"s LIKE 'k05%'", z0},
		{"s LIKE 'k9%'", z9},
		{"starts_with(s, 'k93')", z9},
		{"x + 1 > 905", z9},
		{"1 + x > 905", z9},
		{"x * 2 < 10", z0},
		{"2 * x < 10", z0},
		{"x - 3 < 97", z0},
		{"5 - x > 0", z0},
		{"x * -2 > -200", z0},
		{"x * -2 <= -1800", z9},
		{"-x < -950", z9},
		{"NOT (x + 1 <= 900)", z9},
		{"NOT (x >= 100)", z0},
		{"x * 2 < 10 OR x - 3 > 993", []int{0, 9}},
		{"x + 1 > 150 AND x * 2 < 500", z12},
		{"NOT (x < 900 OR s < 'k950')", z9},
		{"x < 50 AND s LIKE 'k0%'", z0},
		{"starts_with(s, 'k1') OR n IS NULL", []int{0, 1}},
		{"x % 5 = 0", nil}, // not monotonic: every zone kept
	}
	var cases []pruneCase
	for _, sh := range shapes {
		e, err := Parse(sh.sql)
		if err != nil {
			t.Fatalf("%s: %v", sh.sql, err)
		}
		cases = append(cases, pruneCase{name: sh.sql, e: e, keep: sh.keep})
	}
	runPruneCases(t, rec, 100, cases)
}
