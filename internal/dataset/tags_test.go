package dataset

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// tagNames are Lance's own accepted and refused names (refs.rs tests),
// and a few more.
var tagNames = []string{
	"ref", "ref-with-dashes", "ref.extension", "ref_with_underscores", "v1.2.3-rc4", "ü", "日本", "x1",
	"", "../ref", ".ref", "/ref", "@", "deeply/nested/ref", "nested//ref", "nested/ref", "nested\\ref",
	"ref*", "ref.lock", "ref/", "ref?", "ref@{ref", "ref[", "ref^", "~/ref", "ref.", "ref..ref", "a b", "a%b",
}

// makeTagDataset creates a dataset of three versions with our writer.
func makeTagDataset(t *testing.T) (string, *Dataset) {
	t.Helper()
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "ds")
	mem := memory.NewGoAllocator()
	rdr, _ := rowsReader(t, mem, 0, 30, 10)
	ds, err := CreateDataset(ctx, dir, rdr)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < 3; i++ {
		rdr, _ := rowsReader(t, mem, i*100, 20, 10)
		next, err := ds.Append(ctx, rdr)
		if err != nil {
			t.Fatal(err)
		}
		ds.Close()
		ds = next
	}
	t.Cleanup(func() { ds.Close() })
	return dir, ds
}

const tagsPy = `
import lance, json, sys
uri, mode = sys.argv[1], sys.argv[2]
ds = lance.dataset(uri)
if mode == "create":
    ds.tags.create("py", 2)
    ok = {}
    for n in json.loads(sys.argv[3]):
        try:
            ds.tags.create(n, 1); ok[n] = True; ds.tags.delete(n)
        except Exception as e:
            ok[n] = False
    print(json.dumps(ok))
else:
    tags = {k: {"version": v["version"], "manifest_size": v["manifest_size"], "branch": v["branch"],
                "created_at": v["created_at"].isoformat() if v["created_at"] else None,
                "metadata": v["metadata"]} for k, v in ds.tags.list().items()}
    rows = {k: lance.dataset(uri, version=k).to_table().to_pylist() for k in tags}
    vers = {k: lance.dataset(uri, version=k).version for k in tags}
    print(json.dumps({"tags": tags, "rows": rows, "versions": vers}))
`

