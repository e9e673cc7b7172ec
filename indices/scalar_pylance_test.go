package indices

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
)

// scalarQuery is one index query with the filter pylance evaluates for it.
type scalarQuery struct {
	filter string
	run    func(ctx context.Context, q querier) (*roaring64.Bitmap, error)
}

// querier is what BTREE and BITMAP segments both answer.
type querier interface {
	Equal(context.Context, Key) (*roaring64.Bitmap, error)
	In(context.Context, []Key) (*roaring64.Bitmap, error)
	Range(context.Context, Bound, Bound) (*roaring64.Bitmap, error)
	IsNull(context.Context) (*roaring64.Bitmap, error)
}

func eq(k Key) func(context.Context, querier) (*roaring64.Bitmap, error) {
	return func(ctx context.Context, q querier) (*roaring64.Bitmap, error) { return q.Equal(ctx, k) }
}
func in(ks ...Key) func(context.Context, querier) (*roaring64.Bitmap, error) {
	return func(ctx context.Context, q querier) (*roaring64.Bitmap, error) { return q.In(ctx, ks) }
}
func rng(lo, hi Bound) func(context.Context, querier) (*roaring64.Bitmap, error) {
	return func(ctx context.Context, q querier) (*roaring64.Bitmap, error) { return q.Range(ctx, lo, hi) }
}
func isNull(ctx context.Context, q querier) (*roaring64.Bitmap, error) { return q.IsNull(ctx) }

var open = Bound{Unbounded: true}

func incl(k Key) Bound { return Bound{Key: k, Inclusive: true} }
func excl(k Key) Bound { return Bound{Key: k} }

// scalarCases are per "dataset/index" the queries checked against pylance.
var scalarCases = map[string][]scalarQuery{
	"scalar.lance/id_idx": {
		{"id = 17", eq(IntKey(17))},
		{"id = 1000", eq(IntKey(1000))},
		{"id IN (1, 2, 3, 4, 5, 250)", in(IntKey(1), IntKey(2), IntKey(3), IntKey(4), IntKey(5), IntKey(250))},
		{"id > 290", rng(excl(IntKey(290)), open)},
		{"id >= 10 AND id < 20", rng(incl(IntKey(10)), excl(IntKey(20)))},
		{"id IS NULL", isNull},
	},
	"scalar.lance/s_idx": {
		{"s = 's05'", eq(StringKey("s05"))},
		{"s IS NULL", isNull},
		{"s >= 's0' AND s < 's1'", rng(incl(StringKey("s0")), excl(StringKey("s1")))},
	},
	"scalar.lance/fl_idx": {
		{"fl > 70", rng(excl(FloatKey(70)), open)},
		{"fl IS NULL", isNull},
		{"fl <= 10", rng(open, incl(FloatKey(10)))},
	},
	"btree_big.lance/v_idx": {
		{"v = 4023", eq(IntKey(4023))},
		{"v = 4024", eq(IntKey(4024))},
		{"v IS NULL", isNull},
		{"v > 4000 AND v <= 8200", rng(excl(IntKey(4000)), incl(IntKey(8200)))},
		{"v IN (0, 9999, 5000)", in(IntKey(0), IntKey(9999), IntKey(5000))},
	},
	"btree_big.lance/id_idx": {
		{"id = 4023", eq(IntKey(4023))},
		{"id > 9990", rng(excl(IntKey(9990)), open)},
	},
	"scalar.lance/cat_idx": {
		{"cat = 'blue'", eq(StringKey("blue"))},
		{"cat IN ('red', 'blue')", in(StringKey("red"), StringKey("blue"))},
		{"cat > 'green'", rng(excl(StringKey("green")), open)},
		{"cat <= 'green'", rng(open, incl(StringKey("green")))},
		{"cat IS NULL", isNull},
		{"cat = 'zzz'", eq(StringKey("zzz"))},
	},
	"scalar.lance/b_idx": {
		{"b = true", eq(BoolKey(true))},
		{"b IS NULL", isNull},
	},
}

// bitmapIdx names the BITMAP cases.
var bitmapIdx = map[string]bool{"scalar.lance/cat_idx": true, "scalar.lance/b_idx": true, "btree_big.lance/id_idx": true}

// pylanceScalar runs scalar_expect.py once for all cases.
func pylanceScalar(t *testing.T) (map[string]struct {
	Dir  string     `json:"dir"`
	Rows [][]uint64 `json:"rows"`
}, string) {
	t.Helper()
	py := os.Getenv("LANCE_PY")
	if py == "" {
		t.Skip("LANCE_PY not set")
	}
	filters := map[string][]string{}
	for name, qs := range scalarCases {
		for _, q := range qs {
			filters[name] = append(filters[name], q.filter)
		}
	}
	arg, _ := json.Marshal(filters)
	_, self, _, _ := runtime.Caller(0)
	out := t.TempDir()
	cmd := exec.Command(py, filepath.Join(filepath.Dir(self), "testdata", "scalar_expect.py"), out, string(arg))
	cmd.Stderr = os.Stderr
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("pylance: %v", err)
	}
	var res map[string]struct {
		Dir  string     `json:"dir"`
		Rows [][]uint64 `json:"rows"`
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	return res, out
}

func TestScalarAgainstPylance(t *testing.T) {
	res, _ := pylanceScalar(t)
	ctx := context.Background()
	for name, qs := range scalarCases {
		exp := res[name]
		var q querier
		var closeFn func() error
		if bitmapIdx[name] {
			b, err := OpenBitmap(ctx, exp.Dir)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			q, closeFn = b, b.Close
		} else {
			b, err := OpenBTree(ctx, exp.Dir)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			q, closeFn = b, b.Close
		}
		for i, c := range qs {
			got, err := c.run(ctx, q)
			if err != nil {
				t.Errorf("%s %q: %v", name, c.filter, err)
				continue
			}
			want := exp.Rows[i]
			if g := got.ToArray(); !slices.Equal(g, want) && !(len(g) == 0 && len(want) == 0) {
				t.Errorf("%s %q: %d rows %v, pylance %d rows %v", name, c.filter, len(g), head(g), len(want), head(want))
			}
		}
		closeFn()
	}
}

func head(v []uint64) []uint64 { return v[:min(len(v), 12)] }
