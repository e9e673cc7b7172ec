package bench

import "time"

// ProcessCPU is the CPU time (user + system, all threads) this process
// has used; 0 where it is not measured.
func ProcessCPU() time.Duration { return processCPU() }
