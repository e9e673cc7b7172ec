//go:build !unix

package lanceio

import (
	"errors"
	"os"
)

// mapFile reports that this platform has no memory map here: local files
// are read with ReadAt only.
func mapFile(*os.File, int) ([]byte, error) { return nil, errors.New("not on this platform") }

func unmapFile([]byte) error { return nil }
