//go:build unix

package fileread

import (
	"testing"

	"golang.org/x/sys/unix"
)

// readOnlyCopy returns a copy of b in memory that faults on any write:
// a reader that wrote into the bytes it fetched (which may be a read-only
// map of the file) then crashes the test instead of passing unnoticed.
func readOnlyCopy(tb testing.TB, b []byte) []byte {
	if len(b) == 0 {
		return b
	}
	m, err := unix.Mmap(-1, 0, len(b), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		tb.Fatal(err)
	}
	copy(m, b)
	if err := unix.Mprotect(m, unix.PROT_READ); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = unix.Munmap(m) })
	return m
}