// TestTagsPylance checks tags both ways: pylance sees ours (list, open by
// tag) and we see its; our tag files are pylance's byte for byte but for
// the times; names are accepted and refused as pylance does.
func TestTagsPylance(t *testing.T) {
	py := datasetPython()
	if py == "" {
		t.Skip("no LANCE_PY")
	}
	ctx := context.Background()
	dir, ds := makeTagDataset(t)
	names, _ := json.Marshal(tagNames)
	out, err := exec.Command(py, "-c", tagsPy, dir, "create", string(names)).Output()
	if err != nil {
		t.Fatalf("pylance: %v %s", err, exitStderr(err))
	}
	var pyOK map[string]bool
	if err := json.Unmarshal(out, &pyOK); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, n := range tagNames {
		if ours := ValidateTagName(n) == nil; ours != pyOK[n] {
			t.Errorf("tag name %q: we accept %v, pylance %v", n, ours, pyOK[n])
		}
	}
	// pylance's tag, read by us
	tg, err := ds.Tag(ctx, "py")
	if err != nil {
		t.Fatal(err)
	}
	_, size, _ := manifestOf(ctx, ds.store, 2)
	if tg.Version != 2 || tg.ManifestSize != uint64(size) || tg.CreatedAt.IsZero() || time.Since(tg.CreatedAt) > time.Hour {
		t.Errorf("pylance's tag read as %+v", tg)
	}
	v2, err := OpenDataset(ctx, dir, WithTag("py"))
	if err != nil {
		t.Fatal(err)
	}
	if v2.Version() != 2 {
		t.Errorf("WithTag(py) opened version %d", v2.Version())
	}
	v2.Close()
	// ours, read by pylance
	if err := ds.CreateTag(ctx, "go", 1); err != nil {
		t.Fatal(err)
	}
	if err := ds.CreateTag(ctx, "ü", 0); err != nil { // the latest
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "_refs", "tags", "%C3%BC.json")); err != nil {
		t.Errorf("non-ASCII tag not stored percent-encoded as pylance stores it: %v", err)
	}
	tags, err := ds.Tags(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(tags) != 3 || tags["go"].Version != 1 || tags["py"].Version != 2 || tags["ü"].Version != 3 {
		t.Errorf("tags %+v", tags)
	}
	// pylance 14.0.2 cannot list a non-ASCII tag (it decodes the file name
	// twice); drop it before asking it to list.
	if err := ds.DeleteTag(ctx, "ü"); err != nil {
		t.Fatal(err)
	}
	// the same file as pylance's, but for the times
	mine, _ := os.ReadFile(filepath.Join(dir, TagKey("go")))
	if err := ds.CreateTag(ctx, "go2", 2); err != nil {
		t.Fatal(err)
	}
	mine2, _ := os.ReadFile(filepath.Join(dir, TagKey("go2")))
	theirs, _ := os.ReadFile(filepath.Join(dir, TagKey("py")))
	times := regexp.MustCompile(`"\d{4}-\d\d-\d\dT[0-9:.]+Z"`)
	if a, b := times.ReplaceAll(mine2, []byte(`"T"`)), times.ReplaceAll(theirs, []byte(`"T"`)); string(a) != string(b) {
		t.Errorf("our tag file\n%s\npylance's\n%s", mine2, theirs)
	}
	out, err = exec.Command(py, "-c", tagsPy, dir, "read").Output()
	if err != nil {
		t.Fatalf("pylance: %v %s", err, exitStderr(err))
	}
	var got struct {
		Tags map[string]struct {
			Version      uint64
			ManifestSize uint64 `json:"manifest_size"`
			Branch       *string
			CreatedAt    *string `json:"created_at"`
			Metadata     map[string]string
		}
		Rows     map[string][]map[string]any
		Versions map[string]uint64
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	ours, _ := ds.Tags(ctx)
	if len(got.Tags) != len(ours) {
		t.Errorf("pylance lists %d tags, we %d", len(got.Tags), len(ours))
	}
	for name, o := range ours {
		p := got.Tags[name]
		if p.Version != o.Version || p.ManifestSize != o.ManifestSize || p.Branch != nil || p.CreatedAt == nil || len(p.Metadata) != 0 {
			t.Errorf("tag %s: pylance lists %+v, we %+v", name, p, o)
		}
		if got.Versions[name] != o.Version {
			t.Errorf("pylance opens tag %s at version %d, want %d", name, got.Versions[name], o.Version)
		}
		c, err := time.Parse(time.RFC3339Nano, *p.CreatedAt)
		if err != nil || c.Sub(o.CreatedAt).Abs() > time.Millisecond {
			t.Errorf("tag %s: pylance says created %s, we %s", name, *p.CreatedAt, o.CreatedAt)
		}
		want, err := OpenDataset(ctx, dir, WithTag(name))
		if err != nil {
			t.Fatal(err)
		}
		n, _ := want.CountRows(ctx)
		if uint64(len(got.Rows[name])) != n {
			t.Errorf("tag %s: pylance reads %d rows, we %d", name, len(got.Rows[name]), n)
		}
		want.Close()
	}
	_ = mine
}

// TestTagErrors checks the refusals: existing tags, missing tags and
// versions, bad names, both a tag and a version; and UpdateTag.
func TestTagErrors(t *testing.T) {
	ctx := context.Background()
	dir, ds := makeTagDataset(t)
	if err := ds.CreateTag(ctx, "t", 2); err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		what string
		err  error
		want error
	}{
		{"create existing", ds.CreateTag(ctx, "t", 1), ErrTagExists},
		{"create missing version", ds.CreateTag(ctx, "u", 9), ErrVersionNotFound},
		{"create bad name", ds.CreateTag(ctx, "a/b", 1), ErrInvalidArgument},
		{"delete missing", ds.DeleteTag(ctx, "nope"), ErrTagNotFound},
		{"update missing", ds.UpdateTag(ctx, "nope", 1), ErrTagNotFound},
		{"update to missing version", ds.UpdateTag(ctx, "t", 7), ErrVersionNotFound},
	}
	_, err := OpenDataset(ctx, dir, WithTag("nope"))
	checks = append(checks, struct {
		what      string
		err, want error
	}{"open missing tag", err, ErrTagNotFound})
	_, err = OpenDataset(ctx, dir, WithTag("t"), WithVersion(1))
	checks = append(checks, struct {
		what      string
		err, want error
	}{"open tag and version", err, ErrInvalidArgument})
	for _, c := range checks {
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s: %v, want %v", c.what, c.err, c.want)
		} else if !strings.Contains(c.err.Error(), dir) && c.what != "open tag and version" {
			t.Errorf("%s: %v does not name the dataset", c.what, c.err)
		}
	}
	before, _ := ds.Tag(ctx, "t")
	time.Sleep(2 * time.Millisecond)
	if err := ds.UpdateTag(ctx, "t", 1); err != nil {
		t.Fatal(err)
	}
	after, _ := ds.Tag(ctx, "t")
	if after.Version != 1 || !after.CreatedAt.Equal(before.CreatedAt) || !after.UpdatedAt.After(before.UpdatedAt) {
		t.Errorf("updated tag %+v (was %+v)", after, before)
	}
	v, err := OpenDataset(ctx, dir, WithTag("t"))
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	// a write on a dataset opened by tag commits the next version and
	// reopens that version, not the tag's
	rdr, _ := rowsReader(t, memory.NewGoAllocator(), 500, 5, 5)
	next, err := v.Append(ctx, rdr)
	if err != nil {
		t.Fatal(err)
	}
	defer next.Close()
	if next.Version() != 4 {
		t.Errorf("append on the tagged version committed %d", next.Version())
	}
	if err := ds.DeleteTag(ctx, "t"); err != nil {
		t.Fatal(err)
	}
	if tags, _ := ds.Tags(ctx); len(tags) != 0 {
		t.Errorf("tags left: %v", tags)
	}
}

// TestTagTimeFormat checks chrono's RFC 3339 forms.
func TestTagTimeFormat(t *testing.T) {
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for ns, want := range map[int]string{
		0: "2026-01-02T03:04:05Z", 5e8: "2026-01-02T03:04:05.500Z", 123456000: "2026-01-02T03:04:05.123456Z",
		504057904: "2026-01-02T03:04:05.504057904Z", 1: "2026-01-02T03:04:05.000000001Z",
	} {
		if got := formatTagTime(base.Add(time.Duration(ns))); got != want {
			t.Errorf("%d ns: %s, want %s", ns, got, want)
		}
	}
}

// exitStderr is the stderr of a failed exec.Command Output.
func exitStderr(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return string(ee.Stderr)
	}
	return ""
}
