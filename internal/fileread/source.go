package fileread

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/lancego/lancego/format"
	lanceio "github.com/lancego/lancego/io"
	"github.com/lancego/lancego/scheduler"
)

// source is where file bytes come from.
type source interface {
	Fetch(ctx context.Context, ranges []format.Range, priority uint64) ([][]byte, error)
	Size() int64
	// Key is a stable identity of the file version, for cache keys.
	Key() string
	Close() error
}

// objectSource reads a lanceio.Object through a scheduler.
type objectSource struct {
	obj   lanceio.Object
	sched *scheduler.Scheduler
	owned bool   // the scheduler was created for this file
	key   string // obj.Identity().String(), computed once
}

// IsLocalURL reports whether url names a local file.
func IsLocalURL(url string) bool {
	i := strings.Index(url, "://")
	return i < 0 || strings.HasPrefix(url, "file://")
}

// openSource opens url and reads its last tailSize bytes (one request).
func openSource(ctx context.Context, url string, cfg *Config) (source, []byte, error) {
	depth := scheduler.Issue(ctx) // the open and tail read: one request on object stores
	obj, tail, err := lanceio.OpenTail(ctx, url, int64(cfg.TailSize), cfg.IO)
	if err != nil {
		return nil, nil, openError(url, err)
	}
	scheduler.Reached(ctx, depth)
	s := &objectSource{obj: obj, sched: cfg.Sched, key: obj.Identity().String()}
	if s.sched == nil {
		sc := scheduler.ObjectStoreConfig(cfg.Limiter)
		if IsLocalURL(url) {
			sc = scheduler.LocalConfig(cfg.Limiter)
		}
		if cfg.SchedCfg != nil {
			sc = *cfg.SchedCfg
		}
		if b, ok := cfg.Mem.(scheduler.BufferAllocator); ok && sc.Buffers == nil {
			sc.Buffers = b // scans give mini-block page buffers back to the pool
		}
		s.sched, s.owned = scheduler.New(sc), true
	}
	scheduler.Attach(ctx, s.sched) // the open's round trips count in its stats
	return s, tail, nil
}

func (s *objectSource) Size() int64 { return s.obj.Size() }
func (s *objectSource) Key() string { return s.key }

func (s *objectSource) Close() error {
	var err error
	if s.owned {
		err = s.sched.Close()
	}
	if cerr := s.obj.Close(); err == nil {
		err = cerr
	}
	return err
}

func toSchedRanges(ranges []format.Range) ([]scheduler.Range, error) {
	out := make([]scheduler.Range, len(ranges))
	for i, r := range ranges {
		if r.Offset > 1<<62 || r.Length > 1<<62 {
			return nil, fmt.Errorf("%w: range %v", format.ErrCorrupt, r)
		}
		out[i] = scheduler.Range{Off: int64(r.Offset), Len: int64(r.Length)}
	}
	return out, nil
}

func (s *objectSource) Fetch(ctx context.Context, ranges []format.Range, priority uint64) ([][]byte, error) {
	if len(ranges) == 0 {
		return nil, nil
	}
	rs, err := toSchedRanges(ranges)
	if err != nil {
		return nil, err
	}
	return s.sched.Fetch(ctx, s.obj, rs, priority)
}

// objectSource returns the file's object source (under its tail), or nil
// for other sources.
func (f *File) objectSource() *objectSource {
	src := f.src
	if ts, ok := src.(*tailSource); ok {
		src = ts.source
	}
	os, _ := src.(*objectSource)
	return os
}

// object returns the object the file reads, or nil if it reads none.
func (f *File) object() lanceio.Object {
	if os := f.objectSource(); os != nil {
		return os.obj
	}
	return nil
}

// bytesSource serves a file held in memory (tests and fuzzing).
type bytesSource struct{ b []byte }

func (s bytesSource) Size() int64  { return int64(len(s.b)) }
func (s bytesSource) Key() string  { return fmt.Sprintf("bytes:%p:%d", s.b, len(s.b)) }
func (s bytesSource) Close() error { return nil }

func (s bytesSource) Fetch(ctx context.Context, ranges []format.Range, _ uint64) ([][]byte, error) {
	out := make([][]byte, len(ranges))
	for i, r := range ranges {
		end, ok := r.End()
		if !ok || end > uint64(len(s.b)) {
			return nil, fmt.Errorf("%w: range %v outside file of %d bytes", format.ErrCorrupt, r, len(s.b))
		}
		out[i] = s.b[r.Offset:end:end]
	}
	return out, ctx.Err()
}

// tailSource serves ranges inside the file's already-read tail from memory
// and passes the rest to the underlying source. A file no larger than the
// tail read is therefore read with exactly one request.
type tailSource struct {
	source
	tail  []byte
	start uint64 // file offset of tail[0]
}

func withTail(src source, tail []byte) source {
	if len(tail) == 0 {
		return src
	}
	return &tailSource{source: src, tail: tail, start: uint64(src.Size()) - uint64(len(tail))}
}

func (s *tailSource) Fetch(ctx context.Context, ranges []format.Range, priority uint64) ([][]byte, error) {
	out := make([][]byte, len(ranges))
	var rest []format.Range
	var restIdx []int
	for i, r := range ranges {
		end, ok := r.End()
		if ok && r.Offset >= s.start && end <= s.start+uint64(len(s.tail)) {
			out[i] = s.tail[r.Offset-s.start : end-s.start : end-s.start]
			continue
		}
		rest, restIdx = append(rest, r), append(restIdx, i)
	}
	if len(rest) == 0 {
		return out, ctx.Err()
	}
	got, err := s.source.Fetch(ctx, rest, priority)
	if err != nil {
		return nil, err
	}
	for k, i := range restIdx {
		out[i] = got[k]
	}
	return out, nil
}

// openFailed is a failed open of url, said once: "lance: open URL: no
// such file or directory" rather than the store's own "open URL: open
// path: ..." after ours. It unwraps to the store's error, so its classes
// (lanceio.ErrNotFound, ...) still match.
type openFailed struct {
	url, reason string
	err         error
}

func (e *openFailed) Error() string { return "lance: open " + e.url + ": " + e.reason }
func (e *openFailed) Unwrap() error { return e.err }

// openError wraps a store's error opening url.
func openError(url string, err error) error {
	var oe *lanceio.OpError
	if errors.As(err, &oe) && oe.Op == "open" {
		return &openFailed{url: url, reason: oe.Reason(), err: err}
	}
	return fmt.Errorf("lance: open %s: %w", url, err)
}
