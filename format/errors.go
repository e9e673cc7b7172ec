package format

import (
	"errors"
	"fmt"

	"github.com/lancego/lancego/internal/lerr"
)

// ErrCorrupt reports bytes that contradict the Lance v2 container rules: a
// bad magic number, an offset or length outside the file, overlapping
// regions, undecodable protobuf metadata or an inconsistent schema.
//
// It is lerr.ErrCorrupt, the one corrupt-data sentinel of lancego: errors.Is
// matches it whichever package found the corruption.
var ErrCorrupt = lerr.ErrCorrupt

// ErrUnsupportedVersion reports a footer version this package does not
// read, including legacy v1 files (footer 0.1 / 0.2).
var ErrUnsupportedVersion = errors.New("format: unsupported Lance file version")

// ErrUnsupportedEncoding reports a page encoding that is valid Lance but not
// decodable by this package (2.0 ArrayEncoding, unknown layouts, indirect
// encodings that must be fetched first).
var ErrUnsupportedEncoding = errors.New("format: unsupported encoding")

// ErrInvalidArgument reports a caller error, such as a tail longer than the
// file or a column index out of range.
var ErrInvalidArgument = errors.New("format: invalid argument")

// formatError carries a message naming the offending file region, wraps a
// sentinel error (kind) and optionally an underlying cause.
type formatError struct {
	kind  error
	cause error
	msg   string
}

// Error implements error.
func (e *formatError) Error() string {
	if e.cause != nil {
		return "format: " + e.msg + ": " + e.cause.Error()
	}
	return "format: " + e.msg
}

// Unwrap exposes both the sentinel kind and the underlying cause to
// errors.Is and errors.As.
func (e *formatError) Unwrap() []error {
	if e.cause != nil {
		return []error{e.kind, e.cause}
	}
	return []error{e.kind}
}

// corruptf returns an error wrapping ErrCorrupt.
func corruptf(format string, args ...any) error {
	return &formatError{kind: ErrCorrupt, msg: fmt.Sprintf(format, args...)}
}

// corruptWrap returns an error wrapping ErrCorrupt and cause.
func corruptWrap(cause error, format string, args ...any) error {
	return &formatError{kind: ErrCorrupt, cause: cause, msg: fmt.Sprintf(format, args...)}
}

// unsupportedEncodingf returns an error wrapping ErrUnsupportedEncoding.
func unsupportedEncodingf(format string, args ...any) error {
	return &formatError{kind: ErrUnsupportedEncoding, msg: fmt.Sprintf(format, args...)}
}

// unsupportedVersionf returns an error wrapping ErrUnsupportedVersion.
func unsupportedVersionf(format string, args ...any) error {
	return &formatError{kind: ErrUnsupportedVersion, msg: fmt.Sprintf(format, args...)}
}

// invalidArgf returns an error wrapping ErrInvalidArgument.
func invalidArgf(format string, args ...any) error {
	return &formatError{kind: ErrInvalidArgument, msg: fmt.Sprintf(format, args...)}
}
