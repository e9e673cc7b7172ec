package lanceio

import (
	"context"
	"fmt"
	"time"
)

// Object is an immutable byte sequence opened for random reads. All
// methods are safe for concurrent use.
type Object interface {
	// ReadAt fills p with the bytes at [off, off+len(p)). It returns nil
	// only when all len(p) bytes were read; there are no partial reads.
	// A range outside [0, Size()) fails with ErrOutOfRange without I/O.
	ReadAt(ctx context.Context, p []byte, off int64) error
	// Size returns the object size in bytes, fixed at open.
	Size() int64
	// Identity returns the stable cache key of the opened version.
	Identity() Identity
	// Close releases the object. Reads after Close fail with ErrClosed.
	Close() error
}

// Viewer is implemented by objects that can lend their bytes without
// copying them: local files, through a read-only memory map. A view is
// valid until its release function is called, even after the object's
// Close (the map is removed once the object is closed and every view is
// released). Views are for bytes that are decoded and dropped: nothing
// built from a view may refer to it after release.
//
// A view of a file that is truncated while mapped faults when the lost
// bytes are touched (SIGBUS). Touch views only in goroutines that called
// debug.SetPanicOnFault(true), and recover: ViewFault turns such a fault
// into an ErrShortRead error.
type Viewer interface {
	// View returns bytes [off, off+n). It fails with ErrUnsupported when
	// the object cannot be mapped (the caller then uses ReadAt), and like
	// ReadAt with ErrOutOfRange, ErrCanceled or ErrClosed.
	View(ctx context.Context, off int64, n int) (b []byte, release func(), err error)
	// ViewFault returns the error for a value recovered from a panic
	// while touching this object's views: an ErrShortRead when it is a
	// memory fault in the object's map and the object has shrunk since it
	// was mapped. For anything else (another panic, a fault elsewhere, a
	// fault while the file is whole, which is a bug) it returns nil and
	// the caller should panic again.
	ViewFault(recovered any) error
}

// Identity names one version of an object: two Objects with equal
// Identity hold the same bytes, so it is a safe cache key. It is
// comparable.
type Identity struct {
	URL     string    // object URL without query parameters
	Size    int64     // size in bytes
	ETag    string    // entity tag if the store reports one, else ""
	ModTime time.Time // last modification as reported by the store (UTC)
}

// String returns a compact form usable as a string cache key.
func (id Identity) String() string {
	return fmt.Sprintf("%s#%d#%s#%d", id.URL, id.Size, id.ETag, id.ModTime.UnixNano())
}

// ReadTail reads the last min(n, o.Size()) bytes of o.
func ReadTail(ctx context.Context, o Object, n int64) ([]byte, error) {
	n = min(n, o.Size())
	if n < 0 {
		n = 0
	}
	buf := make([]byte, n)
	if err := o.ReadAt(ctx, buf, o.Size()-n); err != nil {
		return nil, err
	}
	return buf, nil
}

// checkRange validates a read of n bytes at off in an object of size size.
func checkRange(id Identity, off int64, n int) error {
	if off < 0 || int64(n) > id.Size || off > id.Size-int64(n) {
		return &OpError{Op: "read", URL: id.URL, Off: off, Len: int64(n), Class: ErrOutOfRange,
			Err: fmt.Errorf("range [%d,+%d) outside object of %d bytes: %w", off, n, id.Size, ErrOutOfRange)}
	}
	return nil
}
