package lance

import "github.com/apache/arrow-go/v18/arrow/memory"

// Option configures Open.
type Option func(*config)

type config struct {
	tailSize uint64
	mem      memory.Allocator
}

func defaultConfig() config {
	return config{tailSize: DefaultTailSize, mem: memory.DefaultAllocator}
}

// WithAllocator sets the allocator of the buffers the reader builds for
// Arrow output (validity bitmaps, offsets). Value buffers decoded in place
// are plain Go memory handed to Arrow without a copy.
func WithAllocator(mem memory.Allocator) Option {
	return func(c *config) {
		if mem != nil {
			c.mem = mem
		}
	}
}

// WithTailSize sets the size of the speculative tail read at open.
func WithTailSize(n uint64) Option {
	return func(c *config) {
		if n >= 40 {
			c.tailSize = n
		}
	}
}
