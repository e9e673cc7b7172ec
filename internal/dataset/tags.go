package dataset

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/internal/fileread"
	lanceio "github.com/lancego/lancego/io"
)

// TagsDir holds a dataset's tags, one JSON file per tag
// ({name}.json), as Lance keeps them (refs.rs: _refs/tags).
const TagsDir = "_refs/tags"

// BranchesDir holds a dataset's branches (not supported here: a dataset
// with branches is refused by Cleanup, and tags on branches by WithTag).
const BranchesDir = "_refs/branches"

// maxTagFileSize bounds the tag files read (Lance's are ~200 bytes).
const maxTagFileSize = 1 << 20

// Tag is a named reference to a version of a dataset, as pylance's
// tags.list() describes it.
type Tag struct {
	Name string `json:"name"`
	// Branch is the branch the version is on; "" is the main branch.
	Branch  string `json:"branch,omitempty"`
	Version uint64 `json:"version"`
	// CreatedAt and UpdatedAt (the last UpdateTag) are zero in tags
	// written by Lance before it recorded them.
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// ManifestSize is the size of the version's manifest file.
	ManifestSize uint64            `json:"manifest_size"`
	Metadata     map[string]string `json:"metadata"`
}

// tagFile is the JSON of a tag file, with the field names and order of
// pylance 14.0.2 (TagContents, camelCase).
type tagFile struct {
	Branch       *string           `json:"branch"`
	Version      uint64            `json:"version"`
	CreatedAt    *string           `json:"createdAt,omitempty"`
	UpdatedAt    *string           `json:"updatedAt,omitempty"`
	ManifestSize uint64            `json:"manifestSize"`
	Metadata     map[string]string `json:"metadata"`
}

// WithTag makes OpenDataset open the version the tag name refers to
// (one read of _refs/tags/{name}.json before the manifest). A missing
// tag fails with ErrTagNotFound; a tag on a branch with ErrUnsupported.
func WithTag(name string) fileread.Option { return func(c *fileread.Config) { c.Tag = name } }

// ValidateTagName checks a tag name as Lance does (check_valid_tag):
// not empty; letters, digits, '.', '-' and '_' only; not beginning or
// ending with '.', no "..", not ending with ".lock".
func ValidateTagName(name string) error {
	bad := func(why string) error {
		return fmt.Errorf("%w: tag %q: Ref is invalid: %s", ErrInvalidArgument, name, why)
	}
	switch {
	case name == "":
		return bad("Ref cannot be empty")
	case strings.IndexFunc(name, func(c rune) bool { return !tagRune(c) }) >= 0:
		return bad("Ref characters must be either alphanumeric, '.', '-' or '_'")
	case strings.HasPrefix(name, "."):
		return bad("Ref cannot begin with a dot")
	case strings.HasSuffix(name, "."):
		return bad("Ref cannot end with a dot")
	case strings.HasSuffix(name, ".lock"):
		return bad("Ref cannot end with .lock")
	case strings.Contains(name, ".."):
		return bad("Ref cannot have two consecutive dots")
	}
	return nil
}

// tagRune is Rust's char::is_alphanumeric (Alphabetic or Numeric) or
// one of ".-_".
func tagRune(c rune) bool {
	return c == '.' || c == '-' || c == '_' || unicode.IsLetter(c) || unicode.IsNumber(c) ||
		unicode.Is(unicode.Other_Alphabetic, c)
}

// TagKey is the key, under the dataset root, of the file of tag name:
// bytes outside ASCII percent-encoded, as Lance's object-store paths
// store them.
func TagKey(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 0x80 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return TagsDir + "/" + b.String() + ".json"
}

// tagNameOf is the tag name of a file name under TagsDir (without the
// directory), or "" when it names no tag.
func tagNameOf(file string) string {
	enc, ok := strings.CutSuffix(file, ".json")
	if !ok || enc == "" {
		return ""
	}
	var b []byte
	for i := 0; i < len(enc); i++ {
		if enc[i] == '%' && i+2 < len(enc) {
			if x, err := strconv.ParseUint(enc[i+1:i+3], 16, 8); err == nil {
				b = append(b, byte(x))
				i += 2
				continue
			}
		}
		b = append(b, enc[i])
	}
	return string(b)
}

// formatTagTime writes t as chrono writes a DateTime<Utc> (RFC 3339, UTC,
// "Z", 0, 3, 6 or 9 fraction digits as needed).
func formatTagTime(t time.Time) string {
	t = t.UTC()
	ns := t.Nanosecond()
	layout := "2006-01-02T15:04:05"
	switch {
	case ns == 0:
	case ns%1e6 == 0:
		layout += ".000"
	case ns%1e3 == 0:
		layout += ".000000"
	default:
		layout += ".000000000"
	}
	return t.Format(layout) + "Z"
}

