package lanceio

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"gocloud.dev/blob"
)

// ObjectInfo is one object found by Store.ListAll.
type ObjectInfo struct {
	// Key is the object's key relative to the store.
	Key     string
	Size    int64
	ModTime time.Time // last modification (an object store's Last-Modified)
}

// ListAll returns every object under the key prefix dir, descending into
// subdirectories, sorted by key, with sizes and modification times (what
// a cleanup judges file ages by). dir "" lists the whole store. A missing
// directory is an empty listing. On object stores it costs one request per
// 1,000 objects.
func (s *Store) ListAll(ctx context.Context, dir string) ([]ObjectInfo, error) {
	if dir != "" {
		if err := s.check("list", dir); err != nil {
			return nil, err
		}
	} else if s.closed.Load() {
		return nil, &OpError{Op: "list", URL: s.URL(dir), Class: ErrClosed, Err: ErrClosed}
	}
	var out []ObjectInfo
	var err error
	switch d := s.drv.(type) {
	case *localDriver:
		out, err = d.listAll(ctx, s, dir)
	case *blobDriver:
		out, err = d.listAll(ctx, s, dir)
	default:
		err = &OpError{Op: "list", URL: s.URL(dir), Class: ErrUnsupported, Err: ErrUnsupported}
	}
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, nil
}

func (d *localDriver) listAll(ctx context.Context, s *Store, dir string) ([]ObjectInfo, error) {
	root := d.root
	if dir != "" {
		root = d.path(dir)
	}
	var out []ObjectInfo
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // the root is missing, or an entry was removed while listing
			}
			return err
		}
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if !e.Type().IsRegular() {
			return nil
		}
		info, err := e.Info()
		if err != nil {
			return nil // removed while listing
		}
		if len(out) >= MaxListEntries {
			return errTooManyEntries
		}
		rel, err := filepath.Rel(d.root, p)
		if err != nil {
			return err
		}
		out = append(out, ObjectInfo{Key: filepath.ToSlash(rel), Size: info.Size(), ModTime: info.ModTime()})
		return nil
	})
	switch {
	case err == nil:
		return out, nil
	case ctx.Err() != nil:
		return nil, &OpError{Op: "list", URL: s.URL(dir), Class: ErrCanceled, Err: canceledError(ctx)}
	case errors.Is(err, errTooManyEntries):
		return nil, &OpError{Op: "list", URL: s.URL(dir), Class: ErrUnsupported, Err: err}
	default:
		return nil, localError("list", s.URL(dir), err)
	}
}

func (d *blobDriver) listAll(ctx context.Context, s *Store, dir string) ([]ObjectInfo, error) {
	var out []ObjectInfo
	op := &OpError{Op: "list", URL: s.URL(dir)}
	prefix := d.prefix
	if dir != "" {
		prefix = d.key(dir) + "/"
	}
	t0 := time.Now()
	err := run(ctx, s.cfg, op, func(ctx context.Context) error {
		out = out[:0]
		it := d.rb.List(&blob.ListOptions{Prefix: prefix})
		for {
			obj, err := it.Next(ctx)
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return err
			}
			if obj.IsDir || strings.HasSuffix(obj.Key, "/") {
				continue
			}
			if len(out) >= MaxListEntries {
				return errTooManyEntries
			}
			key := strings.TrimPrefix(obj.Key, d.prefix)
			if key == "" || path.Clean(key) != key || strings.HasPrefix(key, "../") {
				continue // not addressable through the Store (say "a//b"): left alone
			}
			out = append(out, ObjectInfo{Key: key, Size: obj.Size, ModTime: obj.ModTime})
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
