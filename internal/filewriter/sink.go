package filewriter

import (
	"bufio"
	"io"
)

// pageAlign is the alignment of every buffer in a 2.1+ file.
const pageAlign = 64

// padByte is what Lance fills alignment gaps with ('H').
const padByte = 0x48

// Dest is the destination of a file being written: bytes are published
// atomically by Close and discarded by Abort (lance.ObjectWriter; the
// writers of package io satisfy it).
type Dest interface {
	io.Writer
	Close() error
	Abort() error
}

// sink writes the file sequentially and tracks the write position.
type sink struct {
	w   Dest
	buf *bufio.Writer
	pos uint64
}

// newSink buffers writes to d.
func newSink(d Dest) *sink {
	return &sink{w: d, buf: bufio.NewWriterSize(d, 1<<20)}
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
