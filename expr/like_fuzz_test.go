package expr

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// likeReference matches LIKE as arrow-rs does: the pattern becomes a
// regular expression (% → .*, _ → ., a backslash quotes the next
// character, a trailing one is literal) with (?s), and (?i) for ILIKE.
func likeReference(pat, s string, ci bool) bool {
	var b strings.Builder
	b.WriteString("(?s)")
	if ci {
		b.WriteString("(?i)")
	}
	b.WriteString("^")
	rs := []rune(pat)
	for i := 0; i < len(rs); i++ {
		switch r := rs[i]; r {
		case '\\':
			if i+1 < len(rs) {
				i++
				b.WriteString(regexp.QuoteMeta(string(rs[i])))
			} else {
				b.WriteString(`\\`)
			}
		case '%':
			b.WriteString(".*")
		case '_':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String()).MatchString(s)
}

// FuzzLike checks that LIKE and ILIKE never panic and, on valid UTF-8,
// agree with likeReference, whether the pattern is a constant (compiled
// at bind time) or a column (compiled per row).
func FuzzLike(f *testing.F) {
	for _, seed := range [][2]string{
		{"a%", "apple"}, {"_pple", "apple"}, {`a\%%`, "a%b"}, {`a\`, `a\`}, {"%a%b%", "xaybz"},
		{"%_%", ""}, {"é%", "Émile"}, {"%σας", "ΣΑΣ"}, {"x_y", "x\ny"}, {"%%", ""}, {`\%\_`, "%_"},
		{"a%%b", "ab"}, {"%aa%aa", "aaaa"}, {"_%_", "ab"}, {"K%", "\u212aelvin"}, {"", ""},
	} {
		f.Add(seed[0], seed[1], false, false)
		f.Add(seed[0], seed[1], true, true)
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "p", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	f.Fuzz(func(t *testing.T, pat, s string, ci, esc bool) {
		if len(pat) > 200 || len(s) > 200 {
			return
		}
		mem := memory.DefaultAllocator
		sb := array.NewStringBuilder(mem)
		defer sb.Release()
		sb.AppendValues([]string{s, s, ""}, []bool{true, true, false})
		pb := array.NewStringBuilder(mem)
		defer pb.Release()
		pb.AppendValues([]string{pat, "x", pat}, nil)
		sa, pa := sb.NewArray(), pb.NewArray()
		defer sa.Release()
		defer pa.Release()
		rec := array.NewRecordBatch(schema, []arrow.Array{sa, pa}, 3)
		defer rec.Release()
		var escape rune
		if esc {
			escape = '\\'
		}
		valid := utf8.ValidString(pat) && utf8.ValidString(s)
		want := valid && likeReference(pat, s, ci)
		for _, pe := range []Expr{&Literal{Kind: LitString, Str: pat}, &Column{Name: "p"}} {
			e := &Like{X: &Column{Name: "s"}, Pattern: pe, CaseInsensitive: ci, Escape: escape}
			p, err := Bind(e, schema)
			if err != nil {
				t.Fatalf("%s: %v", e, err)
			}
			got, err := p.Evaluate(rec)
			if err != nil {
				t.Fatalf("%s: %v", e, err)
			}
			if valid && got[0] != want {
				t.Errorf("%q LIKE %q (ci %v): got %v, reference %v", s, pat, ci, got[0], want)
			}
			if got[2] {
				t.Errorf("%s: NULL text matched", e)
			}
		}
	})
}
