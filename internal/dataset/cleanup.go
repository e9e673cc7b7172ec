package dataset

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/lancego/lancego/format/pb/tablepb"
	lanceio "github.com/lancego/lancego/io"
)

// Cleanup defaults, Lance's: versions older than two weeks are removed
// when nothing else is said, and a file no manifest references is taken
// for part of a write in progress unless it is a week old.
const (
	DefaultCleanupOlderThan = 14 * 24 * time.Hour
	UnverifiedFileAge       = 7 * 24 * time.Hour
)

// Keys of a manifest's table config that make every commit clean up old
// versions, as pylance's auto_cleanup_options (and enable_auto_cleanup)
// set them: every interval-th version, versions older than older_than
// (a humantime duration, "3600s", "14days") and/or all but the newest
// retain_versions.
const (
	AutoCleanupInterval       = "lance.auto_cleanup.interval"
	AutoCleanupOlderThan      = "lance.auto_cleanup.older_than"
	AutoCleanupRetainVersions = "lance.auto_cleanup.retain_versions"
)

// CleanupOptions selects what Cleanup removes (pylance's
// cleanup_old_versions arguments).
type CleanupOptions struct {
	// OlderThan: versions whose manifest timestamp is more than this
	// before now are removed. Zero, with RetainVersions zero, is
	// DefaultCleanupOlderThan (pylance's default).
	OlderThan time.Duration
	// RetainVersions > 0 keeps the newest RetainVersions versions (with
	// OlderThan, a version must satisfy both to be removed).
	RetainVersions int
	// DeleteUnverified removes files no manifest references even when
	// they are less than UnverifiedFileAge old. Safe only when no other
	// process is writing to the dataset.
	DeleteUnverified bool
	// IgnoreTaggedOldVersions keeps tagged versions the policy selects
	// without failing (pylance's error_if_tagged_old_versions=False);
	// by default such a cleanup fails with ErrTaggedVersions and removes
	// nothing.
	IgnoreTaggedOldVersions bool
}

// CleanupStats is what a cleanup removed (pylance's CleanupStats).
type CleanupStats struct {
	// BytesRemoved counts the bytes of every file removed, manifests
	// included.
	BytesRemoved uint64 `json:"bytes_removed"`
	// OldVersions is the number of versions (manifests) removed.
	OldVersions             uint64 `json:"old_versions"`
	DataFilesRemoved        uint64 `json:"data_files_removed"`
	TransactionFilesRemoved uint64 `json:"transaction_files_removed"`
	IndexFilesRemoved       uint64 `json:"index_files_removed"`
	DeletionFilesRemoved    uint64 `json:"deletion_files_removed"`
	// FailedDeletes counts files whose removal failed (they stay).
	FailedDeletes uint64 `json:"failed_deletes"`
}

// cleanupPolicy is a cleanup in Lance's terms (CleanupPolicy).
type cleanupPolicy struct {
	before           time.Time // versions with an older timestamp; zero: any
	beforeVersion    uint64    // versions below it; 0: any
	deleteUnverified bool
	errorIfTagged    bool
}

// shouldClean is CleanupPolicy::should_clean.
func (p cleanupPolicy) shouldClean(m *tablepb.Manifest) bool {
	if !p.before.IsZero() && !m.GetTimestamp().AsTime().Before(p.before) {
		return false
	}
	return p.beforeVersion == 0 || m.GetVersion() < p.beforeVersion
}

