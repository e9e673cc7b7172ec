package lanceio

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"
)

// TestReadProgress: a read of an object in memory (read through the blob
// driver, as S3, GCS and Azure are) reports its bytes as they are filled:
// growing counts, at most ProgressStep apart, ending at the read's length,
// and the bytes below each count already in place.
func TestReadProgress(t *testing.T) {
	ctx := context.Background()
	store := NewMemStore(Config{})
	defer store.Close()
	data := make([]byte, 3*ProgressStep+1234)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	w, err := store.Create(ctx, "obj")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	obj, err := store.Open(ctx, "obj")
	if err != nil {
		t.Fatal(err)
	}
	defer obj.Close()
	const off = 100
	p := make([]byte, len(data)-off)
	var counts []int
	pctx := WithReadProgress(ctx, func(n int) {
		if !bytes.Equal(p[:n], data[off:off+n]) {
			t.Errorf("reported %d bytes filled, not all in place", n)
		}
		counts = append(counts, n)
	})
	if err := obj.ReadAt(pctx, p, off); err != nil {
		t.Fatal(err)
	}
	if len(counts) == 0 || counts[len(counts)-1] != len(p) {
		t.Fatalf("counts %v: want them to end at %d", counts, len(p))
	}
	prev := 0
	for _, n := range counts {
		if n <= prev || n-prev > ProgressStep {
			t.Fatalf("counts %v: want growth of 1 to %d bytes a report", counts, ProgressStep)
		}
		prev = n
	}
	// Without a progress function nothing changes.
	if err := obj.ReadAt(ctx, p, off); err != nil || !bytes.Equal(p, data[off:]) {
		t.Fatalf("plain read: %v", err)
	}
}
