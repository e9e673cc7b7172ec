package dataset

import (
	"fmt"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/format/pb/tablepb"
	"github.com/lancego/lancego/internal/filewriter"
)

// A dataset's data storage version is the file version Lance writes its
// data files in unless told otherwise. pylance 14.0.2, asked to append to
// or overwrite a dataset without a data_storage_version, writes files of
// that version (a 2.0 dataset gets 2.0 files, a legacy one 0.1 files, a
// 2.1 one 2.1 files); given one, it appends files of that version to any
// v2 dataset (the dataset's version stays), refuses to mix v1 and v2
// files, and overwrites with a dataset of the new version. Datasets keep
// their version in the manifest; Lance infers it for manifests without
// one (before 0.16) from their data files, else from a deprecated writer
// flag (2.2, Lance's stable version), else legacy. Dataset.write follows
// all of this, except that it writes no 2.0 or legacy file: where pylance
// would, it refuses.

// storageVersion is a dataset's data storage version.
type storageVersion struct {
	legacy bool           // 0.1: v1 (legacy) files
	v      format.Version // otherwise the v2 file version
}

// String is the version as Lance writes it in manifests.
func (s storageVersion) String() string {
	if s.legacy {
		return "0.1"
	}
	return s.v.String()
}

// writable reports whether lancego writes files of this version.
func (s storageVersion) writable() bool { return !s.legacy && s.v >= format.V2_1 }

// parseStorageVersion parses a manifest's data storage version.
func parseStorageVersion(v string) (storageVersion, error) {
	switch v {
	case "0.1", "0.2", "legacy":
		return storageVersion{legacy: true}, nil
	case "2.0", "0.3":
		return storageVersion{v: format.V2_0}, nil
	case "2.1":
		return storageVersion{v: format.V2_1}, nil
	case "2.2", "stable":
		return storageVersion{v: format.V2_2}, nil
	case "2.3":
		return storageVersion{v: format.V2_3}, nil
	}
	return storageVersion{}, fmt.Errorf("%w: data storage version %q", ErrUnsupported, v)
}

// fileStorageVersion is the storage version of a data file's recorded
// version: (0,0) to (0,2) legacy, (0,3) and (2,0) 2.0, (2,n) 2.n.
func fileStorageVersion(d *DataFile) (storageVersion, error) {
	switch {
	case d.Major == 0 && d.Minor <= 2:
		return storageVersion{legacy: true}, nil
	case d.Major == 0 && d.Minor == 3:
		return storageVersion{v: format.V2_0}, nil
	case d.Major == 2 && d.Minor <= 3:
		return storageVersion{v: format.V2_0 + format.Version(d.Minor)}, nil
	}
	return storageVersion{}, fmt.Errorf("%w: data file %s of version %d.%d", ErrUnsupported, d.Path, d.Major, d.Minor)
}

// storageVersion returns the dataset's data storage version, as Lance
// reads it (see above).
func (ds *Dataset) storageVersion() (storageVersion, error) {
	if ds.man.DataVersion != "" {
		return parseStorageVersion(ds.man.DataVersion)
	}
	for i := range ds.frags {
		m, err := ds.fragment(i)
		if err != nil {
			return storageVersion{}, err
		}
		if len(m.Files) > 0 {
			return fileStorageVersion(&m.Files[0])
		}
	}
	if ds.man.WriterFlags&FlagUseV2Format != 0 {
		return storageVersion{v: format.V2_2}, nil
	}
	return storageVersion{legacy: true}, nil
}

// explicitFileVersion returns the file version the options ask for, or 0.
func (c *dsWriteConfig) explicitFileVersion() (format.Version, error) {
	return filewriter.ExplicitVersion(c.file...)
}

// resolveFileVersion decides the version of the data files an append or
// overwrite (op) of ds writes, as pylance 14.0.2 does (see above): the
// options' version when given (refused for an append to a legacy dataset:
// v1 and v2 files do not mix), else the dataset's own, refused when that
// is 2.0 or legacy, which lancego does not write. Nothing is written when
// it fails.
func (ds *Dataset) resolveFileVersion(c *dsWriteConfig, op *writeOp) error {
	explicit, err := c.explicitFileVersion()
	if err != nil {
		return err
	}
	sv, err := ds.storageVersion()
	if err != nil {
		return err
	}
	op.storage = sv.String()
	what := "append to"
	if op.kind == opOverwrite {
		what = "overwrite"
	}
	switch {
	case explicit != 0 && (op.kind == opOverwrite || !sv.legacy):
		return nil
	case explicit != 0:
		return fmt.Errorf("%w: cannot append %s files to %s, whose data storage version is 0.1 (legacy): v1 and v2 files cannot be mixed (pylance refuses too)",
			ErrInvalidArgument, explicit, ds.url)
	case !sv.writable():
		hint := "overwrite it with WithFileOptions(WithFileVersion(...)) to write a dataset of a newer version"
		if !sv.legacy && op.kind == opAppend {
			hint = "pass WithFileOptions(WithFileVersion(\"2.1\")) (or 2.2) to append files of that version, as pylance allows"
		}
		return fmt.Errorf("%w: cannot %s %s without a file version: its data storage version is %s, whose files lancego reads but does not write; %s",
			ErrUnsupported, what, ds.url, sv, hint)
	}
	c.file = append(c.file, filewriter.WithFormatVersion(sv.v))
	return nil
}

// markMixedVersions sets the mixed data-file-version capability (reader
// and writer flags) of a manifest whose v2 data files are not all of its
// data storage version, as Lance's commits do: pylance 14.0.2 refuses to
// open such a dataset without it. Once set, it stays (manifests are
// cloned with their flags).
func markMixedVersions(m *tablepb.Manifest) {
	if m.ReaderFeatureFlags&FlagMixedDataFileVersions != 0 {
		return
	}
	fallback, err := parseStorageVersion(m.GetDataFormat().GetVersion())
	if err != nil || fallback.legacy {
		return // v1 and v2 files never mix (resolveFileVersion)
	}
	for _, f := range m.GetFragments() {
		for _, df := range f.GetFiles() {
			d := DataFile{Path: df.GetPath(), Major: df.GetFileMajorVersion(), Minor: df.GetFileMinorVersion()}
			if v, err := fileStorageVersion(&d); err == nil && v != fallback {
				m.ReaderFeatureFlags |= FlagMixedDataFileVersions
				m.WriterFeatureFlags |= FlagMixedDataFileVersions
				return
			}
		}
	}
}
