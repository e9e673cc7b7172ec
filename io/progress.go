package lanceio

import (
	"context"
	"io"
)

// Progressive reads. A caller that can use the first bytes of a long read
// before the last arrive (a scan decoding a page's first chunks while the
// rest streams) attaches a progress function to the read's context; an
// object whose reads arrive over a network calls it, from the reading
// goroutine, with the number of bytes of p filled so far, at least every
// ProgressStep bytes and once more when p is full. The count only grows
// (a resumed body continues it). Bytes below the count stay as they are
// until the read returns. Objects that fill p at once (local files) do
// not call it; ReadAt's return still says the read is complete.

// ProgressStep is how many new bytes a progressive read reports at a
// time: fine enough that a decoder waits about a millisecond at 200 MB/s,
// coarse enough that a 16 MiB read makes 64 calls.
const ProgressStep = 256 << 10

// ReadProgress is told how many bytes of a read's buffer are filled.
type ReadProgress func(filled int)

type progressKey struct{}

// WithReadProgress returns ctx carrying fn for the reads made with it.
func WithReadProgress(ctx context.Context, fn ReadProgress) context.Context {
	return context.WithValue(ctx, progressKey{}, fn)
}

// ReadProgressOf returns the progress function ctx carries, or nil: for
// Object implementations outside this package that read progressively.
func ReadProgressOf(ctx context.Context) ReadProgress {
	fn, _ := ctx.Value(progressKey{}).(ReadProgress)
	return fn
}

// readFullProgress is io.ReadFull that reports, when notify is not nil,
// base plus the bytes filled after every ProgressStep and at the end.
func readFullProgress(r io.Reader, p []byte, base int, notify ReadProgress) (int, error) {
	if notify == nil {
		return io.ReadFull(r, p)
	}
	filled := 0
	for filled < len(p) {
		n, err := io.ReadFull(r, p[filled:min(filled+ProgressStep, len(p))])
		filled += n
		if n > 0 {
			notify(base + filled)
		}
		if err != nil {
			return filled, err
		}
	}
	return filled, nil
}
