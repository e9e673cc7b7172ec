package lance

import (
	"fmt"

	"github.com/lancego/lancego/format"
)

// DefaultWriteVersion is the file version written when WithFileVersion is
// not given. It matches pylance 14.0.2's LanceFileWriter default (2.2).
const DefaultWriteVersion = "2.2"

// DefaultPageBudget is the number of bytes of Arrow input buffered per
// top-level column before a page is written (Lance: 8 MiB per column).
const DefaultPageBudget = 8 << 20

// WriterOption configures Create.
type WriterOption func(*writerConfig) error

// writerConfig holds the options of a Writer.
type writerConfig struct {
	version    format.Version
	pageBudget int64
	env        func(string) string // environment lookup (os.Getenv by default)
	create     ObjectCreator       // destination for non-local URLs
	zoneSeeds  *zoneSeedConfig     // WithZoneSeeds (zones_write.go), or nil
}

// WithFileVersion selects the Lance file version to write: "2.1" or "2.2"
// ("stable" means 2.1 like Lance's LanceDB default is not accepted here to
// avoid ambiguity).
func WithFileVersion(v string) WriterOption {
	return func(c *writerConfig) error {
		switch v {
		case "2.1":
			c.version = format.V2_1
		case "2.2":
			c.version = format.V2_2
		default:
			return fmt.Errorf("%w: file version %q (want 2.1 or 2.2)", ErrInvalidArgument, v)
		}
		return nil
	}
}

// WithPageBudget sets how many bytes of Arrow input are buffered per
// top-level column before its pages are encoded and written (default 8 MiB).
func WithPageBudget(n int64) WriterOption {
	return func(c *writerConfig) error {
		if n <= 0 {
			return fmt.Errorf("%w: page budget %d", ErrInvalidArgument, n)
		}
		c.pageBudget = n
		return nil
	}
}

// WithEnv replaces the environment lookup used for LANCE_ENCODING_DICT_* and
// LANCE_MINIBLOCK_MAX_VALUES (default os.Getenv); useful in tests.
func WithEnv(lookup func(string) string) WriterOption {
	return func(c *writerConfig) error {
		c.env = lookup
		return nil
	}
}
