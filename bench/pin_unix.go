//go:build unix

package bench

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// pinFiles keeps paths in the OS page cache until unpin is called: each
// is mapped and locked (mlock), which also reads in what is not cached.
// This VM's kernel runs a DAMON pageout scheme that evicts page-cache
// pages it sampled as idle for a minute, at up to 128 MB/s, and a single
// read-through does not count as recent use: files read once before a
// take step still lost pages during the takes (a 1-vector take then read
// from disk, 0.2 ms instead of 0.01). Locked pages are not evicted, for
// any process reading the file. Where locking is not allowed (no
// CAP_IPC_LOCK and a small RLIMIT_MEMLOCK) the files are read through
// once instead and pinned is false.
func pinFiles(paths ...string) (unpin func(), pinned bool, err error) {
	var maps [][]byte
	unpin = func() {
		for _, m := range maps {
			_ = unix.Munlock(m)
			_ = unix.Munmap(m)
		}
	}
	for _, p := range paths {
		m, err := lockFile(p)
		if err != nil {
			unpin()
			return func() {}, false, warmFiles(paths...)
		}
		if m != nil {
			maps = append(maps, m)
		}
	}
	return unpin, true, nil
}

// lockFile maps path read-only and locks the map; nil for an empty file.
func lockFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return nil, err
	}
	m, err := unix.Mmap(int(f.Fd()), 0, int(st.Size()), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("map %s: %w", path, err)
	}
	if err := unix.Mlock(m); err != nil {
		_ = unix.Munmap(m)
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return m, nil
}
