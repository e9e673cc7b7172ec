package dataset

import (
	"context"
	"fmt"
	"strings"

	"github.com/lancego/lancego/format/pb/filepb"
	"github.com/lancego/lancego/indices"
	"github.com/lancego/lancego/internal/fileread"
	"google.golang.org/protobuf/encoding/protowire"
)

// Indices lists the dataset's indices, segments grouped by name, as
// pylance's describe_indices does: type, columns, and per segment the
// covered fragments and rows indexed (live rows of the covered fragments
// that exist). It reads the manifest file once (the manifest's bytes are not
// kept at open); a dataset without an index section reads nothing.
func (ds *Dataset) Indices(ctx context.Context) ([]indices.Index, error) {
	ms, err := ds.IndexMetadata(ctx)
	if err != nil || len(ms) == 0 {
		return nil, err
	}
	out := indices.Group(ms)
	names := fieldPaths(ds.man.Fields)
	for i := range out {
		x := &out[i]
		for _, id := range x.Fields {
			x.Columns = append(x.Columns, names[id])
		}
		for j := range x.Segments {
			x.Segments[j].RowsIndexed = ds.liveRowsIn(x.Segments[j].Fragments())
		}
	}
	return out, nil
}

// IndexMetadata decodes every IndexMetadata entry of the manifest's index
// section, in manifest order (nil when the dataset has no indices).
func (ds *Dataset) IndexMetadata(ctx context.Context) ([]indices.IndexMetadata, error) {
	obj, err := ds.store.Open(ctx, ds.manKey)
	if err != nil {
		return nil, ds.errf(ds.man.Version, ds.manKey, err)
	}
	defer obj.Close()
	size := obj.Size()
	if size > MaxManifestSize+FooterSize+(64<<20) {
		return nil, ds.errf(ds.man.Version, ds.manKey, fmt.Errorf("%w: manifest file of %d bytes", indices.ErrCorrupt, size))
	}
	b := make([]byte, size)
	if err := obj.ReadAt(ctx, b, 0); err != nil {
		return nil, ds.errf(ds.man.Version, ds.manKey, err)
	}
	off, ok, err := indexSectionOffset(size, b)
	if err != nil || !ok {
		return nil, ds.wrapIdx(err)
	}
	ms, err := indices.ParseIndexSection(b, off)
	return ms, ds.wrapIdx(err)
}

func (ds *Dataset) wrapIdx(err error) error {
	if err == nil {
		return nil
	}
	return ds.errf(ds.man.Version, ds.manKey, err)
}

// indexSectionOffset finds Manifest.index_section (field 6) in the manifest
// file b of size bytes.
func indexSectionOffset(size int64, b []byte) (uint64, bool, error) {
	pos, err := ManifestStart(size, b)
	if err != nil {
		return 0, false, err
	}
	body := b[pos+4 : len(b)-FooterSize]
	for off := 0; off < len(body); {
		num, typ, n := protowire.ConsumeTag(body[off:])
		if n < 0 {
			return 0, false, corruptf("manifest: bad tag at byte %d", off)
		}
		if num == 6 && typ == protowire.VarintType {
			v, m := protowire.ConsumeVarint(body[off+n:])
			if m < 0 {
				return 0, false, corruptf("manifest: bad index_section at byte %d", off)
			}
			return v, true, nil
		}
		m := protowire.ConsumeFieldValue(num, typ, body[off+n:])
		if m < 0 {
			return 0, false, corruptf("manifest: bad field %d at byte %d", num, off)
		}
		off += n + m
	}
	return 0, false, nil
}

// liveRowsIn sums the live rows of the listed fragments that exist
// (unknown deletion counts count as none deleted).
func (ds *Dataset) liveRowsIn(frags []uint32) uint64 {
	var n uint64
	for _, f := range frags {
		i, ok := ds.byID[uint64(f)]
		if !ok {
			continue
		}
		r := ds.man.Fragments[i]
		if r.NumDeleted <= r.PhysicalRows {
			n += r.PhysicalRows - r.NumDeleted
		}
	}
	return n
}

// fieldPaths maps field ids to dotted names (parent.child).
func fieldPaths(fs []*filepb.Field) map[int32]string {
	byID := map[int32]*filepb.Field{}
	for _, f := range fs {
		byID[f.GetId()] = f
	}
	out := make(map[int32]string, len(fs))
	for _, f := range fs {
		parts := []string{f.GetName()}
		for p, depth := byID[f.GetParentId()], 0; p != nil && depth < len(fs); p, depth = byID[p.GetParentId()], depth+1 {
			parts = append([]string{p.GetName()}, parts...)
		}
		out[f.GetId()] = strings.Join(parts, ".")
	}
	return out
}

// IndexOpener opens the dataset's index files (names relative to the
// dataset root) through its store, scheduler and search cache.
func (ds *Dataset) IndexOpener() indices.Opener { return indexOpener{ds} }

type indexOpener struct{ ds *Dataset }

// OpenFile opens the Lance file name under the dataset root.
func (o indexOpener) OpenFile(ctx context.Context, name string) (*fileread.File, error) {
	ds := o.ds
	obj, tail, err := ds.store.OpenTail(ctx, name, manifestTail)
	if err != nil {
		return nil, ds.errf(ds.man.Version, name, err)
	}
	f, err := fileread.OpenObject(ctx, ds.store.URL(name), obj, tail, ds.sched, ds.cfg)
	if err != nil {
		_ = obj.Close()
		return nil, ds.errf(ds.man.Version, name, err)
	}
	return f, nil
}

// ReadRange reads n bytes at off of the file name under the dataset root.
func (o indexOpener) ReadRange(ctx context.Context, name string, off, n uint64) ([]byte, error) {
	ds := o.ds
	obj, err := ds.store.Open(ctx, name)
	if err != nil {
		return nil, ds.errf(ds.man.Version, name, err)
	}
	defer obj.Close()
	if off > uint64(obj.Size()) || n > uint64(obj.Size())-off {
		return nil, ds.errf(ds.man.Version, name, fmt.Errorf("%w: range [%d, +%d) outside %d bytes", indices.ErrCorrupt, off, n, obj.Size()))
	}
	b := make([]byte, n)
	if err := obj.ReadAt(ctx, b, int64(off)); err != nil {
		return nil, ds.errf(ds.man.Version, name, err)
	}
	return b, nil
}
