package lanceio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"time"

	"gocloud.dev/blob"
)

// ListEntry is one object found by Store.List.
type ListEntry struct {
	// Key is the object's key relative to the store.
	Key  string
	Size int64
}

// MaxListEntries bounds the entries one List returns; a longer listing
// fails (wrapping ErrUnsupported) rather than growing without bound.
const MaxListEntries = 1 << 22

var errTooManyEntries = fmt.Errorf("%w: listing of more than %d entries", ErrUnsupported, MaxListEntries)

// List returns the objects directly under the key prefix dir (a clean
// relative path naming a "directory"; subdirectories are not descended),
// sorted by key. A missing directory is an empty listing. On object stores
// it costs one request per 1,000 entries.
func (s *Store) List(ctx context.Context, dir string) ([]ListEntry, error) {
	if err := s.check("list", dir); err != nil {
		return nil, err
	}
	var out []ListEntry
	var err error
	switch d := s.drv.(type) {
	case *localDriver:
		out, err = d.list(ctx, s, dir)
	case *blobDriver:
		out, err = d.list(ctx, s, dir)
	default:
		err = &OpError{Op: "list", URL: s.URL(dir), Class: ErrUnsupported, Err: ErrUnsupported}
	}
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, nil
}

func (d *localDriver) list(ctx context.Context, s *Store, dir string) ([]ListEntry, error) {
	if err := ctx.Err(); err != nil {
		return nil, &OpError{Op: "list", URL: s.URL(dir), Class: ErrCanceled, Err: canceledError(ctx)}
	}
	ents, err := os.ReadDir(d.path(dir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, localError("list", s.URL(dir), err)
	}
	if len(ents) > MaxListEntries {
		return nil, &OpError{Op: "list", URL: s.URL(dir), Class: ErrUnsupported, Err: errTooManyEntries}
	}
	out := make([]ListEntry, 0, len(ents))
	for _, e := range ents {
		if !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // removed while listing
		}
		out = append(out, ListEntry{Key: path.Join(dir, e.Name()), Size: info.Size()})
	}
	return out, nil
}

func (d *blobDriver) list(ctx context.Context, s *Store, dir string) ([]ListEntry, error) {
	var out []ListEntry
	op := &OpError{Op: "list", URL: s.URL(dir)}
	prefix := d.key(dir) + "/"
	t0 := time.Now()
	err := run(ctx, s.cfg, op, func(ctx context.Context) error {
		out = out[:0]
		it := d.rb.List(&blob.ListOptions{Prefix: prefix, Delimiter: "/"})
		for {
			obj, err := it.Next(ctx)
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return err
			}
			if obj.IsDir {
				continue
			}
			if len(out) >= MaxListEntries {
				return errTooManyEntries
			}
			out = append(out, ListEntry{Key: dir + "/" + strings.TrimPrefix(obj.Key, prefix), Size: obj.Size})
		}
	})
	if err != nil {
		return nil, err
	}
	for range 1 + len(out)/1000 { // one list request per 1,000 entries
		s.cfg.Stats.observe(time.Since(t0), 0)
	}
	return out, nil
}
