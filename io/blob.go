package lanceio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"gocloud.dev/blob"
	_ "gocloud.dev/blob/azureblob" // registers azblob://
	"gocloud.dev/blob/memblob"
)

// blobDriver serves a gocloud bucket. Reads go through rb; writes through
// wb, which may be the same bucket (S3 uses a reader client without SDK
// retries, since reads are retried here, and a writer client with them).
type blobDriver struct {
	scheme string
	bucket string // bucket or container name
	prefix string // key prefix, "" or ending in "/"
	rb, wb *blob.Bucket
	closer func() error
	signed *signedReads // reads through presigned URLs (S3), nil if off
}

func newMemDriver() *blobDriver {
	b := memblob.OpenBucket(nil)
	return &blobDriver{scheme: "mem", rb: b, wb: b, closer: b.Close}
}

// openBlobDriver opens the bucket named by u.
func openBlobDriver(ctx context.Context, u *url.URL, cfg Config) (*blobDriver, error) {
	prefix := strings.Trim(u.Path, "/")
	if prefix != "" {
		prefix += "/"
	}
	switch u.Scheme {
	case "mem":
		d := newMemDriver()
		d.prefix = prefix
		return d, nil
	case "s3":
		return openS3(ctx, u, prefix, cfg)
	case "gs":
		return openGCS(ctx, u, prefix, cfg)
	case "azblob":
		bu := url.URL{Scheme: u.Scheme, Host: u.Host, RawQuery: u.RawQuery}
		b, err := blob.OpenBucket(ctx, bu.String())
		if err != nil {
			return nil, err
		}
		return &blobDriver{scheme: u.Scheme, bucket: u.Host, prefix: prefix, rb: b, wb: b, closer: b.Close}, nil
	}
	return nil, fmt.Errorf("%w: scheme %q", ErrUnsupported, u.Scheme)
}

func (d *blobDriver) key(key string) string { return d.prefix + key }

func (d *blobDriver) close() error { return d.closer() }

func (d *blobDriver) open(ctx context.Context, s *Store, key string) (Object, error) {
	var attrs *blob.Attributes
	op := &OpError{Op: "open", URL: s.URL(key)}
	err := run(ctx, s.cfg, op, func(ctx context.Context) error {
		t0 := time.Now()
		a, err := d.rb.Attributes(ctx, d.key(key))
		s.cfg.Stats.observe(time.Since(t0), 0)
		attrs = a
		return err
	})
	if err != nil {
		return nil, err
	}
	id := Identity{URL: s.URL(key), Size: attrs.Size, ETag: d.version(attrs), ModTime: httpTime(attrs.ModTime)}
	return d.newObject(s, key, id), nil
}

func (d *blobDriver) newObject(s *Store, key string, id Identity) *blobObject {
	return &blobObject{d: d, key: d.key(key), id: id, cfg: s.cfg}
}

func (d *blobDriver) openTail(ctx context.Context, s *Store, key string, n int64) (Object, []byte, error) {
	var (
		o    Object
		tail []byte
		err  error
	)
	switch d.scheme {
	case "s3":
		o, tail, err = d.openTailS3(ctx, s, key, n)
	case "gs":
		o, tail, err = d.openTailGCS(ctx, s, key, n)
	case "azblob":
		o, tail, err = d.openTailAzure(ctx, s, key, n)
	default:
		return openThenTail(ctx, d, s, key, n)
	}
	if errors.Is(err, ErrOutOfRange) { // empty objects answer 416
		return openThenTail(ctx, d, s, key, n)
	}
	return o, tail, err
}

func (d *blobDriver) remove(ctx context.Context, s *Store, key string) error {
	op := &OpError{Op: "delete", URL: s.URL(key)}
	// Retried here, like reads: through rb, which has no SDK retries of
	// its own (through wb each of our attempts would be several).
	return run(ctx, s.cfg, op, func(ctx context.Context) error {
		return d.rb.Delete(ctx, d.key(key))
	})
}

// blobObject reads ranges with one GET each, resuming truncated bodies.
type blobObject struct {
	d      *blobDriver
	key    string // full key including prefix
	id     Identity
	cfg    Config
	closed atomic.Bool
	signed signedURL // the presigned read URL, when the bucket has signed reads
}

// ReadAt implements Object.
func (o *blobObject) ReadAt(ctx context.Context, p []byte, off int64) error {
	if o.closed.Load() {
		return &OpError{Op: "read", URL: o.id.URL, Off: off, Len: int64(len(p)), Class: ErrClosed, Err: ErrClosed}
	}
	if err := checkRange(o.id, off, len(p)); err != nil || len(p) == 0 {
		return err
	}
	done := 0
	op := &OpError{Op: "read", URL: o.id.URL, Off: off, Len: int64(len(p))}
	notify := ReadProgressOf(ctx)
	return run(ctx, o.cfg, op, func(ctx context.Context) error {
		n, err := o.readOnce(ctx, p[done:], off+int64(done), done, notify)
		done += n
		return err
	})
}

// readOnce issues one ranged GET for p and returns how many bytes of p it
// filled: through the object's presigned URL when the bucket reads that
// way, else through the SDK. notify, when not nil, hears base plus the
// bytes filled as they arrive (see WithReadProgress).
func (o *blobObject) readOnce(ctx context.Context, p []byte, off int64, base int, notify ReadProgress) (int, error) {
	if !o.d.signed.disabled() {
		if n, ok, err := o.readSignedOnce(ctx, p, off, base, notify); ok {
			return n, err
		}
	}
	t0 := time.Now()
	r, err := o.d.rb.NewRangeReader(ctx, o.key, off, int64(len(p)), o.d.readerOptions(o.id))
	if err != nil {
		o.cfg.Stats.observe(time.Since(t0), 0)
		return 0, err
	}
	n, err := readFullProgress(r, p, base, notify)
	_ = r.Close()
	o.cfg.Stats.observe(time.Since(t0), n)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		err = fmt.Errorf("%w: body ended after %d of %d bytes: %w", ErrShortRead, n, len(p), err)
	}
	return n, err
}

// Size implements Object.
func (o *blobObject) Size() int64 { return o.id.Size }

// Identity implements Object.
func (o *blobObject) Identity() Identity { return o.id }

// Close implements Object; the bucket belongs to the Store.
func (o *blobObject) Close() error {
	o.closed.Store(true)
	return nil
}

// httpTime normalises a store timestamp to UTC seconds, the precision of
// HTTP Last-Modified, so HEAD and GET report the same Identity.
func httpTime(t time.Time) time.Time { return t.UTC().Truncate(time.Second) }
