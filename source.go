package lance

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/lancego/lancego/format"
)

// source is where file bytes come from.
type source interface {
	Fetch(ctx context.Context, ranges []format.Range, priority uint64) ([][]byte, error)
	Size() int64
	Close() error
}

type localSource struct {
	f    *os.File
	size int64
}

func openSource(ctx context.Context, url string, cfg config) (source, error) {
	path := strings.TrimPrefix(url, "file://")
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("lance: open %s: %w", url, err)
	}
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, err
	}
	return &localSource{f: fh, size: st.Size()}, nil
}

func (s *localSource) Size() int64  { return s.size }
func (s *localSource) Close() error { return s.f.Close() }

func (s *localSource) Fetch(ctx context.Context, ranges []format.Range, _ uint64) ([][]byte, error) {
	out := make([][]byte, len(ranges))
	for i, r := range ranges {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		end, ok := r.End()
		if !ok || end > uint64(s.size) {
			return nil, fmt.Errorf("%w: range %v outside file of %d bytes", format.ErrCorrupt, r, s.size)
		}
		b := make([]byte, r.Length)
		if _, err := s.f.ReadAt(b, int64(r.Offset)); err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

// bytesSource serves a file held in memory.
type bytesSource struct{ b []byte }

func (s bytesSource) Size() int64  { return int64(len(s.b)) }
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
