package lance

// Option configures Open.
type Option func(*config)

type config struct {
	tailSize uint64
}

func defaultConfig() config {
	return config{tailSize: DefaultTailSize}
}

// WithTailSize sets the size of the speculative tail read at open.
func WithTailSize(n uint64) Option {
	return func(c *config) {
		if n >= 40 {
			c.tailSize = n
		}
	}
}
