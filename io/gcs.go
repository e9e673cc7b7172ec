package lanceio

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"time"

	"cloud.google.com/go/storage"
	"gocloud.dev/blob"
	"gocloud.dev/blob/gcsblob"
	"gocloud.dev/gcp"
	"google.golang.org/api/option"
)

// openGCS opens a GCS bucket with a storage client on an HTTP client that
// keeps its connections (gcsHTTPClient), or on Config.HTTPClient when set;
// URLs with query options, and machines without default credentials, go
// through gocloud's URL opener (gcsblob ignores injected clients under
// STORAGE_EMULATOR_HOST, hence the explicit client). An injected client
// must add authentication itself unless an emulator is used.
func openGCS(ctx context.Context, u *url.URL, prefix string, cfg Config) (*blobDriver, error) {
	d := &blobDriver{scheme: "gs", bucket: u.Host, prefix: prefix}
	if cfg.HTTPClient == nil && u.RawQuery == "" {
		cfg.HTTPClient = gcsHTTPClient(ctx) // nil: gocloud's opener below
	}
	if cfg.HTTPClient == nil {
		bu := url.URL{Scheme: u.Scheme, Host: u.Host, RawQuery: u.RawQuery}
		b, err := blob.OpenBucket(ctx, bu.String())
		if err != nil {
			return nil, err
		}
		d.rb, d.wb, d.closer = b, b, b.Close
		return d, nil
	}
	opts := []option.ClientOption{option.WithHTTPClient(cfg.HTTPClient)}
	if host := os.Getenv("STORAGE_EMULATOR_HOST"); host != "" {
		opts = append(opts, option.WithEndpoint("http://"+host+"/storage/v1/"), option.WithoutAuthentication())
	}
	c, err := storage.NewClient(ctx, opts...)
	if err != nil {
		return nil, err
	}
	b, err := gcsblob.OpenBucket(ctx, nil, u.Host, &gcsblob.Options{Client: c})
	if err != nil {
		_ = c.Close()
		return nil, err
	}
	d.rb, d.wb = b, b
	d.closer = func() error { _ = b.Close(); return c.Close() }
	return d, nil
}

// gcsHTTPClient returns an HTTP client for GCS that keeps
// DefaultMaxIdleConnsPerHost idle connections (gocloud's opener uses Go's
// default transport, which keeps 2, so a burst of concurrent reads
// re-dialed almost every connection): anonymous for an emulator, with the
// default credentials otherwise. It returns nil, leaving the bucket to
// gocloud's opener as before, when there are no default credentials or
// they are for another universe than googleapis.com.
func gcsHTTPClient(ctx context.Context) *http.Client {
	if os.Getenv("STORAGE_EMULATOR_HOST") != "" {
		return &http.Client{Transport: idleKeepingTransport()}
	}
	creds, err := gcp.DefaultCredentials(ctx)
	if err != nil {
		return nil
	}
	if ud, err := creds.GetUniverseDomain(); err != nil || (ud != "" && ud != "googleapis.com") {
		return nil
	}
	c, err := gcp.NewHTTPClient(idleKeepingTransport(), creds.TokenSource)
	if err != nil {
		return nil
	}
	return &c.Client
}

// openTailGCS opens key and reads its tail with one negative-offset range
// read through the storage client; the reader reports the object size.
func (d *blobDriver) openTailGCS(ctx context.Context, s *Store, key string, n int64) (Object, []byte, error) {
	var c *storage.Client
	if !d.rb.As(&c) {
		return openThenTail(ctx, d, s, key, n)
	}
	var (
		tail []byte
		id   Identity
	)
	op := &OpError{Op: "open", URL: s.URL(key)}
	err := run(ctx, s.cfg, op, func(ctx context.Context) error {
		t0 := time.Now()
		r, err := gcsHandle(c.Bucket(d.bucket).Object(d.key(key)), 0).NewRangeReader(ctx, -n, -1)
		if err != nil {
			s.cfg.Stats.observe(time.Since(t0), 0)
			return err
		}
		defer func() { _ = r.Close() }()
		at := r.Attrs
		id = Identity{URL: s.URL(key), Size: at.Size, ETag: "gen:" + strconv.FormatInt(at.Generation, 10), ModTime: httpTime(at.LastModified)}
		tail = make([]byte, min(n, at.Size))
		m, err := io.ReadFull(r, tail)
		s.cfg.Stats.observe(time.Since(t0), m)
		if err != nil {
			return fmt.Errorf("%w: tail body ended after %d of %d bytes: %w", ErrShortRead, m, len(tail), err)
		}
		if at.StartOffset != at.Size-int64(len(tail)) {
			return fmt.Errorf("%w: tail starts at %d, want %d", ErrUnsupported, at.StartOffset, at.Size-int64(len(tail)))
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return d.newObject(s, key, id), tail, nil
}
