package lanceio

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

func (d *localDriver) create(ctx context.Context, s *Store, key string) (Writer, error) {
	dst := d.path(key)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return nil, localError("create", s.URL(key), err)
	}
	return createTemp(ctx, dst, s.URL(key), false)
}

// CreateLocalFile starts writing the local file path the way Create does
// (a temporary file in the same folder, fsynced and renamed into place by
// Close, removed by Abort), with two differences for lance.Create: it makes
// no folders, and Close also fsyncs the folder after the rename. It takes
// no context: the caller checks its own between writes.
func CreateLocalFile(path string) (Writer, error) {
	return createTemp(context.Background(), path, path, true)
}

// createTemp creates the temporary file of a localWriter next to dst.
func createTemp(ctx context.Context, dst, url string, syncDir bool) (*localWriter, error) {
	f, err := tempFileFor(dst)
	if err != nil {
		return nil, localError("create", url, err)
	}
	return &localWriter{ctx: ctx, f: f, dst: dst, url: url, syncDir: syncDir}, nil
}

// tempFileFor creates a new file ".<base of dst>.tmp-<random>" next to
// dst, to be renamed or linked into place. Unlike os.CreateTemp (0600) it
// is created 0666 less the umask, the mode any other tool gives a new file,
// so a file we write is readable by whoever the umask lets read it.
func tempFileFor(dst string) (*os.File, error) {
	prefix := filepath.Join(filepath.Dir(dst), "."+filepath.Base(dst)+".tmp-")
	for try := 0; ; try++ {
		name := prefix + strconv.FormatUint(rand.Uint64(), 36)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if err == nil || !errors.Is(err, os.ErrExist) || try == 100 {
			return f, err
		}
	}
}

// localWriter writes to a temporary file in the destination directory and
// renames it into place on Close. It keeps the Create context, like
// gocloud's blob.Writer, because cancellation must abort the whole write.
type localWriter struct {
	ctx  context.Context
	f    *os.File
	dst  string
	url  string
	done bool
	err  error
	// syncDir: Close fsyncs the folder after the rename (CreateLocalFile).
	syncDir bool
}

// Write implements io.Writer.
func (w *localWriter) Write(p []byte) (int, error) {
	if err := w.usable(); err != nil {
		return 0, err
	}
	n, err := w.f.Write(p)
	if err != nil {
		return n, localError("write", w.url, err)
	}
	return n, nil
}

// Close syncs, closes and renames the temporary file into place.
func (w *localWriter) Close() error {
	if err := w.usable(); err != nil {
		_ = w.Abort()
		return err
	}
	w.done = true
	err := w.f.Sync()
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(w.f.Name(), w.dst)
	}
	if err != nil {
		_ = os.Remove(w.f.Name())
		return localError("commit", w.url, err)
	}
	if w.syncDir {
		if d, derr := os.Open(filepath.Dir(w.dst)); derr == nil {
			_ = d.Sync()
			_ = d.Close()
		}
	}
	return nil
}

// Abort removes the temporary file.
func (w *localWriter) Abort() error {
	if w.done {
		return nil
	}
	w.done, w.err = true, &OpError{Op: "write", URL: w.url, Class: ErrAborted, Err: ErrAborted}
	_ = w.f.Close()
	return os.Remove(w.f.Name())
}

func (w *localWriter) usable() error {
	if w.err != nil {
		return w.err
	}
	if w.done {
		return &OpError{Op: "write", URL: w.url, Class: ErrClosed, Err: ErrClosed}
	}
	if w.ctx.Err() != nil {
		return &OpError{Op: "write", URL: w.url, Class: ErrAborted, Err: fmt.Errorf("%w: %w", ErrAborted, canceledError(w.ctx))}
	}
	return nil
}
