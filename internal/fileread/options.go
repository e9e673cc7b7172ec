package fileread

import (
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lancego/lancego/internal/bufpool"
	lanceio "github.com/lancego/lancego/io"
	"github.com/lancego/lancego/scheduler"
	"github.com/lancego/lancego/searchcache"
)

// Option configures Open (and, through internal/dataset, OpenDataset).
type Option func(*Config)

// Config is what the options set. Its fields are exported for
// internal/dataset, which opens data files with a dataset's Config; users
// set it through the With* options only.
type Config struct {
	TailSize  uint64               // WithTailSize
	SmallPage uint64               // WithSmallPageSize
	Mem       memory.Allocator     // WithAllocator; nil: a per-File buffer pool
	IO        lanceio.Config       // WithIOConfig
	Sched     *scheduler.Scheduler // WithScheduler; nil: the file's own
	SchedCfg  *scheduler.Config    // WithSchedulerConfig
	Limiter   *scheduler.Limiter   // WithLimiter
	Cache     *searchcache.Cache   // WithCache; nil: the file's own
	Version   uint64               // OpenDataset: the version to open, 0 = latest
	Tag       string               // OpenDataset: the tag whose version to open (WithTag)
}

// DefaultSmallPageSize is the size up to which a page is fetched whole
// (metadata and data in one request) the first time it is used.
const DefaultSmallPageSize = 64 << 10

// DefaultBufferPoolBytes bounds the released output buffers a File keeps
// for reuse by its later batches when no allocator is given (see
// WithAllocator).
const DefaultBufferPoolBytes = 32 << 20

// NewBufferPool returns an Arrow allocator that keeps up to maxBytes of
// released buffers (16 KiB to 256 MiB) for reuse, safe for concurrent use.
// Give one to every File a process opens (WithAllocator) so that the
// batches of any File decode into the buffers released by the others: a
// service opening a file per query then reuses memory across queries as
// it does within one File's scan.
func NewBufferPool(maxBytes int) memory.Allocator { return bufpool.New(maxBytes) }

// DefaultConfig is the configuration before options. It leaves Mem nil:
// each File then gets its own buffer pool.
func DefaultConfig() Config {
	return Config{TailSize: DefaultTailSize, SmallPage: DefaultSmallPageSize}
}

// WithTailSize sets the size of the speculative tail read at open.
func WithTailSize(n uint64) Option {
	return func(c *Config) {
		if n >= 40 {
			c.TailSize = n
		}
	}
}

// WithSmallPageSize sets the size up to which a page is fetched whole on
// first use; 0 disables it.
func WithSmallPageSize(n uint64) Option { return func(c *Config) { c.SmallPage = n } }

// WithAllocator sets the allocator of the buffers the reader builds for
// Arrow output: validity bitmaps, offsets and the values of fixed-width
// columns (strings and values decoded in place are plain Go memory handed
// to Arrow without a copy). Released arrays give their buffers back to it.
//
// By default each File has its own pool (internal/bufpool) keeping up to
// DefaultBufferPoolBytes of released buffers, so a scan whose caller
// releases each batch decodes the next ones into the same memory instead
// of allocating per batch. As with any Arrow allocator, an array's memory
// must not be used after its last Release.
func WithAllocator(mem memory.Allocator) Option {
	return func(c *Config) {
		if mem != nil {
			c.Mem = mem
		}
	}
}

// WithIOConfig sets the object-store access configuration (retries, HTTP
// client, stats) used to open the file.
func WithIOConfig(cfg lanceio.Config) Option { return func(c *Config) { c.IO = cfg } }

// WithScheduler makes the file read through s, shared with other files.
// The caller closes s after the files.
func WithScheduler(s *scheduler.Scheduler) Option { return func(c *Config) { c.Sched = s } }

// WithSchedulerConfig sets the configuration of the file's own scheduler
// (ignored with WithScheduler). The default is scheduler.LocalConfig for
// local files and scheduler.ObjectStoreConfig otherwise.
func WithSchedulerConfig(sc scheduler.Config) Option { return func(c *Config) { c.SchedCfg = &sc } }

// WithLimiter shares one process-wide request limit between files (see
// scheduler.NewLimiter); it applies to the file's own scheduler.
func WithLimiter(l *scheduler.Limiter) Option { return func(c *Config) { c.Limiter = l } }

// WithCache shares one search cache (initialization metadata of pages)
// between files; by default each file has its own, bounded by
// searchcache.DefaultMaxBytes.
func WithCache(cache *searchcache.Cache) Option { return func(c *Config) { c.Cache = cache } }
