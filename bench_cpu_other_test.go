//go:build !unix

package lance

import "time"

// cpuNow is not measured here: cpu-ns/op reports 0.
func cpuNow() time.Duration { return 0 }
