package lanceio

import (
	"context"
	"errors"
	"fmt"

	"gocloud.dev/blob"
)

func (d *blobDriver) create(ctx context.Context, s *Store, key string) (Writer, error) {
	wctx, cancel := context.WithCancel(ctx)
	w, err := d.wb.NewWriter(wctx, d.key(key), &blob.WriterOptions{ContentType: "application/octet-stream"})
	if err != nil {
		cancel()
		return nil, &OpError{Op: "create", URL: s.URL(key), Class: classify(ctx, err), Err: err}
	}
	return &blobWriter{w: w, ctx: ctx, cancel: cancel, url: s.URL(key)}, nil
}

// blobWriter wraps a gocloud writer, which uploads in the background and
// makes the object visible only on a successful Close; canceling its
// context aborts the upload.
type blobWriter struct {
	w      *blob.Writer
	ctx    context.Context
	cancel context.CancelFunc
	url    string
	done   bool
}

// Write implements io.Writer.
func (w *blobWriter) Write(p []byte) (int, error) {
	if w.done {
		return 0, &OpError{Op: "write", URL: w.url, Class: ErrClosed, Err: ErrClosed}
	}
	n, err := w.w.Write(p)
	if err != nil {
		return n, w.wrap("write", err)
	}
	return n, nil
}

// Close commits the object.
func (w *blobWriter) Close() error {
	if w.done {
		return &OpError{Op: "commit", URL: w.url, Class: ErrClosed, Err: ErrClosed}
	}
	w.done = true
	if w.ctx.Err() != nil {
		w.cancel()
		_ = w.w.Close()
		return w.wrap("commit", canceledError(w.ctx))
	}
	err := w.w.Close()
	w.cancel()
	if err != nil {
		return w.wrap("commit", err)
	}
	return nil
}

// Abort discards the upload.
func (w *blobWriter) Abort() error {
	if w.done {
		return nil
	}
	w.done = true
	w.cancel()
	_ = w.w.Close()
	return nil
}

func (w *blobWriter) wrap(op string, err error) error {
	class := classify(w.ctx, err)
	if class == ErrCanceled || errors.Is(err, context.Canceled) {
		class, err = ErrAborted, fmt.Errorf("%w: %w", ErrAborted, err)
	}
	return &OpError{Op: op, URL: w.url, Class: class, Err: err}
}
