package dataset

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/internal/fileread"
	lanceio "github.com/lancego/lancego/io"
)

// dataFile opens (once) the data file df of a fragment, sharing the
// dataset's scheduler, search cache and allocator.
func (ds *Dataset) dataFile(ctx context.Context, df *DataFile) (*fileread.File, error) {
	key := DataDir + "/" + df.Path
	if df.HasBase {
		bp := ds.man.BasePaths[df.BaseID]
		if bp != nil && !bp.GetIsDatasetRoot() {
			key = df.Path
		}
	}
	url, err := ds.fileURL(df.HasBase, df.BaseID, key)
	if err != nil {
		return nil, ds.errf(ds.man.Version, key, err)
	}
	id := key
	if url != "" {
		id = url
	}
	ds.mu.Lock()
	e := ds.files[id]
	if e == nil {
		e = &dsFile{}
		ds.files[id] = e
	}
	ds.mu.Unlock()
	e.once.Do(func() {
		e.f, e.err = ds.openDataFile(ctx, key, url, df)
		e.ready.Store(e.f)
	})
	if e.err != nil {
		err := e.err
		if isContextErr(err) { // let a later call try again
			ds.mu.Lock()
			if ds.files[id] == e {
				delete(ds.files, id)
			}
			ds.mu.Unlock()
		}
		return nil, err
	}
	return e.f, nil
}

func isContextErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// wholeFileSize is the size up to which a data file whose size the
// manifest records is read whole when opened: one request instead of a
// tail read and then page metadata and data requests.
const wholeFileSize = 256 << 10

// openDataFile opens a data file with one tail read, of the whole file
// when the manifest says it is small (size 0: unknown). A legacy (v1)
// file is read with the manifest's fields, not the schema its writer
// embedded, which predates later schema evolution.
func (ds *Dataset) openDataFile(ctx context.Context, key, url string, df *DataFile) (*fileread.File, error) {
	size := df.Size
	var (
		obj  lanceio.Object
		tail []byte
		err  error
	)
	n := int64(ds.cfg.TailSize)
	if size > uint64(n) && size <= wholeFileSize {
		n = int64(size)
	}
	if url == "" {
		url = ds.store.URL(key)
		obj, tail, err = ds.store.OpenTail(ctx, key, n)
	} else {
		obj, tail, err = lanceio.OpenTail(ctx, url, n, ds.cfg.IO)
	}
	if err != nil {
		return nil, ds.errf(ds.man.Version, key, err)
	}
	var f *fileread.File
	if fileread.IsLegacyTail(tail) { // the footer says; manifests before 0.16 record 2.0 files as 0.3 and legacy ones as 0.0
		f, err = ds.openLegacyFile(ctx, url, obj, tail, df)
	} else {
		f, err = fileread.OpenObject(ctx, url, obj, tail, ds.sched, ds.cfg)
	}
	if err != nil {
		_ = obj.Close()
		return nil, fmt.Errorf("lance: dataset %s version %d: %w", ds.url, ds.man.Version, unprefixed{err})
	}
	return f, nil
}

// openLegacyFile opens a legacy data file with the manifest fields it
// stores and the page table's field id range its entry gives.
func (ds *Dataset) openLegacyFile(ctx context.Context, url string, obj lanceio.Object, tail []byte, df *DataFile) (*fileread.File, error) {
	lo, hi, ok := df.LegacyIDRange()
	if !ok {
		return nil, fmt.Errorf("open %s: %w: legacy data file lists no field ids in ascending order", url, format.ErrCorrupt)
	}
	f, err := fileread.OpenLegacyObject(ctx, url, obj, tail, ds.sched, FieldsOf(ds.man.Fields, df.Fields), &[2]int32{lo, hi}, ds.cfg)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", url, err)
	}
	return f, nil
}

// unprefixed is an error shown without its "lance: " prefix (it is wrapped
// in one that has it), still unwrapping to the original.
type unprefixed struct{ err error }

func (u unprefixed) Error() string { return strings.TrimPrefix(u.err.Error(), "lance: ") }
func (u unprefixed) Unwrap() error { return u.err }

// Stats returns the I/O and cache counters of every read of the dataset
// so far: the manifest, listings, deletion files and all data files.
func (ds *Dataset) Stats() fileread.Stats {
	var s fileread.Stats
	io := ds.cfg.IO.Stats.Snapshot()
	s.Requests, s.BytesRead, s.Retries, s.Failures = io.Requests, io.Bytes, io.Retries, io.Failures
	s.LatencyBuckets = io.Latency
	for i, d := range lanceio.LatencyBounds() {
		s.LatencyBoundsMillis[i] = float64(d.Microseconds()) / 1000
	}
	ss := ds.sched.Stats()
	s.BytesRequested, s.BytesUsed, s.Coalesced = ss.BytesRequested, ss.BytesUsed, ss.Coalesced
	s.RoundTrips, s.Operations = ss.RoundTrips, ss.Operations
	s.LinkBandwidth = ss.LinkBandwidth
	ds.mu.Lock()
	defer ds.mu.Unlock()
	for _, e := range ds.files {
		if f := e.ready.Load(); f != nil {
			fileread.AddCounters(f, &s)
		}
	}
	return s
}
