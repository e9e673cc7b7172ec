package lanceio

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path"
	"strings"
)

// Open opens the object at rawURL with a private Store that is closed when
// the Object is closed. Prefer Store.Open when opening many objects of one
// bucket. Note that each mem:// URL opens a fresh empty bucket; use
// NewMemStore to share one.
func Open(ctx context.Context, rawURL string, cfg Config) (Object, error) {
	s, key, err := openOwned(ctx, rawURL, cfg)
	if err != nil {
		return nil, err
	}
	o, err := s.Open(ctx, key)
	if err != nil {
		_ = s.Close()
		return nil, err
	}
	return owned(o, s), nil
}

// OpenTail is Open plus the last min(n, size) bytes, in one request on S3
// and GCS (see Store.OpenTail). n <= 0 means DefaultTailSize.
func OpenTail(ctx context.Context, rawURL string, n int64, cfg Config) (Object, []byte, error) {
	s, key, err := openOwned(ctx, rawURL, cfg)
	if err != nil {
		return nil, nil, err
	}
	o, tail, err := s.OpenTail(ctx, key, n)
	if err != nil {
		_ = s.Close()
		return nil, nil, err
	}
	return owned(o, s), tail, nil
}

// Create writes the object at rawURL with a private Store closed with the
// Writer; see Writer for the commit rules.
func Create(ctx context.Context, rawURL string, cfg Config) (Writer, error) {
	s, key, err := openOwned(ctx, rawURL, cfg)
	if err != nil {
		return nil, err
	}
	w, err := s.Create(ctx, key)
	if err != nil {
		_ = s.Close()
		return nil, err
	}
	return &ownedWriter{Writer: w, store: s}, nil
}

// SplitURL splits an object URL into its store URL (query kept) and key.
func SplitURL(rawURL string) (storeURL, key string, err error) {
	u, err := parseURL(rawURL)
	if err != nil {
		return "", "", err
	}
	p := strings.TrimPrefix(u.Path, "/")
	if u.Scheme == "file" {
		p = u.Path
	}
	dir, key := path.Split(p)
	if key == "" {
		return "", "", fmt.Errorf("%w: %q names no object", ErrInvalidURL, rawURL)
	}
	s := *u
	s.Path = strings.TrimSuffix(dir, "/")
	if u.Scheme == "file" && s.Path == "" {
		s.Path = "/"
	} else if u.Scheme != "file" && s.Path != "" {
		s.Path = "/" + s.Path
	}
	return (&url.URL{Scheme: s.Scheme, Host: s.Host, Path: s.Path, RawQuery: s.RawQuery}).String(), key, nil
}

func openOwned(ctx context.Context, rawURL string, cfg Config) (*Store, string, error) {
	storeURL, key, err := SplitURL(rawURL)
	if err != nil {
		return nil, "", &OpError{Op: "open", URL: rawURL, Class: classOf(err), Err: err}
	}
	s, err := OpenStore(ctx, storeURL, cfg)
	if err != nil {
		return nil, "", err
	}
	return s, key, nil
}

func classOf(err error) error {
	for _, c := range []error{ErrInvalidURL, ErrUnsupported} {
		if errors.Is(err, c) {
			return c
		}
	}
	return nil
}

// ownedObject closes its private store with the object.
type ownedObject struct {
	Object
	store *Store
}

// Close closes the object and its store.
func (o *ownedObject) Close() error {
	err := o.Object.Close()
	if cerr := o.store.Close(); err == nil {
		err = cerr
	}
	return err
}

// owned wraps o to close s with it, as a Viewer only when o is one: an
// object store's object must not look like a file that lends views (a
// scan reads those page by page, and object stores in waves).
func owned(o Object, s *Store) Object {
	if v, ok := o.(Viewer); ok {
		return &ownedViewer{ownedObject: ownedObject{Object: o, store: s}, v: v}
	}
	return &ownedObject{Object: o, store: s}
}

// ownedViewer is an ownedObject whose object lends views.
type ownedViewer struct {
	ownedObject
	v Viewer
}

// View implements Viewer.
func (o *ownedViewer) View(ctx context.Context, off int64, n int) ([]byte, func(), error) {
	return o.v.View(ctx, off, n)
}

// ViewFault implements Viewer.
func (o *ownedViewer) ViewFault(recovered any) error { return o.v.ViewFault(recovered) }

// ownedWriter closes its private store after commit or abort.
type ownedWriter struct {
	Writer
	store *Store
}

// Close commits the object and closes the store.
func (w *ownedWriter) Close() error {
	err := w.Writer.Close()
	if cerr := w.store.Close(); err == nil {
		err = cerr
	}
	return err
}

// Abort discards the object and closes the store.
func (w *ownedWriter) Abort() error {
	err := w.Writer.Abort()
	if cerr := w.store.Close(); err == nil {
		err = cerr
	}
	return err
}
