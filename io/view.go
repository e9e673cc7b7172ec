package lanceio

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"
)

// fileMap is the read-only memory map of a local file, made on the first
// View and shared by all views. It is removed when the object is closed
// and no view is left.
type fileMap struct {
	mu     sync.Mutex
	data   []byte
	failed error // the map could not be made: views are unsupported
	views  int
	closed bool
}

// acquire maps f (size bytes) if not yet mapped and counts one view.
func (m *fileMap) acquire(f *os.File, size int64) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	if m.data == nil && m.failed == nil {
		if strconv.IntSize < 64 || size > int64(^uint(0)>>1) {
			m.failed = fmt.Errorf("%w: no memory map on a %d-bit platform", ErrUnsupported, strconv.IntSize)
		} else if m.data, m.failed = mapFile(f, int(size)); m.failed != nil {
			m.failed = fmt.Errorf("%w: memory map: %w", ErrUnsupported, m.failed)
		}
	}
	if m.failed != nil {
		return nil, m.failed
	}
	m.views++
	return m.data, nil
}

// release ends one view; the last one after close removes the map.
func (m *fileMap) release() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.views--; m.views == 0 && m.closed {
		m.unmap()
	}
}

// close marks the object closed and removes the map if no view is left.
func (m *fileMap) close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	if m.views == 0 {
		m.unmap()
	}
}

func (m *fileMap) unmap() {
	if m.data != nil {
		_ = unmapFile(m.data) // nothing to do about a failure but leak the range
		m.data = nil
	}
}

// View implements Viewer: bytes [off, off+n) of the file's memory map,
// counted in the store's statistics as one read.
func (o *localObject) View(ctx context.Context, off int64, n int) ([]byte, func(), error) {
	if o.noMmap {
		return nil, nil, &OpError{Op: "view", URL: o.id.URL, Off: off, Len: int64(n), Class: ErrUnsupported, Err: ErrUnsupported}
	}
	if err := o.checkRead(ctx, off, n); err != nil {
		return nil, nil, err
	}
	if n == 0 {
		return []byte{}, func() {}, nil
	}
	t0 := time.Now()
	data, err := o.m.acquire(o.f, o.id.Size)
	if err != nil {
		class := ErrUnsupported
		if errors.Is(err, ErrClosed) {
			class = ErrClosed
		}
		return nil, nil, &OpError{Op: "view", URL: o.id.URL, Off: off, Len: int64(n), Class: class, Err: err}
	}
	o.stats.observe(time.Since(t0), n)
	end := off + int64(n)
	return data[off:end:end], o.m.release, nil
}

// FaultError returns the error for a value recovered from a panic if it
// is a memory fault (raised under debug.SetPanicOnFault(true), as touching
// a view of a file that shrank does): an ErrShortRead. For any other value
// it returns nil, and the caller should panic again.
func FaultError(recovered any) error {
	f, ok := recovered.(interface{ Addr() uintptr })
	if !ok {
		return nil
	}
	return fmt.Errorf("%w: memory fault at %#x in a mapped file (did it shrink while open?)", ErrShortRead, f.Addr())
}
