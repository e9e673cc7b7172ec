package lanceio

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"path"
	"path/filepath"
	"strings"
	"sync/atomic"
)

// Store is a root (local directory, bucket or bucket prefix) from which
// Objects are opened and written. Open one per bucket and share it: it is
// safe for concurrent use, and opening an S3 or GCS store loads credentials.
type Store struct {
	base   string // URL of the root without query, no trailing slash
	cfg    Config
	drv    storeDriver
	closed atomic.Bool
}

// storeDriver is what a backend implements; keys are relative to the store.
type storeDriver interface {
	open(ctx context.Context, s *Store, key string) (Object, error)
	openTail(ctx context.Context, s *Store, key string, n int64) (Object, []byte, error)
	create(ctx context.Context, s *Store, key string) (Writer, error)
	remove(ctx context.Context, s *Store, key string) error
	close() error
}

// Writer writes one object. The object becomes visible, atomically and
// complete, only when Close returns nil. Canceling the context given to
// Create, or calling Abort, discards everything written. Exactly one of
// Close or Abort must be called.
type Writer interface {
	io.Writer
	// Close commits the object.
	Close() error
	// Abort discards the object; Close after Abort returns ErrAborted.
	Abort() error
}

// OpenStore opens the store rooted at rawURL (see the package doc for the
// URL forms). A path component below the bucket becomes a key prefix.
// Opening costs no request.
func OpenStore(ctx context.Context, rawURL string, cfg Config) (*Store, error) {
	cfg = cfg.withDefaults()
	u, err := parseURL(rawURL)
	if err != nil {
		return nil, err
	}
	var drv storeDriver
	switch u.Scheme {
	case "file":
		drv = &localDriver{root: filepath.FromSlash(u.Path)}
	default:
		drv, err = openBlobDriver(ctx, u, cfg)
	}
	if err != nil {
		return nil, &OpError{Op: "open store", URL: redact(u), Class: classify(ctx, err), Err: err}
	}
	return &Store{base: redact(u), cfg: cfg, drv: drv}, nil
}

// NewMemStore returns a fresh in-memory store (memblob) for tests; objects
// written with Create are readable with Open on the same Store.
func NewMemStore(cfg Config) *Store {
	return &Store{base: "mem://", cfg: cfg.withDefaults(), drv: newMemDriver()}
}

// URL returns the URL of key in the store, without query parameters.
func (s *Store) URL(key string) string {
	if strings.HasSuffix(s.base, "/") {
		return s.base + key
	}
	return s.base + "/" + key
}

// Config returns the store's effective configuration (defaults applied).
func (s *Store) Config() Config { return s.cfg }

// Stats returns a snapshot of the store's counters (Config.Stats if set).
func (s *Store) Stats() StatsSnapshot { return s.cfg.Stats.Snapshot() }

// Open opens key. It costs at most one request (a HEAD on object stores,
// none locally).
func (s *Store) Open(ctx context.Context, key string) (Object, error) {
	if err := s.check("open", key); err != nil {
		return nil, err
	}
	return s.drv.open(ctx, s, key)
}

// OpenTail opens key and returns its last min(n, size) bytes. On S3 and
// GCS this costs exactly one request (a suffix-range GET that also reports
// the size); elsewhere it is Open followed by one ranged read.
func (s *Store) OpenTail(ctx context.Context, key string, n int64) (Object, []byte, error) {
	if err := s.check("open", key); err != nil {
		return nil, nil, err
	}
	if n <= 0 {
		n = DefaultTailSize
	}
	return s.drv.openTail(ctx, s, key, n)
}

// Create starts writing key; see Writer for the commit rules.
func (s *Store) Create(ctx context.Context, key string) (Writer, error) {
	if err := s.check("create", key); err != nil {
		return nil, err
	}
	return s.drv.create(ctx, s, key)
}

// Delete removes key. Deleting a missing key fails with ErrNotFound.
func (s *Store) Delete(ctx context.Context, key string) error {
	if err := s.check("delete", key); err != nil {
		return err
	}
	return s.drv.remove(ctx, s, key)
}

// Close releases the store; Objects opened from it must not be used after.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	return s.drv.close()
}

func (s *Store) check(op, key string) error {
	if s.closed.Load() {
		return &OpError{Op: op, URL: s.URL(key), Class: ErrClosed, Err: ErrClosed}
	}
	if key == "" || strings.HasPrefix(key, "/") || path.Clean(key) != key || strings.HasPrefix(key, "../") || key == ".." {
		return &OpError{Op: op, URL: s.URL(key), Class: ErrInvalidURL,
			Err: fmt.Errorf("%w: key %q must be a clean relative path", ErrInvalidURL, key)}
	}
	return nil
}

// parseURL parses a store or object URL; bare paths become file URLs with
// an absolute path.
func parseURL(raw string) (*url.URL, error) {
	if !strings.Contains(raw, "://") {
		abs, err := filepath.Abs(raw)
		if err != nil {
			return nil, fmt.Errorf("%w: %q: %w", ErrInvalidURL, raw, err)
		}
		return &url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}, nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidURL, err)
	}
	switch u.Scheme {
	case "file", "mem", "s3", "gs", "azblob":
		return u, nil
	}
	return nil, fmt.Errorf("%w: scheme %q", ErrUnsupported, u.Scheme)
}

// redact returns u without query parameters (which may carry endpoints or
// credentials-adjacent settings) and without a trailing slash.
func redact(u *url.URL) string {
	c := *u
	c.RawQuery, c.User, c.Fragment = "", nil, ""
	return strings.TrimSuffix(c.String(), "/")
}