// encodeTag serializes t as Lance does (serde_json pretty: two-space
// indent, no final newline, map keys sorted).
func encodeTag(t Tag) ([]byte, error) {
	f := tagFile{Version: t.Version, ManifestSize: t.ManifestSize, Metadata: t.Metadata}
	if t.Branch != "" {
		f.Branch = &t.Branch
	}
	if f.Metadata == nil {
		f.Metadata = map[string]string{}
	}
	c, u := formatTagTime(t.CreatedAt), formatTagTime(t.UpdatedAt)
	f.CreatedAt, f.UpdatedAt = &c, &u
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// decodeTag parses the file of tag name.
func decodeTag(name string, b []byte) (Tag, error) {
	var f tagFile
	if err := json.Unmarshal(b, &f); err != nil {
		return Tag{}, fmt.Errorf("%w: tag %q: %v", format.ErrCorrupt, name, err)
	}
	t := Tag{Name: name, Version: f.Version, ManifestSize: f.ManifestSize, Metadata: f.Metadata}
	if t.Metadata == nil {
		t.Metadata = map[string]string{}
	}
	if f.Branch != nil {
		t.Branch = *f.Branch
	}
	for _, x := range []struct {
		s   *string
		dst *time.Time
	}{{f.CreatedAt, &t.CreatedAt}, {f.UpdatedAt, &t.UpdatedAt}} {
		if x.s == nil {
			continue
		}
		v, err := time.Parse(time.RFC3339Nano, *x.s)
		if err != nil {
			return Tag{}, fmt.Errorf("%w: tag %q: time %q: %v", format.ErrCorrupt, name, *x.s, err)
		}
		*x.dst = v
	}
	return t, nil
}

// readTag reads tag name of the dataset in store (ErrTagNotFound when
// it has none).
func readTag(ctx context.Context, store *lanceio.Store, url, name string) (Tag, error) {
	if err := ValidateTagName(name); err != nil {
		return Tag{}, fmt.Errorf("lance: dataset %s: %w", url, err)
	}
	key := TagKey(name)
	b, err := readSmall(ctx, store, key, maxTagFileSize)
	if errors.Is(err, lanceio.ErrNotFound) {
		return Tag{}, fmt.Errorf("lance: dataset %s: %w: %s", url, ErrTagNotFound, name)
	}
	if err != nil {
		return Tag{}, fmt.Errorf("lance: dataset %s: %s: %w", url, key, err)
	}
	t, err := decodeTag(name, b)
	if err != nil {
		return Tag{}, fmt.Errorf("lance: dataset %s: %s: %w", url, key, err)
	}
	return t, nil
}

// readSmall reads a whole small object.
func readSmall(ctx context.Context, store *lanceio.Store, key string, limit int64) ([]byte, error) {
	obj, tail, err := store.OpenTail(ctx, key, manifestTail)
	if err != nil {
		return nil, err
	}
	defer closeObject(obj)
	size := obj.Size()
	if size > limit {
		return nil, fmt.Errorf("%w: %s is %d bytes, more than %d", format.ErrCorrupt, key, size, limit)
	}
	if int64(len(tail)) == size {
		return tail, nil
	}
	b := make([]byte, size-int64(len(tail)), size)
	if err := obj.ReadAt(ctx, b, 0); err != nil {
		return nil, err
	}
	return append(b, tail...), nil
}

// listTags reads every tag of the dataset in store.
func listTags(ctx context.Context, store *lanceio.Store, url string) (map[string]Tag, error) {
	ents, err := store.List(ctx, TagsDir)
	if err != nil {
		return nil, fmt.Errorf("lance: dataset %s: list %s: %w", url, TagsDir, err)
	}
	out := make(map[string]Tag, len(ents))
	for _, e := range ents {
		name := tagNameOf(path.Base(e.Key))
		if name == "" {
			continue
		}
		b, err := readSmall(ctx, store, e.Key, maxTagFileSize)
		if errors.Is(err, lanceio.ErrNotFound) {
			continue // deleted while listing
		}
		if err != nil {
			return nil, fmt.Errorf("lance: dataset %s: %s: %w", url, e.Key, err)
		}
		t, err := decodeTag(name, b)
		if err != nil {
			return nil, fmt.Errorf("lance: dataset %s: %s: %w", url, e.Key, err)
		}
		out[name] = t
	}
	return out, nil
}

// resolveTag turns the WithTag option of ds into the version to open.
func (ds *Dataset) resolveTag(ctx context.Context) error {
	name := ds.cfg.Tag
	if name == "" {
		return nil
	}
	if ds.cfg.Version != 0 {
		return fmt.Errorf("lance: open dataset %s: %w: both a version (%d) and a tag (%q)", ds.url, ErrInvalidArgument, ds.cfg.Version, name)
	}
	t, err := readTag(ctx, ds.store, ds.url, name)
	if err != nil {
		return err
	}
	if t.Branch != "" && t.Branch != "main" {
		return fmt.Errorf("lance: dataset %s: tag %s: %w: it refers to version %d of branch %q (branches are not supported)", ds.url, name, ErrUnsupported, t.Version, t.Branch)
	}
	ds.cfg.Version, ds.cfg.Tag = t.Version, "" // later reopens open versions
	return nil
}

// manifestOf returns the key and size of the manifest file of version v
// (its V2 name, else its V1 name), or an error wrapping
// ErrVersionNotFound.
func manifestOf(ctx context.Context, store *lanceio.Store, v uint64) (string, int64, error) {
	var last error
	for _, n := range []Naming{NamingV2, NamingV1} {
		key := VersionsDir + "/" + ManifestName(v, n)
		obj, err := store.Open(ctx, key)
		if err == nil {
			size := obj.Size()
			closeObject(obj)
			return key, size, nil
		}
		if !errors.Is(err, lanceio.ErrNotFound) {
			return "", 0, err
		}
		last = err
	}
	return "", 0, fmt.Errorf("%w: version main:%d does not exist: %w", ErrVersionNotFound, v, last)
}

// latestVersion is the newest version of the dataset in store.
func latestVersion(ctx context.Context, store *lanceio.Store) (uint64, error) {
	vs, err := listVersions(ctx, store)
	if err != nil {
		return 0, err
	}
	var best uint64
	for _, x := range vs {
		best = max(best, x.Version)
	}
	if best == 0 {
		return 0, fmt.Errorf("%w (no manifest under %s/)", ErrNotDataset, VersionsDir)
	}
	return best, nil
}

// Tags returns the dataset's tags by name (one listing of _refs/tags/ and
// one read per tag), as pylance's tags.list().
func (ds *Dataset) Tags(ctx context.Context) (map[string]Tag, error) {
	return listTags(ctx, ds.store, ds.url)
}

// Tag returns the tag name, or an error wrapping ErrTagNotFound.
func (ds *Dataset) Tag(ctx context.Context, name string) (Tag, error) {
	return readTag(ctx, ds.store, ds.url, name)
}

// CreateTag makes name refer to version (0: the latest version), writing
// _refs/tags/{name}.json as pylance does. The name must pass
// ValidateTagName; an existing tag fails with ErrTagExists, a missing
// version with ErrVersionNotFound.
func (ds *Dataset) CreateTag(ctx context.Context, name string, version uint64) error {
	return ds.putTag(ctx, name, version, false)
}

// UpdateTag makes the existing tag name refer to version (0: the latest),
// keeping its creation time and metadata. A missing tag fails with
// ErrTagNotFound, a missing version with ErrVersionNotFound.
func (ds *Dataset) UpdateTag(ctx context.Context, name string, version uint64) error {
	return ds.putTag(ctx, name, version, true)
}

func (ds *Dataset) putTag(ctx context.Context, name string, version uint64, update bool) error {
	what := "create"
	if update {
		what = "update"
	}
	fail := func(err error) error { return fmt.Errorf("lance: %s tag %q of %s: %w", what, name, ds.url, err) }
	if err := ValidateTagName(name); err != nil {
		return fail(err)
	}
	now := time.Now()
	t := Tag{Name: name, CreatedAt: now, UpdatedAt: now}
	old, err := readTag(ctx, ds.store, ds.url, name)
	switch {
	case err == nil && !update:
		return fail(fmt.Errorf("%w: %s", ErrTagExists, name))
	case err == nil:
		t.CreatedAt, t.Metadata = old.CreatedAt, old.Metadata
		if t.CreatedAt.IsZero() {
			t.CreatedAt = now
		}
	case !errors.Is(err, ErrTagNotFound) || update:
		return err
	}
	if version == 0 {
		if version, err = latestVersion(ctx, ds.store); err != nil {
			return fail(err)
		}
	}
	_, size, err := manifestOf(ctx, ds.store, version)
	if err != nil {
		return fail(err)
	}
	t.Version, t.ManifestSize = version, uint64(size)
	data, err := encodeTag(t)
	if err != nil {
		return fail(err)
	}
	key := TagKey(name)
	if !update && ds.store.CanPutIfAbsent() {
		err = ds.store.PutIfAbsent(ctx, key, data)
		if errors.Is(err, lanceio.ErrExists) {
			return fail(fmt.Errorf("%w: %s", ErrTagExists, name))
		}
	} else {
		err = putFile(ctx, ds.store, key, data)
	}
	if err != nil {
		return fail(err)
	}
	return nil
}

// DeleteTag removes the tag name (the version stays); a missing tag fails
// with ErrTagNotFound.
func (ds *Dataset) DeleteTag(ctx context.Context, name string) error {
	if err := ValidateTagName(name); err != nil {
		return fmt.Errorf("lance: delete tag of %s: %w", ds.url, err)
	}
	err := ds.store.Delete(ctx, TagKey(name))
	if errors.Is(err, lanceio.ErrNotFound) {
		return fmt.Errorf("lance: delete tag %q of %s: %w", name, ds.url, ErrTagNotFound)
	}
	if err != nil {
		return fmt.Errorf("lance: delete tag %q of %s: %w", name, ds.url, err)
	}
	return nil
}
