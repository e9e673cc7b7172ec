package lance

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/internal/dataset"
	"github.com/lancego/lancego/internal/fileread"
	"github.com/lancego/lancego/internal/filewriter"
)

// The root option and result structs are copies of the engines' (so go
// doc shows their fields); these tests fail when an engine struct gains a
// field the root one lacks, or a conversion forgets one.

// conversions are the root ⇄ engine struct conversions, each given a
// value of its input type filled with non-zero values.
var conversions = []struct {
	name string
	in   reflect.Type
	conv func(v any) any
}{
	{"ScanOptions", reflect.TypeFor[ScanOptions](), func(v any) any { return v.(ScanOptions).internal() }},
	{"ReadOptions", reflect.TypeFor[ReadOptions](), func(v any) any { return v.(ReadOptions).internal() }},
	{"DatasetScanOptions", reflect.TypeFor[DatasetScanOptions](), func(v any) any { return v.(DatasetScanOptions).internal() }},
	{"VectorQuery", reflect.TypeFor[VectorQuery](), func(v any) any { return v.(VectorQuery).internal() }},
	{"Split", reflect.TypeFor[Split](), func(v any) any { return v.(Split).internal() }},
	{"dataset.Split", reflect.TypeFor[dataset.Split](), func(v any) any { return splitOf(v.(dataset.Split)) }},
	{"dataset.VectorQuery", reflect.TypeFor[dataset.VectorQuery](), func(v any) any { return vectorQueryOf(v.(dataset.VectorQuery)) }},
	{"fileread.Stats", reflect.TypeFor[fileread.Stats](), func(v any) any { return statsOf(v.(fileread.Stats)) }},
	{"[]fileread.Conjunct", reflect.TypeFor[[]fileread.Conjunct](), func(v any) any { return conjuncts(v.([]fileread.Conjunct)) }},
	{"*fileread.LegacyLayout", reflect.TypeFor[*fileread.LegacyLayout](), func(v any) any { return legacyLayout(v.(*fileread.LegacyLayout)) }},
	{"filewriter.WriteStats", reflect.TypeFor[filewriter.WriteStats](), func(v any) any { return writeStatsOf(v.(filewriter.WriteStats)) }},
	{"dataset.NearestStats", reflect.TypeFor[dataset.NearestStats](), func(v any) any { return nearestStatsOf(v.(dataset.NearestStats)) }},
	{"[]dataset.FragmentInfo", reflect.TypeFor[[]dataset.FragmentInfo](), func(v any) any { return fragmentInfos(v.([]dataset.FragmentInfo)) }},
	{"dataset.IndexScanStats", reflect.TypeFor[dataset.IndexScanStats](), func(v any) any { return indexScanStats(v.(dataset.IndexScanStats)) }},
	{"[]dataset.VersionInfo", reflect.TypeFor[[]dataset.VersionInfo](), func(v any) any { return versionInfos(v.([]dataset.VersionInfo)) }},
}

// TestWrapFields converts a value with every field set and checks that
// the result has the same fields (by name, JSON tag and value).
func TestWrapFields(t *testing.T) {
	for _, c := range conversions {
		t.Run(c.name, func(t *testing.T) {
			in := reflect.New(c.in).Elem()
			fill(in, 0)
			out := reflect.ValueOf(c.conv(in.Interface()))
			for _, p := range sameFields(in, out, c.name) {
				t.Error(p)
			}
		})
	}
}

var (
	errFill  = errors.New("fill")
	exprFill = expr.Col("c")
)

// fill sets every exported field, element and pointer of v to a non-zero
// value.
func fill(v reflect.Value, depth int) {
	if depth > 8 {
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(7 + depth))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(uint64(9 + depth))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1.5 + float64(depth))
	case reflect.String:
		v.SetString("s" + strings.Repeat("x", depth))
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := 0; i < v.Len(); i++ {
			fill(v.Index(i), depth+1)
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			fill(v.Index(i), depth+1)
		}
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k, depth+1)
		fill(e, depth+1)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), depth+1)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), depth+1)
			}
		}
	case reflect.Func:
		v.Set(reflect.MakeFunc(v.Type(), func([]reflect.Value) []reflect.Value {
			out := make([]reflect.Value, v.Type().NumOut())
			for i := range out {
				out[i] = reflect.New(v.Type().Out(i)).Elem()
			}
			return out
		}))
	case reflect.Interface:
		for _, x := range []any{exprFill, errFill, 42} {
			if reflect.TypeOf(x).AssignableTo(v.Type()) {
				v.Set(reflect.ValueOf(x))
				return
			}
		}
	}
}

