package fileread

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/format/pb/filepb"
	lanceio "github.com/lancego/lancego/io"
	"github.com/lancego/lancego/scheduler"
)

// The engine calls a dataset makes on its data files. They are functions,
// not methods, so that they stay out of lance.File's method set (the root
// package's File is this package's).

// OpenObject opens a 2.x file from an object its caller opened, with its
// last bytes already read (tail), reading through sched: how a dataset
// opens its data files with one tail read and one shared scheduler. The
// File owns obj from then on (Close closes it) but not sched.
func OpenObject(ctx context.Context, url string, obj lanceio.Object, tail []byte, sched *scheduler.Scheduler, cfg Config) (*File, error) {
	src := &objectSource{obj: obj, sched: sched, key: obj.Identity().String()}
	return newFileFromTail(ctx, url, withTail(src, tail), tail, cfg)
}

// OpenLegacyObject is OpenObject for a legacy (v1) file (IsLegacyTail)
// read with the given fields (a dataset's, not the schema its writer
// embedded) and the field id range of its page table (ids[0] to ids[1];
// nil: that of fields).
func OpenLegacyObject(ctx context.Context, url string, obj lanceio.Object, tail []byte, sched *scheduler.Scheduler,
	fields []*filepb.Field, ids *[2]int32, cfg Config) (*File, error) {
	src := &objectSource{obj: obj, sched: sched, key: obj.Identity().String()}
	return newLegacyFileIDs(ctx, url, withTail(src, tail), tail, fields, ids, cfg)
}

// TakeFields reads rows ranges (nrows in all, in the order of ranges) of
// the top-level fields cols of f into out, one array per field: a take.
// It first initializes, in one round, the pages the rows touch (and the
// rest of a column's pages when that is cheap), reading the touched pages
// whole when the cost model says that saves a round trip and ctx carries
// a take budget (WithTakeBudget; take_whole.go).
func TakeFields(ctx context.Context, f *File, cols []int, ranges []RowRange, nrows uint64, out []arrow.Array) error {
	ctx, err := f.warmForTake(ctx, cols, ranges)
	if err != nil {
		return err
	}
	return f.readFields(ctx, cols, ranges, nrows, nil, out)
}

// SurvivingRows returns the rows of [from, to) of f in zones its zone
// seeds do not prove empty under pred, as sorted, merged ranges (strict:
// an invalid seed is an error, else ignored).
func SurvivingRows(ctx context.Context, f *File, pred *expr.Predicate, from, to uint64, strict bool) ([]RowRange, error) {
	return f.survivingRows(ctx, pred, from, to, strict)
}

// ZoneMask returns, per zone of f, whether its zone seeds leave rows that
// may match pred (false: proven empty), and the rows per zone; a nil mask
// when no seed covers pred's columns. It does not count zones in Stats.
func ZoneMask(ctx context.Context, f *File, pred *expr.Predicate, strict bool) ([]bool, uint64, error) {
	return f.zoneMask(ctx, pred, strict)
}

// AddCounters adds f's own counters (page-metadata cache lookups, zone
// pruning) to s: a dataset's Stats sums those of its data files.
func AddCounters(f *File, s *Stats) {
	s.CacheHits += f.stats.cacheHits.Load()
	s.CacheMisses += f.stats.cacheMisses.Load()
	s.ZonesTotal += f.stats.zonesTotal.Load()
	s.ZonesPruned += f.stats.zonesPruned.Load()
	s.BytesSkipped += f.stats.bytesSkipped.Load()
}