// Cleanup removes old versions of the dataset and the files only they
// reference, as pylance's cleanup_old_versions does: a version is removed
// when the options select it, unless it is ds's version or newer (the
// latest is never removed) or tagged. Data, deletion and transaction files
// and index directories that no kept version references are removed when
// a removed version referenced them, or when they are at least
// UnverifiedFileAge old (by modification time), or with DeleteUnverified;
// leftover temporary manifests likewise. Manifest ages are their
// timestamps. Old manifests are removed first, so a crash leaves no
// version whose files are gone. A dataset with branches is refused
// (ErrUnsupported).
func (ds *Dataset) Cleanup(ctx context.Context, o CleanupOptions) (CleanupStats, error) {
	fail := func(err error) (CleanupStats, error) {
		return CleanupStats{}, fmt.Errorf("lance: cleanup %s: %w", ds.url, err)
	}
	if o.OlderThan < 0 || o.RetainVersions < 0 {
		return fail(fmt.Errorf("%w: older than %v, retain %d versions", ErrInvalidArgument, o.OlderThan, o.RetainVersions))
	}
	p := cleanupPolicy{deleteUnverified: o.DeleteUnverified, errorIfTagged: !o.IgnoreTaggedOldVersions}
	older := o.OlderThan
	if older == 0 && o.RetainVersions == 0 {
		older = DefaultCleanupOlderThan
	}
	if older > 0 {
		p.before = time.Now().Add(-older)
	}
	if o.RetainVersions > 0 {
		bv, err := retainBefore(ctx, ds.store, o.RetainVersions)
		if err != nil {
			return fail(err)
		}
		p.beforeVersion = bv
	}
	st, err := cleanupStore(ctx, ds.store, ds.url, ds.man.Version, p)
	if err != nil {
		return st, fmt.Errorf("lance: cleanup %s: %w", ds.url, err)
	}
	return st, nil
}

// retainBefore is the version below which versions go when the newest n
// are kept (CleanupPolicyBuilder::retain_n_versions).
func retainBefore(ctx context.Context, store *lanceio.Store, n int) (uint64, error) {
	vs, err := listVersions(ctx, store)
	if err != nil {
		return 0, err
	}
	if len(vs) == 0 {
		return 0, fmt.Errorf("%w (no manifest under %s/)", ErrNotDataset, VersionsDir)
	}
	slices.SortFunc(vs, func(a, b VersionInfo) int { return compareU64(a.Version, b.Version) })
	if len(vs) <= n {
		return vs[0].Version, nil
	}
	return vs[len(vs)-n].Version, nil
}

func compareU64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// fileRefs are the files a set of manifests references.
type fileRefs struct {
	data, deletions, txns, indices map[string]bool
}

func newFileRefs() *fileRefs {
	return &fileRefs{data: map[string]bool{}, deletions: map[string]bool{}, txns: map[string]bool{}, indices: map[string]bool{}}
}

// add records the files of manifest m and its index entries.
func (r *fileRefs) add(m *tablepb.Manifest, idx []indexEntry) {
	for _, f := range m.GetFragments() {
		for _, df := range f.GetFiles() {
			r.data[path.Join(DataDir, df.GetPath())] = true
		}
		if d := f.GetDeletionFile(); d != nil {
			r.deletions[DeletionName(f.GetId(), DeletionFile{
				Bitmap: d.GetFileType() == tablepb.DeletionFile_BITMAP, ReadVersion: d.GetReadVersion(), ID: d.GetId()})] = true
		}
	}
	if t := m.GetTransactionFile(); t != "" {
		r.txns[TransactionsDir+"/"+t] = true
	}
	for _, e := range idx {
		r.indices[e.meta.UUIDString()] = true
	}
}

// inspection is what reading every manifest found (CleanupInspection).
type inspection struct {
	mu sync.Mutex
	// referenced: files of the versions kept; verified: files of the
	// versions removed (not part of a write in progress).
	referenced, verified *fileRefs
	old                  []VersionInfo // manifests to remove
	taggedOld            map[uint64]bool
}

