//go:build unix

package bench

import "syscall"

// settle flushes written files to disk before a step: the data and write
// steps leave ~1 GB of dirty pages (the data sets, both engines' Lance
// files, Parquet), whose writeback otherwise runs on this 2-core machine
// during the next step's first timed runs.
func settle() { syscall.Sync() }
