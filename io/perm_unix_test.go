//go:build unix

package lanceio_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	lanceio "github.com/lancego/lancego/io"
)

// TestLocalFileModes checks that the files the local driver writes (Create,
// CreateLocalFile and PutIfAbsent) get 0666 less the umask, as other
// tools' new files do, not os.CreateTemp's 0600. The umask is the
// process's, so the test does not run in parallel.
func TestLocalFileModes(t *testing.T) {
	ctx := context.Background()
	for _, umask := range []int{0o022, 0o027, 0o002} {
		old := syscall.Umask(umask)
		want := os.FileMode(0o666 &^ umask)
		dir := t.TempDir()
		s, err := lanceio.OpenStore(ctx, dir, lanceio.Config{})
		if err != nil {
			syscall.Umask(old)
			t.Fatal(err)
		}
		w, err := s.Create(ctx, "sub/created.bin")
		if err == nil {
			_, err = w.Write([]byte("x"))
		}
		if err == nil {
			err = w.Close()
		}
		if err == nil {
			err = s.PutIfAbsent(ctx, "_versions/1.manifest", []byte("m"))
		}
		var lw lanceio.Writer
		if err == nil {
			lw, err = lanceio.CreateLocalFile(filepath.Join(dir, "local.lance"))
		}
		if err == nil {
			err = lw.Close()
		}
		syscall.Umask(old)
		_ = s.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"sub/created.bin", "_versions/1.manifest", "local.lance"} {
			fi, err := os.Stat(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			if got := fi.Mode().Perm(); got != want {
				t.Errorf("umask %03o: %s has mode %03o, want %03o", umask, name, got, want)
			}
		}
	}
}
