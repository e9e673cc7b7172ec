package fileread

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/internal/filewriter"
)

// zoneColumns are the columns of zoneSchema a random filter may use.
var zoneColumns = []string{"i", "f", "s", "u", "d", "b", "l"}

// randExpr builds a random filter tree of at most depth levels.
func randExpr(r *rand.Rand, depth int) expr.Expr {
	if depth == 0 || r.IntN(3) == 0 {
		return randLeaf(r)
	}
	switch r.IntN(3) {
	case 0:
		return expr.And(randExpr(r, depth-1), randExpr(r, depth-1))
	case 1:
		return expr.Or(randExpr(r, depth-1), randExpr(r, depth-1), randExpr(r, depth-1))
	}
	return expr.NotOf(randExpr(r, depth-1))
}

// randLeaf builds a random comparison, IN, IS [NOT] NULL or isnan().
func randLeaf(r *rand.Rand) expr.Expr {
	name := zoneColumns[r.IntN(len(zoneColumns))]
	c := expr.Col(name)
	k := r.IntN(10)
	switch {
	case k == 0 || (name == "l" && k < 5):
		return expr.IsNullOf(c)
	case k == 1 || name == "l":
		return expr.IsNotNullOf(c)
	case k == 2 && name == "f":
		return expr.Fn("isnan", c)
	case k == 3:
		return expr.In(c, randLit(r, name), randLit(r, name), randLit(r, name))
	}
	return expr.Op(expr.BinaryOp(r.IntN(6)), c, randLit(r, name)) // = != < <= > >=
}

// randLit returns a literal of column col's domain (sometimes NULL).
func randLit(r *rand.Rand, col string) expr.Expr {
	if r.IntN(12) == 0 {
		return expr.Lit(nil)
	}
	switch col {
	case "i":
		return expr.Lit(r.Int64N(70_000) - 200)
	case "f":
		if r.IntN(3) == 0 {
			return expr.Lit(zoneFloats[r.IntN(len(zoneFloats))])
		}
		return expr.Lit(r.Float64() * 3000)
	case "s":
		return expr.Lit(string(rune('a'+r.IntN(26))) + zoneStrings[r.IntN(len(zoneStrings))])
	case "u":
		return expr.Lit(r.Uint64N(60))
	case "d":
		return dateLit(arrow.Date32(r.Int32N(300)))
	}
	return expr.Lit(r.IntN(2) == 0)
}

// dateLit returns a date32 constant.
func dateLit(d arrow.Date32) expr.Expr {
	b := array.NewDate32Builder(memory.DefaultAllocator)
	defer b.Release()
	b.Append(d)
	a := b.NewArray()
	defer a.Release()
	return expr.Typed(a)
}

// randScan returns random scan options around filter.
func randScan(r *rand.Rand, rows uint64, filter expr.Expr) ScanOptions {
	o := ScanOptions{Filter: filter, BatchSize: []int{0, 7, 97, 1000, 5000}[r.IntN(5)]}
	for _, c := range zoneColumns {
		if r.IntN(3) == 0 {
			o.Columns = append(o.Columns, c)
		}
	}
	if r.IntN(3) == 0 {
		o.From = r.Uint64N(rows + 1)
		o.To = o.From + r.Uint64N(rows-o.From+1)
		if o.To == 0 {
			o.From = 0
		}
	}
	return o
}

// TestFilterScanProperty: on random files (clustered or not, various zone
// and page sizes, seeds on all or some columns) and random filters, a
// pruned scan returns exactly the rows of a full scan filtered afterwards.
func TestFilterScanProperty(t *testing.T) {
	ctx := context.Background()
	var pruned, total int64
	for seed := uint64(1); seed <= 12; seed++ {
		r := rand.New(rand.NewPCG(seed, 0x5eed))
		rows := 1 + r.IntN(12_000)
		rpz := []uint64{3, 64, 100, 1000, 8192}[r.IntN(5)]
		seeded := []string(nil)
		if r.IntN(3) == 0 {
			seeded = []string{"i", "f", "s"}
		}
		opts := []filewriter.Option{filewriter.WithZoneSeeds(rpz, seeded...), filewriter.WithPageBudget([]int64{4 << 10, 64 << 10, 8 << 20}[r.IntN(3)])}
		path := writeZoneFile(t, r, rows, seed%2 == 0, rpz, opts...)
		f, err := Open(ctx, path, WithAllocator(zoneMem(t)))
		if err != nil {
			t.Fatal(err)
		}
		for q := 0; q < 20; q++ {
			o := randScan(r, uint64(rows), randExpr(r, 3))
			if _, err := expr.Bind(o.Filter, f.Schema()); err != nil {
				t.Fatalf("seed %d: bind %v: %v", seed, o.Filter, err)
			}
			got, _ := scanJSON(t, f, o)
			if want := referenceJSON(t, f, o); string(got) != string(want) {
				t.Fatalf("seed %d (rows %d, rpz %d) filter %v cols %v rows [%d,%d) batch %d: differs\n got %.400s\nwant %.400s",
					seed, rows, rpz, o.Filter, o.Columns, o.From, o.To, o.BatchSize, got, want)
			}
		}
		st := f.Stats()
		pruned, total = pruned+st.ZonesPruned, total+st.ZonesTotal
		f.Close()
	}
	t.Logf("random filters: %d of %d zones pruned", pruned, total)
	if pruned == 0 {
		t.Fatal("no zone was ever pruned")
	}
}

// TestFilterScanSkipsBytes: on a clustered file, selective filters prune
// zones and read fewer bytes and requests than unfiltered scans.
func TestFilterScanSkipsBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 42))
	path := writeZoneFile(t, r, 200_000, true, 0, filewriter.WithZoneSeeds(0), filewriter.WithPageBudget(256<<10))
	for _, filter := range []string{"i >= 300000 AND i < 301000", "d = date '1972-09-27'", "s >= 'q' AND s < 'r'", "i < 1000 OR i > 599000"} {
		full := measureScan(t, path, ScanOptions{Columns: []string{"i", "u", "s", "f", "d"}})
		cut := measureScan(t, path, ScanOptions{Columns: []string{"i", "u", "s", "f", "d"}, FilterSQL: filter})
		t.Logf("%-28s zones pruned %d/%d; requests %d -> %d, bytes read %d -> %d (skipped estimate %d)",
			filter, cut.ZonesPruned, cut.ZonesTotal, full.Requests, cut.Requests, full.BytesRead, cut.BytesRead, cut.BytesSkipped)
		if cut.ZonesPruned == 0 || cut.BytesRead*4 > full.BytesRead || cut.Requests >= full.Requests {
			t.Errorf("%s: pruning saved too little: %+v vs %+v", filter, cut, full)
		}
	}
}

// measureScan opens path afresh, runs a scan and returns the file's stats
// minus those of Open.
func measureScan(t *testing.T, path string, o ScanOptions) Stats {
	t.Helper()
	f, err := Open(context.Background(), path, WithAllocator(zoneMem(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	before := f.Stats()
	for rec, err := range f.Batches(context.Background(), o) {
		if err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	st := f.Stats()
	st.Requests -= before.Requests
	st.BytesRead -= before.BytesRead
	return st
}
