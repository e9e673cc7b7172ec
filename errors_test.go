package lance

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/layouts"
)

// TestCorruptPageErrorsNameTheirPlace damages the chunk table of a
// mini-block page and checks that reading fails with an error that names
// the file, column, field and page, and classifies as corrupt.
func TestCorruptPageErrorsNameTheirPlace(t *testing.T) {
	const path = "testdata/corpus/2.1/int_runs.lance"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Skip(err)
	}
	ctx := context.Background()
	f, err := newFile(ctx, path, bytesSource{b}, defaultConfig())
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
	f, err = newFile(ctx, path, bytesSource{bad}, defaultConfig())
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
	b, err := os.ReadFile("testdata/corpus/2.2/bools.lance")
	if err != nil {
		t.Skip(err)
	}
	ctx := context.Background()
	for _, n := range []int{0, 10, 39, 40, len(b) / 2, len(b) - 1} {
		_, err := newFile(ctx, "trunc", bytesSource{b[:n]}, defaultConfig())
		if err == nil {
			t.Errorf("file cut to %d bytes opened", n)
		} else if !errors.Is(err, format.ErrCorrupt) && !errors.Is(err, format.ErrUnsupportedVersion) {
			t.Errorf("cut to %d: %v is not classified", n, err)
		}
	}
}

func TestUnsupportedVersion20(t *testing.T) {
	shared := os.Getenv("LANCE_CORPUS")
	if shared == "" {
		shared = "../shared/corpus"
	}
	path := shared + "/2.0/ints_nonnull.lance"
	if _, err := os.Stat(path); err != nil {
		t.Skip("no 2.0 corpus file")
	}
	_, err := Open(context.Background(), path)
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "2.0") {
		t.Fatalf("2.0 file: %v, want ErrUnsupported naming the version", err)
	}
}
