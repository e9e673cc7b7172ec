package indices

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/lancego/lancego/internal/fileread"
)

// Opener opens the files of a dataset's indices; names are relative to the
// dataset root (e.g. "_indices/<uuid>/auxiliary.idx"). internal/dataset
// implements it over the dataset's store, scheduler and cache.
type Opener interface {
	// OpenFile opens a Lance file; the caller closes it.
	OpenFile(ctx context.Context, name string) (*fileread.File, error)
	// ReadRange reads n bytes at off of the file name.
	ReadRange(ctx context.Context, name string, off, n uint64) ([]byte, error)
}

// maxVectorBuffer bounds a global buffer an index reader loads whole
// (centroids, codebooks, IVF tables).
const maxVectorBuffer = 1 << 30

// readVectorBuffer reads global buffer i of f (numbered with the schema
// buffer as 0, as Lance's index metadata numbers them).
func readVectorBuffer(ctx context.Context, op Opener, name string, f *fileread.File, i int) ([]byte, error) {
	gb := f.Metadata().GlobalBuffers
	if i < 0 || i >= len(gb) {
		return nil, fmt.Errorf("%w: %s: global buffer %d of %d", ErrCorrupt, name, i, len(gb))
	}
	r := gb[i]
	if r.Length > maxVectorBuffer {
		return nil, fmt.Errorf("%w: %s: global buffer %d of %d bytes", ErrCorrupt, name, i, r.Length)
	}
	return op.ReadRange(ctx, name, r.Offset, r.Length)
}

// metaInt parses the schema metadata value key of f as a decimal integer.
func metaInt(f *fileread.File, name, key string) (int, error) {
	s, ok := f.Metadata().SchemaMetadata[key]
	if !ok {
		return 0, fmt.Errorf("%w: %s: no %q metadata", ErrCorrupt, name, key)
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("%w: %s: %q = %q", ErrCorrupt, name, key, s)
	}
	return n, nil
}

// metaJSON decodes the JSON schema metadata value key of f into v.
func metaJSON(f *fileread.File, name, key string, v any) error {
	s, ok := f.Metadata().SchemaMetadata[key]
	if !ok {
		return fmt.Errorf("%w: %s: no %q metadata", ErrCorrupt, name, key)
	}
	if err := json.Unmarshal([]byte(s), v); err != nil {
		return fmt.Errorf("%w: %s: %q: %v", ErrCorrupt, name, key, err)
	}
	return nil
}

// jsonString decodes the JSON text s into v.
func jsonString(s string, v any) error { return json.Unmarshal([]byte(s), v) }
