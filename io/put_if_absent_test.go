package lanceio_test

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	lanceio "github.com/lancego/lancego/io"
)

// testPutIfAbsent races 8 conditional creates of one key: exactly one
// wins, the others get ErrExists, and the object holds the winner's bytes.
func testPutIfAbsent(t *testing.T, s *lanceio.Store) {
	ctx := context.Background()
	if !s.CanPutIfAbsent() {
		t.Fatal("CanPutIfAbsent is false")
	}
	key := fmt.Sprintf("pia/%d/k", time.Now().UnixNano())
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.PutIfAbsent(ctx, key, fmt.Appendf(nil, "writer %d", i))
		}()
	}
	wg.Wait()
	winner := -1
	for i, err := range errs {
		switch {
		case err == nil && winner >= 0:
			t.Fatalf("writers %d and %d both created %s", winner, i, key)
		case err == nil:
			winner = i
		case !errors.Is(err, lanceio.ErrExists):
			t.Fatalf("writer %d: %v, want ErrExists", i, err)
		}
	}
	if winner < 0 {
		t.Fatal("no writer won")
	}
	o, err := s.Open(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	b, err := lanceio.ReadTail(ctx, o, o.Size())
	if err != nil || string(b) != fmt.Sprintf("writer %d", winner) {
		t.Fatalf("object holds %q (%v), want writer %d", b, err, winner)
	}
	if err := s.PutIfAbsent(ctx, key, []byte("late")); !errors.Is(err, lanceio.ErrExists) {
		t.Fatalf("late put: %v", err)
	}
}

func TestPutIfAbsentLocal(t *testing.T) {
	testPutIfAbsent(t, openStore(t, t.TempDir(), lanceio.Config{}))
}

// TestPutIfAbsentS3 checks that the S3 server honours If-None-Match: *
// (versitygw v1.8.0 in CI does).
func TestPutIfAbsentS3(t *testing.T) {
	testPutIfAbsent(t, openStore(t, s3URL(t), lanceio.Config{}))
}

func TestPutIfAbsentUnsupported(t *testing.T) {
	s := lanceio.NewMemStore(lanceio.Config{})
	defer s.Close()
	if s.CanPutIfAbsent() {
		t.Fatal("mem store claims conditional writes")
	}
	if err := s.PutIfAbsent(context.Background(), "k", nil); !errors.Is(err, lanceio.ErrUnsupported) {
		t.Fatalf("mem put-if-absent: %v, want ErrUnsupported", err)
	}
}

// TestPutIfAbsentGCS checks ifGenerationMatch=0 (fake-gcs-server in CI).
func TestPutIfAbsentGCS(t *testing.T) {
	testPutIfAbsent(t, openStore(t, gcsURL(t), lanceio.Config{}))
}

// TestPutIfAbsentAzure checks If-None-Match: * on Azure block blobs
// (Azurite in CI).
func TestPutIfAbsentAzure(t *testing.T) {
	ep := os.Getenv("LANCE_TEST_AZURE_ENDPOINT") // e.g. 127.0.0.1:10000
	if ep == "" || os.Getenv("AZURE_STORAGE_ACCOUNT") == "" {
		t.Skip("LANCE_TEST_AZURE_ENDPOINT / AZURE_STORAGE_ACCOUNT not set")
	}
	createAzureContainer(t, ep, "lance-test")
	testPutIfAbsent(t, openStore(t, "azblob://lance-test?protocol=http&localemu=true&domain="+url.QueryEscape(ep), lanceio.Config{}))
}
