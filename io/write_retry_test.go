package lanceio_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	lanceio "github.com/lancego/lancego/io"
)

// TestS3WriteRetriesFollowConfig checks that S3 writes (Create, Delete,
// PutIfAbsent) retry as the store's configuration says: MaxAttempts
// attempts in all, paced by BaseDelay/MaxDelay (a 1 ms cap here, where the
// SDK's own backoff would wait up to seconds), and then fail with the
// class of the last fault.
func TestS3WriteRetriesFollowConfig(t *testing.T) {
	faultStore(t) // sets the fake credentials
	for _, attempts := range []int{1, 3, 5} {
		in := &injector{base: http.DefaultTransport}
		cfg := lanceio.Config{HTTPClient: &http.Client{Transport: in}, MaxAttempts: attempts, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}
		u := "s3://b?region=us-east-1&use_path_style=true&endpoint=http://127.0.0.1:1"
		s := openStore(t, u, cfg)
		ctx := context.Background()
		for _, tc := range []struct {
			name  string
			fault fault
			class error
			write func() error
		}{
			{"put-if-absent", slowDown, lanceio.ErrThrottled, func() error { return s.PutIfAbsent(ctx, "k", []byte("x")) }},
			{"create", reset, lanceio.ErrTransient, func() error {
				w, err := s.Create(ctx, "k")
				if err != nil {
					return err
				}
				_, _ = w.Write([]byte("x"))
				return w.Close()
			}},
			{"delete", serverError, lanceio.ErrTransient, func() error { return s.Delete(ctx, "k") }},
		} {
			in.mu.Lock()
			in.script, in.urls = nil, nil
			for range attempts + 5 {
				in.script = append(in.script, tc.fault)
			}
			in.mu.Unlock()
			start := time.Now()
			err := tc.write()
			in.mu.Lock()
			n := len(in.urls)
			in.mu.Unlock()
			if !errors.Is(err, tc.class) || n != attempts {
				t.Fatalf("%s, MaxAttempts %d: %d requests, err %v; want %d and %v", tc.name, attempts, n, err, attempts, tc.class)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Fatalf("%s: %d attempts took %v", tc.name, attempts, d)
			}
			if !strings.Contains(err.Error(), "/k") {
				t.Fatalf("%s: %v does not name the key", tc.name, err)
			}
		}
	}
}
