//go:build !unix

package fileread

import "testing"

// readOnlyCopy returns b: this platform's tests do not protect it.
func readOnlyCopy(_ testing.TB, b []byte) []byte { return b }
