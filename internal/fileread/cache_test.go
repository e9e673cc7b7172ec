package fileread

import (
	"context"
	"testing"

	"github.com/lancego/lancego/searchcache"
)

// TestSharedCacheServesMetadata opens one file twice with a shared search
// cache: the second open parses nothing and its first take reads no page
// metadata.
func TestSharedCacheServesMetadata(t *testing.T) {
	ctx := context.Background()
	cache := searchcache.New(searchcache.Config{MaxBytes: 64 << 20})
	path := "../../testdata/corpus/2.2/strings_dict.lance"
	first, err := Open(ctx, path, WithCache(cache), WithSmallPageSize(0))
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	rec, err := first.Take(ctx, []uint64{1, 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec.Release()
	before := cache.Stats()
	second, err := Open(ctx, path, WithCache(cache), WithSmallPageSize(0))
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if second.Metadata() != first.Metadata() {
		t.Error("second open parsed the metadata again")
	}
	rec, err = second.Take(ctx, []uint64{3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec.Release()
	after := cache.Stats()
	if after.Loads != before.Loads {
		t.Errorf("cache loads went from %d to %d: metadata was read again", before.Loads, after.Loads)
	}
	if s := second.Stats(); s.CacheMisses != 0 || s.CacheHits == 0 {
		t.Errorf("second file: %d hits, %d misses", s.CacheHits, s.CacheMisses)
	}
}
