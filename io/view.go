package lanceio

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"
	"unsafe"
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

// offsetOf returns the file offset of addr if addr lies inside the map.
func (m *fileMap) offsetOf(addr uintptr) (int64, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.data) == 0 {
		return 0, false
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(m.data)))
	if addr < base || addr-base >= uintptr(len(m.data)) {
		return 0, false
	}
	return int64(addr - base), true
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

// ViewFault implements Viewer: a fault inside this file's map while the
// file is shorter than when it was mapped (or its size can no longer be
// checked) is an ErrShortRead; any other value is not the file's doing.
func (o *localObject) ViewFault(recovered any) error {
	f, ok := recovered.(interface{ Addr() uintptr })
	if !ok {
		return nil
	}
	off, mapped := o.m.offsetOf(f.Addr())
	if !mapped {
		return nil
	}
	st, err := o.f.Stat()
	if err == nil && st.Size() >= o.id.Size {
		return nil // the file is whole: the fault is a bug, not lost bytes
	}
	cause := fmt.Errorf("memory fault at offset %d of the mapped file", off)
	if err == nil {
		cause = fmt.Errorf("%w: the file shrank from %d to %d bytes while mapped", cause, o.id.Size, st.Size())
	}
	return &OpError{Op: "view", URL: o.id.URL, Off: off, Class: ErrShortRead, Err: cause}
}