// cleanupStore cleans the dataset in store as a cleanup run on version
// current of it (versions from current on are kept).
func cleanupStore(ctx context.Context, store *lanceio.Store, url string, current uint64, p cleanupPolicy) (CleanupStats, error) {
	var st CleanupStats
	if branches, err := store.List(ctx, BranchesDir); err != nil {
		return st, fmt.Errorf("list %s: %w", BranchesDir, err)
	} else if slices.ContainsFunc(branches, func(e lanceio.ListEntry) bool { return strings.HasSuffix(e.Key, ".json") }) {
		return st, fmt.Errorf("%w: the dataset has branches (%s), which cleanup does not handle", ErrUnsupported, BranchesDir)
	}
	tags, err := listTags(ctx, store, url)
	if err != nil {
		return st, err
	}
	tagged := map[uint64]bool{}
	for _, t := range tags {
		tagged[t.Version] = true
	}
	vs, err := listVersions(ctx, store)
	if err != nil {
		return st, fmt.Errorf("list %s: %w", VersionsDir, err)
	}
	in := &inspection{referenced: newFileRefs(), verified: newFileRefs(), taggedOld: map[uint64]bool{}}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(8)
	for _, v := range vs {
		g.Go(func() error {
			// A manifest that cannot be read fails the cleanup: its files
			// might be taken for unreferenced ones.
			src, err := readManifestAt(gctx, store, v.Manifest, v.Version)
			if err != nil {
				return fmt.Errorf("version %d: %w", v.Version, err)
			}
			m := src.man
			isLatest, isTagged, clean := m.GetVersion() >= current, tagged[m.GetVersion()], p.shouldClean(m)
			keep := isLatest || isTagged || !clean
			in.mu.Lock()
			defer in.mu.Unlock()
			if isTagged && !isLatest && clean {
				in.taggedOld[m.GetVersion()] = true
			}
			if keep {
				in.referenced.add(m, src.indices)
			} else {
				in.verified.add(m, src.indices)
				in.old = append(in.old, v)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return st, err
	}
	if p.errorIfTagged && len(in.taggedOld) > 0 {
		var names []string
		for name, t := range tags {
			if in.taggedOld[t.Version] {
				names = append(names, fmt.Sprintf("%q: %d", name, t.Version))
			}
		}
		slices.Sort(names)
		return st, fmt.Errorf("%w: %d tagged version(s) have been marked for cleanup; ignore tagged old versions or delete the tag(s) {%s}",
			ErrTaggedVersions, len(names), strings.Join(names, ", "))
	}
	objs, err := store.ListAll(ctx, "")
	if err != nil {
		return st, fmt.Errorf("list the dataset's files: %w", err)
	}
	threshold := time.Now().Add(-UnverifiedFileAge)
	type victim struct {
		key  string
		size int64
		kind *uint64 // the stats counter of its kind, or nil
	}
	var victims []victim
	slices.SortFunc(in.old, func(a, b VersionInfo) int { return compareU64(a.Version, b.Version) })
	for _, v := range in.old {
		victims = append(victims, victim{v.Manifest, v.Size, &st.OldVersions})
	}
	for _, o := range objs {
		maybeInProgress := !p.deleteUnverified && !o.ModTime.Before(threshold)
		if kind, ok := in.removable(o.Key, maybeInProgress, &st); ok {
			victims = append(victims, victim{o.Key, o.Size, kind})
		}
	}
	var mu sync.Mutex
	g, gctx = errgroup.WithContext(ctx)
	g.SetLimit(16)
	for i, x := range victims {
		if i == len(in.old) { // the manifests go first
			if err := g.Wait(); err != nil {
				return st, err
			}
			g, gctx = errgroup.WithContext(ctx)
			g.SetLimit(16)
		}
		g.Go(func() error {
			err := store.Delete(gctx, x.key)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				st.BytesRemoved += uint64(x.size)
				if x.kind != nil {
					*x.kind++
				}
			case errors.Is(err, lanceio.ErrNotFound): // removed meanwhile
			case ctx.Err() != nil:
				return ctx.Err()
			default:
				st.FailedDeletes++
			}
			return nil
		})
	}
	return st, g.Wait()
}

// removable is Lance's path_if_not_referenced: whether the file key
// (relative to the root) goes, and the stats counter of its kind.
// maybeInProgress files go only when a removed version referenced them.
func (in *inspection) removable(key string, maybeInProgress bool, st *CleanupStats) (*uint64, bool) {
	if strings.HasPrefix(key, VersionsDir+"/.tmp") {
		return nil, !maybeInProgress // a temporary manifest of a failed commit
	}
	if strings.HasPrefix(key, "_indices") {
		parts := strings.Split(key, "/")
		if len(parts) < 2 {
			return nil, false
		}
		uuid := parts[1]
		if in.referenced.indices[uuid] {
			return nil, false
		}
		if !maybeInProgress || in.verified.indices[uuid] {
			return &st.IndexFilesRemoved, true
		}
	}
	var kind *uint64
	var ref, ver map[string]bool
	switch ext := path.Ext(key); {
	case ext == ".lance" && strings.HasPrefix(key, DataDir):
		kind, ref, ver = &st.DataFilesRemoved, in.referenced.data, in.verified.data
	case (ext == ".arrow" || ext == ".bin") && strings.HasPrefix(key, DeletionDir):
		kind, ref, ver = &st.DeletionFilesRemoved, in.referenced.deletions, in.verified.deletions
	case ext == ".txn" && strings.HasPrefix(key, TransactionsDir):
		kind, ref, ver = &st.TransactionFilesRemoved, in.referenced.txns, in.verified.txns
	default:
		return nil, false
	}
	if ref[key] {
		return nil, false
	}
	return kind, !maybeInProgress || ver[key]
}

// autoCleanup runs the cleanup the table config of the manifest just
// committed asks for (Lance's auto_cleanup_hook): on every interval-th
// version, as a cleanup on the version before it, never failing on tagged
// versions nor removing unverified files. Like Lance it is best effort:
// a bad setting or a failed cleanup leaves the commit as it is.
func autoCleanup(ctx context.Context, store *lanceio.Store, m *tablepb.Manifest, prev uint64) {
	cfg := m.GetConfig()
	s, ok := cfg[AutoCleanupInterval]
	if !ok {
		return
	}
	interval, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
	if err != nil || interval == 0 || m.GetVersion()%interval != 0 {
		return
	}
	var p cleanupPolicy
	if s, ok := cfg[AutoCleanupOlderThan]; ok {
		d, err := ParseHumanDuration(s)
		if err != nil {
			return
		}
		p.before = time.Now().Add(-d)
	}
	if s, ok := cfg[AutoCleanupRetainVersions]; ok {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 {
			return
		}
		if p.beforeVersion, err = retainBefore(ctx, store, n); err != nil {
			return
		}
	}
	if prev == 0 {
		prev = m.GetVersion()
	}
	_, _ = cleanupStore(context.WithoutCancel(ctx), store, store.URL(""), prev, p)
}

// humanUnits are the units of humantime durations (Lance parses the
// auto-cleanup age with humantime::parse_duration), in seconds.
var humanUnits = map[string]float64{
	"nanos": 1e-9, "nsec": 1e-9, "ns": 1e-9,
	"usec": 1e-6, "us": 1e-6, "µs": 1e-6, "micros": 1e-6,
	"millis": 1e-3, "msec": 1e-3, "ms": 1e-3,
	"seconds": 1, "second": 1, "secs": 1, "sec": 1, "s": 1,
	"minutes": 60, "minute": 60, "mins": 60, "min": 60, "m": 60,
	"hours": 3600, "hour": 3600, "hrs": 3600, "hr": 3600, "h": 3600,
	"days": 86400, "day": 86400, "d": 86400,
	"weeks": 604800, "week": 604800, "w": 604800,
	"months": 2630016, "month": 2630016, "M": 2630016,
	"years": 31557600, "year": 31557600, "y": 31557600,
}

// ParseHumanDuration parses a humantime duration as Lance reads
// lance.auto_cleanup.older_than: integers with units, optionally spaced
// ("3600s", "14days", "1h 30m", "2w"; months are 30.44 days, years 365.25).
func ParseHumanDuration(s string) (time.Duration, error) {
	rest := strings.TrimSpace(s)
	if rest == "" {
		return 0, fmt.Errorf("%w: empty duration", ErrInvalidArgument)
	}
	var total float64
	for rest != "" {
		i := 0
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i == 0 {
			return 0, fmt.Errorf("%w: duration %q: expected a number at %q", ErrInvalidArgument, s, rest)
		}
		n, err := strconv.ParseUint(rest[:i], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%w: duration %q: %v", ErrInvalidArgument, s, err)
		}
		rest = strings.TrimLeft(rest[i:], " ")
		j := strings.IndexFunc(rest, func(c rune) bool { return c == ' ' || (c >= '0' && c <= '9') })
		if j < 0 {
			j = len(rest)
		}
		unit, ok := humanUnits[rest[:j]]
		if !ok {
			return 0, fmt.Errorf("%w: duration %q: unknown unit %q", ErrInvalidArgument, s, rest[:j])
		}
		total += float64(n) * unit
		rest = strings.TrimLeft(rest[j:], " ")
	}
	if total*1e9 > float64(1<<63-1) {
		return 0, fmt.Errorf("%w: duration %q is too long", ErrInvalidArgument, s)
	}
	return time.Duration(total * 1e9), nil
}
