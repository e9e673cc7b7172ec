package zonestats

import "errors"

// Sentinel errors. Every error returned by this package wraps one of them,
// so callers can test the class with errors.Is; the message adds the detail
// (for validation failures, the rule id of the spec checklist, e.g. "C1").
var (
	// ErrInvalidSeed reports a seed or locator that breaks a rule of the
	// zone-seed specification. A seed that fails validation must never be
	// used to prune.
	ErrInvalidSeed = errors.New("zonestats: invalid seed")

	// ErrUnsupportedVersion reports a seed whose "version" metadata is
	// neither absent (version 0) nor "1" (rule L3).
	ErrUnsupportedVersion = errors.New("zonestats: unsupported seed version")

	// ErrInvalidConfig reports a Config value out of range.
	ErrInvalidConfig = errors.New("zonestats: invalid config")

	// ErrMismatch reports inputs that do not fit together: seeds of
	// different types merged, or a zone layout that does not cover the
	// same rows.
	ErrMismatch = errors.New("zonestats: mismatched input")

	// ErrOverflow reports a count that no longer fits in 64 bits while
	// aggregating.
	ErrOverflow = errors.New("zonestats: count overflow")

	// ErrClosed reports use of a Collector after Finish.
	ErrClosed = errors.New("zonestats: collector finished")
)
