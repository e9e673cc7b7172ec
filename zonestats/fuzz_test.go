package zonestats

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func FuzzParseSeed(f *testing.F) {
	mem := memory.NewGoAllocator()
	s := goodInt()
	s.bitmap = strp(bitmapHex(0, 4, 5))
	f.Add(s.build(f, mem), uint8(0))
	f.Add(goodFloat().build(f, mem), uint8(1))
	arr := arrayFromJSON(f, mem, arrow.PrimitiveTypes.Int32, `[1, null, 3, 4, 5, null]`)
	f.Add(collect(f, mem, arrow.PrimitiveTypes.Int32, 4, true, arr), uint8(0))
	arr.Release()
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		dt, rpz, rows := arrow.DataType(arrow.PrimitiveTypes.Int32), uint64(4), uint64(6)
		if which%2 == 1 {
			dt, rpz, rows = arrow.PrimitiveTypes.Float64, 3, 3
		}
		seed, err := ParseSeed(data, dt, rpz, rows, mem)
		if err != nil {
			return
		}
		if _, err := seed.JSON(); err != nil {
			t.Fatal(err)
		}
		p, err := Bind(Col("x").Gt(Int64(2)), arrow.NewSchema([]arrow.Field{{Name: "x", Type: dt}}, nil))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.MayMatch(map[string]*Seed{"x": seed}, rpz, rows); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzParseFilter(f *testing.F) {
	for _, s := range []string{"x > 5 AND name IS NOT NULL", "NOT (a IN (1, NULL, 'x')) OR f IS NAN", `"q""c" = X'00'`,
		"5 < x", "x = -INF", "x = 1e308 OR y <= -0.0", "((a))", "flag"} {
		f.Add(s)
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}, {Name: "f", Type: arrow.PrimitiveTypes.Float64},
		{Name: "name", Type: arrow.BinaryTypes.String}}, nil)
	f.Fuzz(func(t *testing.T, s string) {
		e, err := ParseFilter(s)
		if err != nil {
			return
		}
		again, err := ParseFilter(e.String())
		if err != nil {
			t.Fatalf("rendering %q of %q does not parse: %v", e.String(), s, err)
		}
		if again.String() != e.String() {
			t.Fatalf("unstable rendering: %q vs %q", e.String(), again.String())
		}
		_, _ = Bind(e, schema)
	})
}
