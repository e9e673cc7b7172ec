package lanceio

import (
	"context"
	"fmt"
	"io"
	"time"

	azblobblob "github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blob"
)

// openTailAzure opens key and returns its last min(n, size) bytes. Azure
// reads cannot ask for a suffix range, so instead of a size lookup it
// reads the first n bytes: the response reports the size, and an object
// of at most n bytes (manifests, deletion files, small data files) is
// then open with its tail in one request. A larger one costs one more
// ranged read, conditional on the ETag the first response gave, so no
// more than the size lookup and read it replaces.
func (d *blobDriver) openTailAzure(ctx context.Context, s *Store, key string, n int64) (Object, []byte, error) {
	var (
		head []byte
		id   Identity
	)
	op := &OpError{Op: "open", URL: s.URL(key)}
	err := run(ctx, s.cfg, op, func(ctx context.Context) error {
		t0 := time.Now()
		r, err := d.rb.NewRangeReader(ctx, d.key(key), 0, n, nil)
		if err != nil {
			s.cfg.Stats.observe(time.Since(t0), 0)
			return err
		}
		defer func() { _ = r.Close() }()
		var resp azblobblob.DownloadStreamResponse
		if !r.As(&resp) || resp.ETag == nil {
			s.cfg.Stats.observe(time.Since(t0), 0)
			return fmt.Errorf("%w: Azure read of %s reported no ETag", ErrUnsupported, key)
		}
		id = Identity{URL: s.URL(key), Size: r.Size(), ETag: string(*resp.ETag), ModTime: httpTime(r.ModTime())}
		head = make([]byte, min(n, id.Size))
		m, err := io.ReadFull(r, head)
		s.cfg.Stats.observe(time.Since(t0), m)
		if err != nil {
			return fmt.Errorf("%w: head body ended after %d of %d bytes: %w", ErrShortRead, m, len(head), err)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	o := d.newObject(s, key, id)
	if id.Size <= n {
		return o, head, nil
	}
	tail, err := tailAfterHead(ctx, o, head, n)
	if err != nil {
		return nil, nil, err
	}
	return o, tail, nil
}

// tailAfterHead returns the last n bytes of o (larger than n) given its
// first len(head) bytes, reading only what head does not hold.
func tailAfterHead(ctx context.Context, o Object, head []byte, n int64) ([]byte, error) {
	start := o.Size() - n
	if start >= int64(len(head)) {
		return ReadTail(ctx, o, n)
	}
	tail := make([]byte, n)
	k := copy(tail, head[start:])
	if err := o.ReadAt(ctx, tail[k:], start+int64(k)); err != nil {
		return nil, err
	}
	return tail, nil
}
