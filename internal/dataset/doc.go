// Package dataset reads and writes Lance datasets (tables): lance.Dataset.
//
// The metadata half parses without doing any I/O: manifest files and their
// names, reader feature flags, fragment summaries, deletion files and
// stable row id sequences (manifest*.go, names.go, flags.go, fragment.go,
// deletion.go, rowids*.go, transaction_write.go). Every such function
// takes bytes already read and treats them as hostile: lengths, counts and
// offsets are checked before use, errors wrap format.ErrCorrupt (or
// ErrUnsupportedFeature), and nothing panics.
//
// The engine half (dataset.go, datafile.go, scan.go, take.go, filter.go,
// write.go, fragwriter.go, storage.go, store.go, commit.go) opens a version (one
// listing, one manifest read), opens data files lazily through
// internal/fileread with one shared scheduler and search cache, scans,
// takes and filters across fragments, and writes data files with
// internal/filewriter and commits new versions (put-if-absent or a
// CommitLock).
//
// The facts come from Lance's protos/table.proto, protos/rowids.proto and
// rust/lance-table/src/{io/manifest.rs,io/deletion.rs,feature_flags.rs,
// rowids/*.rs}; see /work/shared/spec/dataset.md.
package dataset

import (
	"fmt"

	"github.com/lancego/lancego/format"
)

func corruptf(msg string, args ...any) error {
	return fmt.Errorf("%w: "+msg, append([]any{format.ErrCorrupt}, args...)...)
}
