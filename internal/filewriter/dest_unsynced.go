package filewriter

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// unsyncedFile is the destination of WithSync(false): a temporary file
// next to the target, renamed into place by Close without fsync. It is
// written here rather than in package io because io's local writer always
// syncs (its callers, datasets among them, rely on that).
type unsyncedFile struct {
	f    *os.File
	dst  string
	done bool
}

// createUnsynced creates ".<base>.tmp-<random>" next to path, mode 0666
// less the umask like any new file.
func createUnsynced(path string) (*unsyncedFile, error) {
	prefix := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp-")
	for try := 0; ; try++ {
		f, err := os.OpenFile(prefix+strconv.FormatUint(rand.Uint64(), 36), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if err == nil {
			return &unsyncedFile{f: f, dst: path}, nil
		}
		if !errors.Is(err, os.ErrExist) || try == 100 {
			return nil, fmt.Errorf("create %s: %w", path, err)
		}
	}
}

// Write implements io.Writer.
func (u *unsyncedFile) Write(p []byte) (int, error) {
	if u.done {
		return 0, fmt.Errorf("write %s: %w", u.dst, os.ErrClosed)
	}
	return u.f.Write(p)
}

// Close closes the temporary file and renames it into place.
func (u *unsyncedFile) Close() error {
	if u.done {
		return fmt.Errorf("commit %s: %w", u.dst, os.ErrClosed)
	}
	u.done = true
	err := u.f.Close()
	if err == nil {
		err = os.Rename(u.f.Name(), u.dst)
	}
	if err != nil {
		_ = os.Remove(u.f.Name())
		return fmt.Errorf("commit %s: %w", u.dst, err)
	}
	return nil
}

// Abort removes the temporary file.
func (u *unsyncedFile) Abort() error {
	if u.done {
		return nil
	}
	u.done = true
	_ = u.f.Close()
	return os.Remove(u.f.Name())
}