// sameFields compares a and b, of corresponding root and engine types,
// field by field by name; it returns the differences.
func sameFields(a, b reflect.Value, path string) []string {
	if a.Type() == b.Type() {
		if !reflect.DeepEqual(a.Interface(), b.Interface()) {
			return []string{path + ": values differ"}
		}
		return nil
	}
	if a.Kind() != b.Kind() {
		return []string{path + ": kinds differ: " + a.Type().String() + " vs " + b.Type().String()}
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() != b.IsNil() {
			return []string{path + ": nil differs"}
		}
		if a.IsNil() {
			return nil
		}
		return sameFields(a.Elem(), b.Elem(), path)
	case reflect.Slice:
		if a.Len() != b.Len() || a.IsNil() != b.IsNil() {
			return []string{path + ": lengths differ"}
		}
		var out []string
		for i := 0; i < a.Len(); i++ {
			out = append(out, sameFields(a.Index(i), b.Index(i), path+"[]")...)
		}
		return out
	case reflect.Struct:
		return sameStructFields(a, b, path)
	case reflect.Func: // a callback is wrapped: only whether it is set carries over
		if a.IsNil() != b.IsNil() {
			return []string{path + ": nil differs"}
		}
		return nil
	}
	if a.Type().ConvertibleTo(b.Type()) && reflect.DeepEqual(a.Convert(b.Type()).Interface(), b.Interface()) {
		return nil
	}
	return []string{path + ": values differ"}
}

func sameStructFields(a, b reflect.Value, path string) []string {
	var out []string
	for _, pair := range [][2]reflect.Value{{a, b}, {b, a}} {
		x, y := pair[0], pair[1]
		for i := 0; i < x.NumField(); i++ {
			f := x.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			g, ok := y.Type().FieldByName(f.Name)
			if !ok || len(g.Index) != 1 {
				out = append(out, path+": "+x.Type().String()+" has field "+f.Name+"; "+
					y.Type().String()+" lacks it (add it to the root type and its conversion)")
				continue
			}
			if f.Tag.Get("json") != g.Tag.Get("json") {
				out = append(out, path+"."+f.Name+": JSON tags differ")
			}
		}
	}
	if out != nil {
		return out
	}
	for i := 0; i < a.NumField(); i++ {
		f := a.Type().Field(i)
		if f.IsExported() {
			out = append(out, sameFields(a.Field(i), b.FieldByName(f.Name), path+"."+f.Name)...)
		}
	}
	return out
}

// optionInternalOnly lists option constructors of the engines the root
// package deliberately does not offer, with the reason.
var optionInternalOnly = map[string]string{
	"filewriter.WithFormatVersion": "the format.Version form of WithFileVersion, for a dataset's own data storage version",
	"filewriter.WithLocalCreate":   "routes local paths through a dataset's store; dataset writes set it themselves",
}

// TestWrapOptions fails if an engine has an option constructor (a With*
// func returning its option type) the root package lacks.
func TestWrapOptions(t *testing.T) {
	root := map[string]bool{}
	for _, f := range funcDecls(t, ".") {
		root[f.Name.Name] = true
	}
	optionTypes := map[string]bool{"Option": true, "fileread.Option": true,
		"DatasetWriteOption": true, "NearestOption": true}
	for _, dir := range []string{"internal/fileread", "internal/filewriter", "internal/dataset"} {
		pkg := dir[strings.LastIndex(dir, "/")+1:]
		for _, f := range funcDecls(t, dir) {
			name := f.Name.Name
			res := f.Type.Results
			if !strings.HasPrefix(name, "With") || res == nil || len(res.List) != 1 ||
				!optionTypes[typeString(res.List[0].Type)] {
				continue
			}
			if !root[name] && optionInternalOnly[pkg+"."+name] == "" {
				t.Errorf("%s.%s is an option the root package lacks: wrap it (or list it in optionInternalOnly)", pkg, name)
			}
		}
	}
}

// funcDecls returns the exported package-level funcs of dir's non-test
// files.
func funcDecls(t *testing.T, dir string) []*ast.FuncDecl {
	t.Helper()
	fset := token.NewFileSet()
	//lint:ignore SA1019 these directories hold no build-tagged files; go/packages would add a module for a test
	pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []*ast.FuncDecl
	for _, p := range pkgs {
		for _, f := range p.Files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.IsExported() {
					out = append(out, fd)
				}
			}
		}
	}
	return out
}

func typeString(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return typeString(x.X) + "." + x.Sel.Name
	}
	return ""
}
