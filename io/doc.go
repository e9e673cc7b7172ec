// Package lanceio is the one read primitive lancego uses to reach bytes:
// an Object read with ReadAt(ctx, p, off), which returns exactly len(p)
// bytes or an error, safe for concurrent use.
//
// Objects come from a Store (a local directory, an in-memory bucket, or an
// S3, GCS or Azure bucket reached through gocloud.dev) or from Open, which
// opens the store for one URL and ties its lifetime to the Object.
//
// Supported URL forms:
//
//	/abs/path/file.lance, rel/path, file:///abs/path  local files (pread)
//	mem://key                                          fresh in-memory bucket (see NewMemStore)
//	s3://bucket/key?endpoint=...&use_path_style=true&region=...
//	gs://bucket/key                                    STORAGE_EMULATOR_HOST is honoured
//	azblob://container/key?protocol=http&domain=127.0.0.1:10000
//
// Reads against object stores are retried with exponential backoff and full
// jitter for throttling and transient faults (5xx, 429, resets, timeouts,
// truncated bodies: the missing remainder is re-requested), never for other
// 4xx. Errors are classified with errors.Is against the sentinels in
// errors.go (ErrNotFound, ErrThrottled, ErrCanceled, ...).
package lanceio
