package lanceio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"syscall"

	"cloud.google.com/go/storage"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"gocloud.dev/gcerrors"
	"google.golang.org/api/googleapi"
)

// Sentinel errors. Every error returned by this package that has a known
// cause matches exactly one class with errors.Is; the underlying SDK error
// stays reachable with errors.As.
var (
	// ErrNotFound: the object (or bucket) does not exist.
	ErrNotFound = errors.New("lanceio: not found")
	// ErrPermission: the credentials may not access the object (401/403).
	ErrPermission = errors.New("lanceio: permission denied")
	// ErrThrottled: the store asked us to slow down (429, 503 SlowDown)
	// and retries did not help.
	ErrThrottled = errors.New("lanceio: throttled")
	// ErrTransient: a server or network fault (5xx, reset, timeout) that
	// persisted through all retries.
	ErrTransient = errors.New("lanceio: transient fault")
	// ErrShortRead: fewer bytes arrived than asked for (truncated body or an
	// object that shrank) and retries did not help.
	ErrShortRead = errors.New("lanceio: short read")
	// ErrOutOfRange: the requested range is not inside [0, Size()).
	ErrOutOfRange = errors.New("lanceio: range out of bounds")
	// ErrChanged: the object changed since it was opened (ETag mismatch).
	ErrChanged = errors.New("lanceio: object changed since open")
	// ErrCanceled: the caller's context was canceled or its deadline
	// passed. The error also matches context.Canceled or
	// context.DeadlineExceeded.
	ErrCanceled = errors.New("lanceio: canceled")
	// ErrClosed: the Object or Store was used after Close.
	ErrClosed = errors.New("lanceio: closed")
	// ErrInvalidURL: the URL cannot be parsed or names no object.
	ErrInvalidURL = errors.New("lanceio: invalid url")
	// ErrUnsupported: the URL scheme or operation is not supported.
	ErrUnsupported = errors.New("lanceio: unsupported")
	// ErrAborted: a Writer was aborted (explicitly or by its context).
	ErrAborted = errors.New("lanceio: write aborted")
)

// OpError describes a failed operation. It matches its Class and its cause
// with errors.Is / errors.As.
type OpError struct {
	Op       string // "read", "open", "create", ...
	URL      string // object URL
	Off, Len int64  // byte range for reads, else 0
	Attempts int    // attempts made (0 when no request was issued)
	Class    error  // one of the sentinels, nil if unclassified
	Err      error  // underlying cause
}

// Error implements error.
func (e *OpError) Error() string {
	s := fmt.Sprintf("lanceio: %s %s", e.Op, e.URL)
	if e.Len > 0 {
		s += fmt.Sprintf(" [%d,+%d)", e.Off, e.Len)
	}
	if e.Attempts > 1 {
		s += fmt.Sprintf(" after %d attempts", e.Attempts)
	}
	return s + ": " + e.Reason()
}

// Reason is what went wrong, without the operation and URL Error adds: a
// local file's error without the path it repeats ("no such file or
// directory", not "open /x: no such file or directory").
func (e *OpError) Reason() string {
	if e.Err == nil {
		return "unknown error"
	}
	var pe *fs.PathError
	if errors.As(e.Err, &pe) && pe.Err != nil {
		return pe.Err.Error()
	}
	return e.Err.Error()
}

// Unwrap exposes both the class and the cause to errors.Is / errors.As.
func (e *OpError) Unwrap() []error {
	if e.Class == nil || errors.Is(e.Err, e.Class) {
		return []error{e.Err}
	}
	return []error{e.Class, e.Err}
}

// classify maps an error from a backend to a sentinel class. parent is the
// caller's context: a context error is ErrCanceled only when the caller's
// own context is done; an expired per-attempt timeout is transient.
func classify(parent context.Context, err error) error {
	switch {
	case err == nil:
		return nil
	case parent.Err() != nil:
		return ErrCanceled
	case errors.Is(err, ErrShortRead), errors.Is(err, io.ErrUnexpectedEOF):
		return ErrShortRead
	case errors.Is(err, ErrOutOfRange), errors.Is(err, ErrClosed), errors.Is(err, ErrChanged):
		return knownClass(err)
	}
	if c := classifyStatus(err); c != nil {
		return c
	}
	if c := classifyGocloud(err); c != nil {
		return c
	}
	if c := classifyNet(err); c != nil {
		return c
	}
	return nil
}

func knownClass(err error) error {
	for _, c := range []error{ErrOutOfRange, ErrClosed, ErrChanged} {
		if errors.Is(err, c) {
			return c
		}
	}
	return nil
}

// classifyStatus looks for an HTTP status code in the SDK error chain.
func classifyStatus(err error) error {
	code := httpStatus(err)
	switch {
	case code == 0:
		return nil
	case code == http.StatusNotFound:
		return ErrNotFound
	case code == http.StatusUnauthorized, code == http.StatusForbidden:
		return ErrPermission
	case code == http.StatusPreconditionFailed:
		return ErrChanged
	case code == http.StatusRequestedRangeNotSatisfiable:
		return ErrOutOfRange
	case code == http.StatusTooManyRequests, code == http.StatusServiceUnavailable:
		return ErrThrottled
	case code == http.StatusRequestTimeout, code >= 500:
		return ErrTransient
	}
	return nil
}

func httpStatus(err error) int {
	var hs interface{ HTTPStatusCode() int } // smithy (S3)
	if errors.As(err, &hs) {
		return hs.HTTPStatusCode()
	}
	var ge *googleapi.Error
	if errors.As(err, &ge) {
		return ge.Code
	}
	var ae *azcore.ResponseError
	if errors.As(err, &ae) {
		return ae.StatusCode
	}
	return 0
}

func classifyGocloud(err error) error {
	if errors.Is(err, storage.ErrObjectNotExist) || errors.Is(err, storage.ErrBucketNotExist) {
		return ErrNotFound
	}
	switch gcerrors.Code(err) {
	case gcerrors.NotFound:
		return ErrNotFound
	case gcerrors.PermissionDenied:
		return ErrPermission
	case gcerrors.ResourceExhausted:
		return ErrThrottled
	case gcerrors.FailedPrecondition:
		return ErrChanged
	case gcerrors.Internal, gcerrors.DeadlineExceeded:
		return ErrTransient
	}
	return nil
}

func classifyNet(err error) error {
	var ne net.Error
	switch {
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNREFUSED),
		errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ECONNABORTED),
		errors.Is(err, io.EOF), errors.Is(err, context.DeadlineExceeded),
		errors.Is(err, http.ErrHandlerTimeout):
		return ErrTransient
	case errors.As(err, &ne) && ne.Timeout():
		return ErrTransient
	}
	var oe *net.OpError
	if errors.As(err, &oe) {
		return ErrTransient
	}
	return nil
}

// retryable reports whether a request that failed with class should be
// issued again.
func retryable(class error) bool {
	return class == ErrThrottled || class == ErrTransient || class == ErrShortRead
}

// canceledError wraps a context error so that it matches both ErrCanceled
// and the context error.
func canceledError(ctx context.Context) error {
	cause := context.Cause(ctx)
	if cause == nil {
		cause = context.Canceled
	}
	return fmt.Errorf("%w: %w", ErrCanceled, cause)
}
