package lanceio

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestOpenViewerOnlyForFiles: an object opened by URL is a Viewer when
// its store lends views (a local file) and not otherwise (an object
// store's): scans decide by it how to read pages (page by page from a
// memory map, in waves decoded while they arrive from an object store).
func TestOpenViewerOnlyForFiles(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	local, err := Open(ctx, path, Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer local.Close()
	if _, ok := local.(Viewer); !ok {
		t.Errorf("local file %T: not a Viewer", local)
	}
	s := NewMemStore(Config{})
	w, err := s.Create(ctx, "obj")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("0123456789")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	obj, err := s.Open(ctx, "obj")
	if err != nil {
		t.Fatal(err)
	}
	wrapped := owned(obj, s) // as Open and OpenTail return an object store's object
	defer wrapped.Close()
	if _, ok := wrapped.(Viewer); ok {
		t.Errorf("object in memory %T: a Viewer", wrapped)
	}
}
