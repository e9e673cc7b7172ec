package fileread

import (
	"context"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/format/pb/file2pb"
)

// Streamed pages. On an object store a page's bytes arrive over tens of
// milliseconds; decoding only once the last byte is in put the whole
// decode after the transfer. A mini-block page whose data buffer comes
// after every other buffer of the page (its chunk table first; no
// dictionary or repetition index behind the data) is instead decoded as
// it arrives: the scan builds the page's state once the bytes before the
// data buffer are in (scheduler.Pending.WaitPrefix), and each piece of a
// batch waits only for the chunks it decodes. Pages small enough to stay
// resident (Config.SmallPage) are read whole, as before.

// streamable reports whether page pg (buffers bufs, spanning span) is
// decoded while it arrives, and where its data buffer starts in the span.
func (c *scanCache) streamable(pg *file2pb.ColumnMetadata_Page, bufs []format.Range, span format.Range) (bool, uint64) {
	if c.waveMax == 0 || span.Length <= c.f.cfg.SmallPage {
		return false, 0 // not an object store, or resident
	}
	layout := pageLayoutOf(pg)
	if layout.GetMiniBlockLayout() == nil {
		return false, 0
	}
	d := dataBuffer(layout)
	if d < 0 || d >= len(bufs) || bufs[d].Length == 0 {
		return false, 0
	}
	for j, b := range bufs {
		if j != d && b.Offset+b.Length > bufs[d].Offset {
			return false, 0 // a buffer the state needs comes after the data
		}
	}
	return true, bufs[d].Offset - span.Offset
}

// await waits until the page's data bytes before end (an offset in the
// data buffer) have arrived; a no-op for pages that are not streamed.
func (sp *scanPage) await(ctx context.Context, end uint64) error {
	if sp == nil || !sp.streamed || sp.fetch() == nil {
		return nil
	}
	_, err := sp.fetch().WaitPrefix(ctx, sp.rangeIndex(), int64(sp.dataAt+end))
	if err == nil && sp.span.Length >= farAheadMinPage && sp.dataAt+end >= sp.span.Length/2 {
		sp.farAhead(ctx)
	}
	return err
}

// Read-ahead as pages arrive. A column's read-ahead is requested when the
// scan reaches a page, and the pages requested together share the link and
// arrive together, so each wave of read-ahead began a round trip after the
// previous one had landed, leaving the link idle that long (a 133 MB
// full-zip column behind 100 ms: five idle round trips). Once half of a
// page of at least farAheadMinPage bytes is in, the pages after it are
// requested up to twice the read-ahead, so the next wave is on its way
// while this one lands; the first wave stays one read-ahead, so the first
// batch comes as soon as before.
const farAheadMinPage = 1 << 20

// halfIn waits, for a page read whole of at least farAheadMinPage bytes,
// until half of it is in, and then reads far ahead (streamed pages do in
// await).
func (sp *scanPage) halfIn(ctx context.Context) {
	p := sp.fetch()
	if sp.streamed || p == nil || sp.span.Length < farAheadMinPage || sp.far.Load() {
		return
	}
	if _, err := p.WaitPrefix(ctx, sp.rangeIndex(), int64(sp.span.Length/2)); err == nil {
		sp.farAhead(ctx)
	}
}

// farAhead requests, once, the pages after sp up to twice the read-ahead.
func (sp *scanPage) farAhead(ctx context.Context) {
	c := sp.cache
	if c == nil || !sp.far.CompareAndSwap(false, true) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.submitPages(ctx, c.reserveWithin(sp.col, sp.index, nil, 2*c.aheadMax))
}
