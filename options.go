package lance

import (
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/internal/dataset"
	"github.com/lancego/lancego/internal/fileread"
	lanceio "github.com/lancego/lancego/io"
	"github.com/lancego/lancego/scheduler"
	"github.com/lancego/lancego/searchcache"
)

// Option configures how Open, OpenLegacy, OpenDataset and OpenSplit read:
// the tail read, page fetching, buffer allocation, object-store access
// (WithIOConfig), the I/O scheduler and request limits shared between
// files (WithScheduler, WithLimiter), the metadata cache (WithCache) and,
// for a dataset, the version (WithVersion). For a dataset the options
// apply to every data file it opens. Build options with the With*
// functions below; a nil Option does nothing.
type Option func(*openConfig)

// openConfig collects the reader options of an open.
type openConfig struct{ opts []fileread.Option }

// readOpt makes an Option of a reader option.
func readOpt(o fileread.Option) Option {
	return func(c *openConfig) { c.opts = append(c.opts, o) }
}

// readOpts converts root options to the reader's, skipping nil ones.
func readOpts(opts []Option) []fileread.Option {
	var c openConfig
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c.opts
}

// DefaultSmallPageSize is the size up to which a page is fetched whole
// (metadata and data in one request) the first time it is used (64 KiB).
const DefaultSmallPageSize = fileread.DefaultSmallPageSize

// DefaultBufferPoolBytes bounds the released output buffers a File keeps
// for reuse by its later batches when no allocator is given (see
// WithAllocator; 32 MiB).
const DefaultBufferPoolBytes = fileread.DefaultBufferPoolBytes

// NewBufferPool returns an Arrow allocator that keeps up to maxBytes of
// released buffers (16 KiB to 256 MiB) for reuse, safe for concurrent use.
// Give one to every File a process opens (WithAllocator) so that the
// batches of any File decode into the buffers released by the others: a
// service opening a file per query then reuses memory across queries as
// it does within one File's scan.
func NewBufferPool(maxBytes int) memory.Allocator { return fileread.NewBufferPool(maxBytes) }

// WithTailSize sets the size of the speculative tail read at open
// (DefaultTailSize; values below 40 bytes are ignored). A tail that holds
// the whole metadata opens a file with one request.
func WithTailSize(n uint64) Option { return readOpt(fileread.WithTailSize(n)) }

// WithSmallPageSize sets the size up to which a page is fetched whole on
// first use (DefaultSmallPageSize); 0 disables it.
func WithSmallPageSize(n uint64) Option { return readOpt(fileread.WithSmallPageSize(n)) }

// WithAllocator sets the allocator of the buffers the reader builds for
// Arrow output: validity bitmaps, offsets and the values of fixed-width
// columns (strings and values decoded in place are plain Go memory handed
// to Arrow without a copy). Released arrays give their buffers back to it.
//
// By default each File has its own pool keeping up to
// DefaultBufferPoolBytes of released buffers, so a scan whose caller
// releases each batch decodes the next ones into the same memory instead
// of allocating per batch. As with any Arrow allocator, an array's memory
// must not be used after its last Release.
func WithAllocator(mem memory.Allocator) Option { return readOpt(fileread.WithAllocator(mem)) }

// WithIOConfig sets the object-store access configuration (credentials,
// endpoint, region, retries, HTTP client, request statistics; see
// lanceio.Config) used to open the file or dataset.
func WithIOConfig(cfg lanceio.Config) Option { return readOpt(fileread.WithIOConfig(cfg)) }

// WithScheduler makes the file read through s, shared with other files
// (one coalescing and in-flight budget for all). The caller closes s after
// the files.
func WithScheduler(s *scheduler.Scheduler) Option { return readOpt(fileread.WithScheduler(s)) }

// WithSchedulerConfig sets the configuration of the file's own scheduler
// (ignored with WithScheduler). The default is scheduler.LocalConfig for
// local files and scheduler.ObjectStoreConfig otherwise.
func WithSchedulerConfig(sc scheduler.Config) Option {
	return readOpt(fileread.WithSchedulerConfig(sc))
}

// WithLimiter shares one process-wide request limit between files (see
// scheduler.NewLimiter); it applies to the file's own scheduler.
func WithLimiter(l *scheduler.Limiter) Option { return readOpt(fileread.WithLimiter(l)) }

// WithCache shares one search cache (initialization metadata of pages)
// between files; by default each file has its own, bounded by
// searchcache.DefaultMaxBytes. A service opening the same files again and
// again keeps their metadata warm this way.
func WithCache(cache *searchcache.Cache) Option { return readOpt(fileread.WithCache(cache)) }

// WithVersion makes OpenDataset open version v instead of the latest.
// Opening a given version lists nothing: it reads the manifest directly.
// A version the dataset does not have fails with ErrVersionNotFound.
func WithVersion(v uint64) Option { return readOpt(dataset.WithVersion(v)) }

// WithTag makes OpenDataset open the version tag name refers to (one read
// of _refs/tags/{name}.json, then the manifest; pylance's
// lance.dataset(uri, version="name")). A missing tag fails with
// ErrTagNotFound; WithTag and WithVersion together with ErrInvalidArgument.
func WithTag(name string) Option { return readOpt(dataset.WithTag(name)) }
