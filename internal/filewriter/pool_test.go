package filewriter

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/lancego/lancego/internal/lerr"
)

// TestWriterPoolsPerWriter checks that writers running at the same time
// (each with its own pools) write the same bytes, and that a Writer lets
// go of its pools when closed or aborted.
func TestWriterPoolsPerWriter(t *testing.T) {
	schema, recs := checkedBatches(t)
	ctx := context.Background()
	dir := t.TempDir()
	const writers = 3
	files := make([][]byte, writers)
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for k := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			path := filepath.Join(dir, fmt.Sprintf("%d.lance", k))
			w, err := Create(ctx, path, schema, WithPageBudget(1<<20))
			if err != nil {
				errs[k] = err
				return
			}
			for _, rec := range recs {
				if err := w.Write(ctx, rec); err != nil {
					errs[k] = err
					return
				}
			}
			if err := w.Close(ctx); err != nil {
				errs[k] = err
				return
			}
			if w.fw.HasPools() {
				errs[k] = fmt.Errorf("writer %d kept its pools after Close", k)
				return
			}
			files[k], errs[k] = os.ReadFile(path)
		}()
	}
	wg.Wait()
	for k := range writers {
		if errs[k] != nil {
			t.Fatal(errs[k])
		}
		if !bytes.Equal(files[k], files[0]) {
			t.Fatalf("writer %d wrote different bytes", k)
		}
	}

	w, err := Create(ctx, filepath.Join(dir, "aborted.lance"), schema, WithPageBudget(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	if !w.fw.HasPools() {
		t.Fatal("new writer has no pools")
	}
	if err := w.Write(ctx, recs[0]); err != nil {
		t.Fatal(err)
	}
	w.Abort()
	if w.fw.HasPools() {
		t.Fatal("writer kept its pools after Abort")
	}
	if err := w.Write(ctx, recs[1]); err != lerr.ErrWriterClosed {
		t.Fatalf("write after Abort: %v", err)
	}
}
