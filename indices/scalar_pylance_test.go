package indices

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
)

// scalarQuery is one index query with the filter pylance evaluates for it.
type scalarQuery struct {
	filter string
	run    func(ctx context.Context, q querier) (*roaring64.Bitmap, error)
	atMost bool // the index gives candidates: a superset of pylance's rows
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
		{"id = 17", eq(IntKey(17)), false},
		{"id = 1000", eq(IntKey(1000)), false},
		{"id IN (1, 2, 3, 4, 5, 250)", in(IntKey(1), IntKey(2), IntKey(3), IntKey(4), IntKey(5), IntKey(250)), false},
		{"id > 290", rng(excl(IntKey(290)), open), false},
		{"id >= 10 AND id < 20", rng(incl(IntKey(10)), excl(IntKey(20))), false},
		{"id IS NULL", isNull, false},
	},
	"scalar.lance/s_idx": {
		{"s = 's05'", eq(StringKey("s05")), false},
		{"s IS NULL", isNull, false},
		{"s >= 's0' AND s < 's1'", rng(incl(StringKey("s0")), excl(StringKey("s1"))), false},
	},
	"scalar.lance/fl_idx": {
		{"fl > 70", rng(excl(FloatKey(70)), open), false},
		{"fl IS NULL", isNull, false},
		{"fl <= 10", rng(open, incl(FloatKey(10))), false},
	},
	"btree_big.lance/v_idx": {
		{"v = 4023", eq(IntKey(4023)), false},
		{"v = 4024", eq(IntKey(4024)), false},
		{"v IS NULL", isNull, false},
		{"v > 4000 AND v <= 8200", rng(excl(IntKey(4000)), incl(IntKey(8200))), false},
		{"v IN (0, 9999, 5000)", in(IntKey(0), IntKey(9999), IntKey(5000)), false},
	},
	"btree_big.lance/id_idx": {
		{"id = 4023", eq(IntKey(4023)), false},
		{"id > 9990", rng(excl(IntKey(9990)), open), false},
	},
	"scalar.lance/cat_idx": {
		{"cat = 'blue'", eq(StringKey("blue")), false},
		{"cat IN ('red', 'blue')", in(StringKey("red"), StringKey("blue")), false},
		{"cat > 'green'", rng(excl(StringKey("green")), open), false},
		{"cat <= 'green'", rng(open, incl(StringKey("green"))), false},
		{"cat IS NULL", isNull, false},
		{"cat = 'zzz'", eq(StringKey("zzz")), false},
	},
	"scalar.lance/ts_idx": {
		{"ts > 2500", rng(excl(IntKey(2500)), open), true},
		{"ts = 100", eq(IntKey(100)), true},
		{"ts IN (5, 7000)", in(IntKey(5), IntKey(7000)), true},
		{"ts IS NULL", isNull, false},
	},
	"scalar.lance/tags_idx": {
		{"array_has_any(tags, ['c'])", llAny(StringKey("c")), false},
		{"array_has_any(tags, ['a', 'c'])", llAny(StringKey("a"), StringKey("c")), false},
		{"array_has_all(tags, ['a', 'b'])", llAll(StringKey("a"), StringKey("b")), false},
		{"array_contains(tags, 'b')", llAny(StringKey("b")), false},
		{"tags IS NULL", isNull, false},
	},
	"scalar.lance/b_idx": {
		{"b = true", eq(BoolKey(true)), false},
		{"b IS NULL", isNull, false},
	},
}

// bitmapIdx names the BITMAP cases.
var bitmapIdx = map[string]bool{"scalar.lance/cat_idx": true, "scalar.lance/b_idx": true, "btree_big.lance/id_idx": true}

// zoneQ and labelQ adapt ZONEMAP and LABEL_LIST segments to querier.
type zoneQ struct{ *ZoneMap }

func (z zoneQ) IsNull(ctx context.Context) (*roaring64.Bitmap, error) {
	r, _, err := z.ZoneMap.IsNull(ctx)
	return r, err
}

type labelQ struct {
	querier
	l *LabelList
}

func (l labelQ) IsNull(ctx context.Context) (*roaring64.Bitmap, error) { return l.l.NullLists(ctx) }

func llAny(ks ...Key) func(context.Context, querier) (*roaring64.Bitmap, error) {
	return func(ctx context.Context, q querier) (*roaring64.Bitmap, error) { return q.(labelQ).l.HasAny(ctx, ks) }
}
func llAll(ks ...Key) func(context.Context, querier) (*roaring64.Bitmap, error) {
	return func(ctx context.Context, q querier) (*roaring64.Bitmap, error) { return q.(labelQ).l.HasAll(ctx, ks) }
}

// openQuerier opens the segment of case name.
func openQuerier(ctx context.Context, name, dir string) (querier, func() error, error) {
	switch {
	case bitmapIdx[name]:
		b, err := OpenBitmap(ctx, dir)
		if err != nil {
			return nil, nil, err
		}
		return b, b.Close, nil
	case strings.HasSuffix(name, "/ts_idx"):
		z, err := OpenZoneMap(ctx, dir)
		if err != nil {
			return nil, nil, err
		}
		return zoneQ{z}, z.Close, nil
	case strings.HasSuffix(name, "/tags_idx"):
		l, err := OpenLabelList(ctx, dir)
		if err != nil {
			return nil, nil, err
		}
		return labelQ{l.bm, l}, l.Close, nil
	}
	b, err := OpenBTree(ctx, dir)
	if err != nil {
		return nil, nil, err
	}
	return b, b.Close, nil
}

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
		q, closeFn, err := openQuerier(ctx, name, exp.Dir)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i, c := range qs {
			got, err := c.run(ctx, q)
			if err != nil {
				t.Errorf("%s %q: %v", name, c.filter, err)
				continue
			}
			want := exp.Rows[i]
			if c.atMost {
				w := roaring64.BitmapOf(want...)
				w.AndNot(got)
				if !w.IsEmpty() {
					t.Errorf("%s %q: candidates miss %d of pylance's %d rows", name, c.filter, w.GetCardinality(), len(want))
				}
				continue
			}
			if g := got.ToArray(); !slices.Equal(g, want) && !(len(g) == 0 && len(want) == 0) {
				t.Errorf("%s %q: %d rows %v, pylance %d rows %v", name, c.filter, len(g), head(g), len(want), head(want))
			}
		}
		closeFn()
	}
}

func head(v []uint64) []uint64 { return v[:min(len(v), 12)] }
