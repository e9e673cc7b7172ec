package lance

import (
	"context"
	"time"

	"github.com/lancego/lancego/internal/dataset"
)

// Tag is a named reference to a version of a dataset, as pylance's
// tags.list() describes it. Tags live in _refs/tags/{name}.json, written
// as pylance 14.0.2 writes them.
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

// CleanupOptions selects what Dataset.Cleanup removes (pylance's
// cleanup_old_versions arguments).
type CleanupOptions struct {
	// OlderThan: versions whose manifest timestamp is more than this
	// before now are removed. Zero, with RetainVersions zero, is
	// DefaultCleanupOlderThan (pylance's default, two weeks).
	OlderThan time.Duration
	// RetainVersions > 0 keeps the newest RetainVersions versions (with
	// OlderThan, a version must satisfy both to be removed).
	RetainVersions int
	// DeleteUnverified removes files no manifest references even when
	// they are less than UnverifiedFileAge old. Safe only when no other
	// process is writing to the dataset.
	DeleteUnverified bool
	// IgnoreTaggedOldVersions keeps tagged versions the policy selects
	// without failing (pylance's error_if_tagged_old_versions=False); by
	// default such a cleanup fails with ErrTaggedVersions and removes
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

// Cleanup defaults: versions older than DefaultCleanupOlderThan (14 days)
// go when no age is given; a file no manifest references is taken for part
// of a write in progress, and kept, until it is UnverifiedFileAge (7 days)
// old.
const (
	DefaultCleanupOlderThan time.Duration = dataset.DefaultCleanupOlderThan
	UnverifiedFileAge       time.Duration = dataset.UnverifiedFileAge
)

// Table config keys (a manifest's config, as pylance's
// auto_cleanup_options sets them) that make every commit, ours included,
// clean up old versions: every AutoCleanupInterval-th version, removing
// versions older than AutoCleanupOlderThan (a humantime duration such as
// "3600s" or "14days") and/or all but the newest AutoCleanupRetainVersions.
const (
	AutoCleanupInterval       = dataset.AutoCleanupInterval
	AutoCleanupOlderThan      = dataset.AutoCleanupOlderThan
	AutoCleanupRetainVersions = dataset.AutoCleanupRetainVersions
)

// Errors of tags and cleanup.
var (
	// ErrTagExists: CreateTag of a tag the dataset has.
	ErrTagExists = dataset.ErrTagExists
	// ErrTagNotFound: a tag the dataset does not have (DeleteTag,
	// UpdateTag, Tag, WithTag).
	ErrTagNotFound = dataset.ErrTagNotFound
	// ErrTaggedVersions: a cleanup would remove tagged versions and
	// CleanupOptions.IgnoreTaggedOldVersions is not set.
	ErrTaggedVersions = dataset.ErrTaggedVersions
)

// ValidateTagName checks a tag name as Lance does: not empty; letters,
// digits, '.', '-' and '_' only; not beginning or ending with '.', no "..",
// not ending with ".lock". It wraps ErrInvalidArgument.
func ValidateTagName(name string) error { return dataset.ValidateTagName(name) }

// Tags returns the dataset's tags by name (one listing of _refs/tags/ and
// one read per tag), as pylance's tags.list().
func (ds *Dataset) Tags(ctx context.Context) (map[string]Tag, error) {
	tags, err := ds.d.Tags(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]Tag, len(tags))
	for k, t := range tags {
		out[k] = Tag(t)
	}
	return out, nil
}

// Tag returns the tag name, or an error wrapping ErrTagNotFound.
func (ds *Dataset) Tag(ctx context.Context, name string) (Tag, error) {
	t, err := ds.d.Tag(ctx, name)
	return Tag(t), err
}

// CreateTag makes name refer to version (0: the latest version of the
// dataset). The name must pass ValidateTagName; an existing tag fails with
// ErrTagExists, a missing version with ErrVersionNotFound. Open the
// tagged version with WithTag; pylance sees the tag too.
func (ds *Dataset) CreateTag(ctx context.Context, name string, version uint64) error {
	return ds.d.CreateTag(ctx, name, version)
}

// UpdateTag makes the existing tag name refer to version (0: the latest),
// keeping its creation time and metadata. A missing tag fails with
// ErrTagNotFound, a missing version with ErrVersionNotFound.
func (ds *Dataset) UpdateTag(ctx context.Context, name string, version uint64) error {
	return ds.d.UpdateTag(ctx, name, version)
}

// DeleteTag removes the tag name (the version it refers to stays, and
// becomes removable by Cleanup). A missing tag fails with ErrTagNotFound.
func (ds *Dataset) DeleteTag(ctx context.Context, name string) error {
	return ds.d.DeleteTag(ctx, name)
}

// Restore commits a new version whose content is the version ds opened
// (open an old version with WithVersion or WithTag): its fragments,
// schema, indices and configuration, with a Restore transaction, as
// pylance's restore() does; fragment and row id counters never go
// backwards. It never conflicts with concurrent commits (it retries on
// the new latest version). The returned Dataset is the new latest
// version; ds is unchanged.
func (ds *Dataset) Restore(ctx context.Context, opts ...DatasetWriteOption) (*Dataset, error) {
	return ds.next(ds.d.Restore(ctx, dsWriteOpts(opts)...))
}

// Cleanup removes old versions and the files only they reference, as
// pylance's cleanup_old_versions does. Versions from ds's version on (so
// always the latest) and tagged versions are never removed; the others go
// when o selects them (manifest timestamps judge their age). Data,
// deletion and transaction files and index directories that no kept
// version references go when a removed version referenced them, or when
// their modification time is UnverifiedFileAge old, or with
// o.DeleteUnverified. Old manifests are removed first, so an interrupted
// cleanup leaves every remaining version readable. A dataset with branches
// is refused with ErrUnsupported.
func (ds *Dataset) Cleanup(ctx context.Context, o CleanupOptions) (CleanupStats, error) {
	st, err := ds.d.Cleanup(ctx, dataset.CleanupOptions(o))
	return CleanupStats(st), err
}
