//go:build !unix

package bench

import "time"

// processCPU is not measured on this platform.
func processCPU() time.Duration { return 0 }

// pidCPU is not available on this platform.
func pidCPU(int) (time.Duration, bool) { return 0, false }
