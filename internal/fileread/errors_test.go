package fileread

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/layouts"
)

// TestCorruptPageErrorsNameTheirPlace damages the chunk table of a
// mini-block page and checks that reading fails with an error that names
// the file, column, field and page, and classifies as corrupt.
func TestCorruptPageErrorsNameTheirPlace(t *testing.T) {
	const path = "../../testdata/corpus/2.1/int_runs.lance"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Skip(err)
	}
	ctx := context.Background()
	f, err := newFile(ctx, path, bytesSource{b}, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	ranges, err := f.meta.PageRanges(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	bad := append([]byte(nil), b...)
	for i := ranges[0].Offset; i < ranges[0].Offset+ranges[0].Length; i++ {
		bad[i] = 0xFF // every chunk claims 32 KiB: beyond the data buffer
	}
	f, err = newFile(ctx, path, bytesSource{bad}, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.Take(ctx, []uint64{0}, nil)
	if err == nil {
		t.Fatal("corrupt chunk table read without error")
	}
	msg := err.Error()
	for _, want := range []string{path, "column 0", "page 0", "field"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not name %q", msg, want)
		}
	}
	if !errors.Is(err, layouts.ErrCorrupt) {
		t.Errorf("error %v is not ErrCorrupt", err)
	}
}

func TestTruncatedFilesFail(t *testing.T) {
	b, err := os.ReadFile("../../testdata/corpus/2.2/bools.lance")
	if err != nil {
		t.Skip(err)
	}
	ctx := context.Background()
	for _, n := range []int{0, 10, 39, 40, len(b) / 2, len(b) - 1} {
		_, err := newFile(ctx, "trunc", bytesSource{b[:n]}, DefaultConfig())
		if err == nil {
			t.Errorf("file cut to %d bytes opened", n)
		} else if !errors.Is(err, format.ErrCorrupt) && !errors.Is(err, format.ErrUnsupportedVersion) {
			t.Errorf("cut to %d: %v is not classified", n, err)
		}
	}
}

// TestVersion20Opens: 2.0 files are read (they were refused before), and
// a footer version no Lance wrote is still refused, naming it.
func TestVersion20Opens(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "corpus", "2.0", "*.lance"))
	if len(files) == 0 {
		t.Fatal("no golden 2.0 files")
	}
	f, err := Open(context.Background(), files[0])
	if err != nil {
		t.Fatal(err)
	}
	if v := f.Metadata().Version.String(); v != "2.0" {
		t.Errorf("version %s, want 2.0", v)
	}
	f.Close()
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint16(b[len(b)-8:], 2)
	binary.LittleEndian.PutUint16(b[len(b)-6:], 9) // footer 2.9
	_, err = newFile(context.Background(), "v2.9", bytesSource{b}, DefaultConfig())
	if !errors.Is(err, format.ErrUnsupportedVersion) || !strings.Contains(err.Error(), "2.9") {
		t.Fatalf("2.9 file: %v, want ErrUnsupportedVersion naming the version", err)
	}
}
