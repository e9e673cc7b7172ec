package fileread

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/internal/filewriter"
)

// TestFilterConjuncts: FilterSQL, Filters and Filter combine as one
// conjunction; PartialFilter leaves the conjuncts that do not bind to the
// caller (PlanFilter reports them) and the scan equals one with the
// others only; without it they fail the scan, naming the filter.
func TestFilterConjuncts(t *testing.T) {
	ctx := context.Background()
	path := writeZoneFile(t, rand.New(rand.NewPCG(3, 4)), 5_000, true, 0, filewriter.WithZoneSeeds(500))
	f, err := Open(ctx, path, WithAllocator(zoneMem(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	bogus := expr.Fn("no_such_function", expr.Col("i"))
	sql := ScanOptions{FilterSQL: "i >= 3000 AND i < 6000", Filters: []expr.Expr{expr.IsNotNullOf(expr.Col("s"))}, Columns: []string{"i", "s"}}
	parsed, err := expr.Parse("i >= 3000 AND i < 6000 AND s IS NOT NULL")
	if err != nil {
		t.Fatal(err)
	}
	want := referenceJSON(t, f, ScanOptions{Filter: parsed, Columns: []string{"i", "s"}})
	if got, _ := scanJSON(t, f, sql); string(got) != string(want) {
		t.Fatalf("FilterSQL and Filters differ from their conjunction")
	}
	partial := sql
	partial.Filters = append(partial.Filters, bogus)
	partial.PartialFilter = true
	conj, err := f.PlanFilter(partial)
	if err != nil {
		t.Fatal(err)
	}
	var state []string
	for _, c := range conj {
		if c.Applied() {
			state = append(state, c.Expr.String())
		} else {
			state = append(state, "NOT APPLIED "+c.Expr.String())
		}
	}
	if got := strings.Join(state, "; "); got != "(i >= 3000); (i < 6000); (s IS NOT NULL); NOT APPLIED no_such_function(i)" {
		t.Fatalf("PlanFilter: %s", got)
	}
	if got, _ := scanJSON(t, f, partial); string(got) != string(want) {
		t.Fatalf("partial scan differs from the applied conjuncts")
	}
	if f.Stats().ZonesPruned == 0 {
		t.Error("the applied conjuncts pruned nothing")
	}
	partial.PartialFilter = false
	if _, err := f.Scan(ctx, partial); !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), "no_such_function") {
		t.Fatalf("strict: %v", err)
	}
	for _, o := range []ScanOptions{
		{Filter: parsed, FilterSQL: "i > 1"},
		{FilterSQL: "i >"},
		{Filters: []expr.Expr{nil}},
	} {
		if _, err := f.Scan(ctx, o); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%+v: %v", o, err)
		}
	}
	if conj, err := f.PlanFilter(ScanOptions{}); conj != nil || err != nil {
		t.Errorf("no filter: %v %v", conj, err)
	}
}
