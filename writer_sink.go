package lance

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"

	lanceio "github.com/lancego/lancego/io"
)

// pageAlign is the alignment of every buffer in a 2.1+ file.
const pageAlign = 64

// padByte is what Lance fills alignment gaps with ('H').
const padByte = 0x48

// ObjectWriter is the destination of a file being written: bytes are
// published atomically by Close and discarded by Abort. The writers of
// package io (lanceio.Create) satisfy it.
type ObjectWriter interface {
	io.Writer
	Close() error
	Abort() error
}

// ObjectCreator opens an ObjectWriter for a URL that is not a local path.
type ObjectCreator func(ctx context.Context, url string) (ObjectWriter, error)

// WithObjectCreator routes non-local URLs (s3://, gs://, ...) to create.
// Without it they are written with lanceio.Create (multipart or streaming
// uploads that become visible only on Close).
func WithObjectCreator(create ObjectCreator) WriterOption {
	return func(c *writerConfig) error {
		c.create = create
		return nil
	}
}

// sink writes the file sequentially and tracks the write position.
type sink struct {
	w   ObjectWriter
	buf *bufio.Writer
	pos uint64
}

// newSink creates the destination: a temporary file in the target folder
// for local paths, or an ObjectWriter from create.
func newSink(ctx context.Context, url string, create ObjectCreator) (*sink, error) {
	var w ObjectWriter
	var err error
	switch path, local := localPath(url); {
	case local:
		w, err = createLocal(path)
	case create != nil:
		w, err = create(ctx, url)
	default:
		w, err = lanceio.Create(ctx, url, lanceio.Config{})
	}
	if err != nil {
		return nil, err
	}
	return &sink{w: w, buf: bufio.NewWriterSize(w, 1<<20)}, nil
}

// localPath returns the file path of a local path or file:// URL.
func localPath(url string) (string, bool) {
	if p, ok := strings.CutPrefix(url, "file://"); ok {
		return p, true
	}
	return url, !strings.Contains(url, "://")
}

// localFile writes to a temporary file renamed into place on Close.
type localFile struct {
	f   *os.File
	dst string
}

// createLocal creates the temporary file next to dst.
func createLocal(dst string) (*localFile, error) {
	f, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".tmp-*")
	if err != nil {
		return nil, err
	}
	return &localFile{f: f, dst: dst}, nil
}

func (l *localFile) Write(p []byte) (int, error) { return l.f.Write(p) }

// Close fsyncs, renames the file into place and fsyncs the folder.
func (l *localFile) Close() error {
	err := l.f.Sync()
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(l.f.Name(), l.dst)
	}
	if err != nil {
		_ = os.Remove(l.f.Name())
		return err
	}
	if d, derr := os.Open(filepath.Dir(l.dst)); derr == nil {
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}

// Abort removes the temporary file.
func (l *localFile) Abort() error {
	_ = l.f.Close()
	return os.Remove(l.f.Name())
}

// write appends raw bytes.
func (s *sink) write(b []byte) error {
	n, err := s.buf.Write(b)
	s.pos += uint64(n)
	return err
}

// writeAligned appends b followed by pad bytes up to the next multiple of
// 64 and returns the offset where b starts.
func (s *sink) writeAligned(b []byte) (uint64, error) {
	at, _, err := s.writeAlignedParts([][]byte{b})
	return at, err
}

// writeAlignedParts appends the parts of one buffer back to back followed
// by pad bytes up to the next multiple of 64; it returns the offset where
// the buffer starts and its size.
func (s *sink) writeAlignedParts(parts [][]byte) (uint64, uint64, error) {
	at := s.pos
	for _, b := range parts {
		if err := s.write(b); err != nil {
			return at, s.pos - at, err
		}
	}
	size := s.pos - at
	if r := s.pos % pageAlign; r != 0 {
		var pad [pageAlign]byte
		for i := range pad {
			pad[i] = padByte
		}
		return at, size, s.write(pad[:pageAlign-r])
	}
	return at, size, nil
}

// commit flushes and atomically publishes the file.
func (s *sink) commit() error {
	if err := s.buf.Flush(); err != nil {
		_ = s.w.Abort()
		return err
	}
	return s.w.Close()
}

// abort discards everything written.
func (s *sink) abort() { _ = s.w.Abort() }
