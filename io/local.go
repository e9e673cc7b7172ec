package lanceio

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"
)

// localDriver serves a directory with positional reads (pread).
type localDriver struct {
	root string
}

func (d *localDriver) path(key string) string {
	return filepath.Join(d.root, filepath.FromSlash(key))
}

func (d *localDriver) open(ctx context.Context, s *Store, key string) (Object, error) {
	if err := ctx.Err(); err != nil {
		return nil, &OpError{Op: "open", URL: s.URL(key), Class: ErrCanceled, Err: canceledError(ctx)}
	}
	f, err := os.Open(d.path(key))
	if err != nil {
		return nil, localError("open", s.URL(key), err)
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%w: not a regular file", fs.ErrNotExist)
	}
	if err != nil {
		_ = f.Close()
		return nil, localError("open", s.URL(key), err)
	}
	id := Identity{URL: s.URL(key), Size: st.Size(), ModTime: st.ModTime().UTC()}
	return &localObject{f: f, id: id, stats: s.cfg.Stats, noMmap: s.cfg.NoMmap}, nil
}

func (d *localDriver) openTail(ctx context.Context, s *Store, key string, n int64) (Object, []byte, error) {
	return openThenTail(ctx, d, s, key, n)
}

// openThenTail is the two-step open used where a suffix range is not
// available.
func openThenTail(ctx context.Context, d storeDriver, s *Store, key string, n int64) (Object, []byte, error) {
	o, err := d.open(ctx, s, key)
	if err != nil {
		return nil, nil, err
	}
	tail, err := ReadTail(ctx, o, n)
	if err != nil {
		_ = o.Close()
		return nil, nil, err
	}
	return o, tail, nil
}

func (d *localDriver) remove(ctx context.Context, s *Store, key string) error {
	if err := os.Remove(d.path(key)); err != nil {
		return localError("delete", s.URL(key), err)
	}
	return nil
}

func (d *localDriver) close() error { return nil }

func localError(op, u string, err error) error {
	var class error
	switch {
	case errors.Is(err, fs.ErrNotExist):
		class = ErrNotFound
	case errors.Is(err, fs.ErrPermission):
		class = ErrPermission
	case errors.Is(err, fs.ErrClosed):
		class = ErrClosed
	}
	return &OpError{Op: op, URL: u, Attempts: 1, Class: class, Err: err}
}

// localObject reads an open file with pread (*os.File.ReadAt is safe for
// concurrent use), and lends views of its memory map (View).
type localObject struct {
	f      *os.File
	id     Identity
	stats  *Stats
	closed atomic.Bool
	noMmap bool
	m      fileMap
}

// checkRead validates a read of n bytes at off before any I/O.
func (o *localObject) checkRead(ctx context.Context, off int64, n int) error {
	if o.closed.Load() {
		return &OpError{Op: "read", URL: o.id.URL, Off: off, Len: int64(n), Class: ErrClosed, Err: ErrClosed}
	}
	if err := checkRange(o.id, off, n); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return &OpError{Op: "read", URL: o.id.URL, Off: off, Len: int64(n), Class: ErrCanceled, Err: canceledError(ctx)}
	}
	return nil
}

// ReadAt implements Object.
func (o *localObject) ReadAt(ctx context.Context, p []byte, off int64) error {
	if err := o.checkRead(ctx, off, len(p)); err != nil {
		return err
	}
	if len(p) == 0 {
		return nil
	}
	t0 := time.Now()
	n, err := o.f.ReadAt(p, off)
	o.stats.observe(time.Since(t0), n)
	if n == len(p) {
		return nil
	}
	o.stats.failures.Add(1)
	e := localError("read", o.id.URL, err).(*OpError)
	e.Off, e.Len = off, int64(len(p))
	if e.Class == nil {
		e.Class = ErrShortRead
		e.Err = fmt.Errorf("%w: got %d of %d bytes (file shrank?): %w", ErrShortRead, n, len(p), err)
	}
	return e
}

// Size implements Object.
func (o *localObject) Size() int64 { return o.id.Size }

// Identity implements Object.
func (o *localObject) Identity() Identity { return o.id }

// Close implements Object.
func (o *localObject) Close() error {
	if o.closed.Swap(true) {
		return nil
	}
	o.m.close()
	return o.f.Close()
}
