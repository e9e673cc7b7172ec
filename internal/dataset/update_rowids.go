package dataset

import (
	"context"
	"encoding/binary"
	"fmt"
	"sort"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/lancego/lancego/format/pb/rowidspb"
	"github.com/lancego/lancego/format/pb/tablepb"
)

// EncodeRowIDSequence serializes ids (the stable row ids of a fragment's
// rows, in order) as a RowIdSequence of one segment, choosing the
// segment's form as Lance's U64Segment::from_iter does: a range when the
// ids are consecutive; for other sorted ids the smallest of a range with
// holes, a range with a bitmap and a sorted array; else an array.
func EncodeRowIDSequence(ids []uint64) []byte {
	seq := &rowidspb.RowIdSequence{Segments: []*rowidspb.U64Segment{rowIDSegment(ids)}}
	b, _ := proto.MarshalOptions{Deterministic: true}.Marshal(seq)
	return b
}

func rowIDSegment(ids []uint64) *rowidspb.U64Segment {
	if len(ids) == 0 {
		return &rowidspb.U64Segment{Segment: &rowidspb.U64Segment_Range_{Range: &rowidspb.U64Segment_Range{}}}
	}
	lo, hi, sorted := ids[0], ids[0], true
	for i, v := range ids {
		lo, hi = min(lo, v), max(hi, v)
		if i > 0 && v < hi {
			sorted = false
		}
	}
	if !sorted {
		return &rowidspb.U64Segment{Segment: &rowidspb.U64Segment_Array{Array: encodeU64Array(ids)}}
	}
	slots := hi - lo + 1
	holes := slots - uint64(len(ids))
	if holes == 0 {
		return &rowidspb.U64Segment{Segment: &rowidspb.U64Segment_Range_{Range: &rowidspb.U64Segment_Range{Start: lo, End: hi + 1}}}
	}
	withHoles := 24 + 4*holes
	withBitmap := 24 + (slots+7)/8
	asArray := 24 + 2*uint64(len(ids))
	switch best := min(withHoles, withBitmap, asArray); best {
	case withHoles:
		var hs []uint64
		next := lo
		for _, v := range ids {
			for ; next < v; next++ {
				hs = append(hs, next)
			}
			next = v + 1
		}
		return &rowidspb.U64Segment{Segment: &rowidspb.U64Segment_RangeWithHoles_{RangeWithHoles: &rowidspb.U64Segment_RangeWithHoles{
			Start: lo, End: hi + 1, Holes: encodeU64Array(hs)}}}
	case withBitmap:
		bm := make([]byte, (slots+7)/8)
		for _, v := range ids {
			o := v - lo
			bm[o/8] |= 1 << (o % 8)
		}
		return &rowidspb.U64Segment{Segment: &rowidspb.U64Segment_RangeWithBitmap_{RangeWithBitmap: &rowidspb.U64Segment_RangeWithBitmap{
			Start: lo, End: hi + 1, Bitmap: bm}}}
	}
	return &rowidspb.U64Segment{Segment: &rowidspb.U64Segment_SortedArray{SortedArray: encodeU64Array(ids)}}
}

// encodeU64Array is Lance's EncodedU64Array of values: offsets from the
// smallest in 16 or 32 bits when they fit, else the values.
func encodeU64Array(vs []uint64) *rowidspb.EncodedU64Array {
	if len(vs) == 0 {
		return &rowidspb.EncodedU64Array{Array: &rowidspb.EncodedU64Array_U64Array_{U64Array: &rowidspb.EncodedU64Array_U64Array{}}}
	}
	lo, hi := vs[0], vs[0]
	for _, v := range vs {
		lo, hi = min(lo, v), max(hi, v)
	}
	switch r := hi - lo; {
	case r <= 0xffff:
		b := make([]byte, 2*len(vs))
		for i, v := range vs {
			binary.LittleEndian.PutUint16(b[2*i:], uint16(v-lo))
		}
		return &rowidspb.EncodedU64Array{Array: &rowidspb.EncodedU64Array_U16Array_{U16Array: &rowidspb.EncodedU64Array_U16Array{Base: lo, Offsets: b}}}
	case r <= 0xffffffff:
		b := make([]byte, 4*len(vs))
		for i, v := range vs {
			binary.LittleEndian.PutUint32(b[4*i:], uint32(v-lo))
		}
		return &rowidspb.EncodedU64Array{Array: &rowidspb.EncodedU64Array_U32Array_{U32Array: &rowidspb.EncodedU64Array_U32Array{Base: lo, Offsets: b}}}
	}
	b := make([]byte, 8*len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint64(b[8*i:], v)
	}
	return &rowidspb.EncodedU64Array{Array: &rowidspb.EncodedU64Array_U64Array_{U64Array: &rowidspb.EncodedU64Array_U64Array{Values: b}}}
}

// EncodeVersionRuns serializes a RowDatasetVersionSequence giving row i
// version vs[i]: one run per stretch of equal versions, as Lance builds
// the created-at sequence of rewritten rows.
func EncodeVersionRuns(vs []uint64) []byte {
	var b []byte
	for i := 0; i < len(vs); {
		j := i + 1
		for j < len(vs) && vs[j] == vs[i] {
			j++
		}
		var run []byte
		run = protowire.AppendTag(run, 1, protowire.BytesType) // span
		run = appendRange(run, uint64(i), uint64(j))
		run = protowire.AppendTag(run, 2, protowire.VarintType) // version
		run = protowire.AppendVarint(run, vs[i])
		b = protowire.AppendTag(b, 1, protowire.BytesType) // runs
		b = protowire.AppendBytes(b, run)
		i = j
	}
	return b
}

// versionRuns is a decoded RowDatasetVersionSequence: ends[k] is one past
// the last row of run k, whose version is versions[k].
type versionRuns struct {
	ends, versions []uint64
}

func (v *versionRuns) at(row uint64) uint64 {
	k := sort.Search(len(v.ends), func(k int) bool { return v.ends[k] > row })
	if k == len(v.ends) {
		return 1 // Lance's default for rows a sequence does not cover
	}
	return v.versions[k]
}

func decodeVersionRuns(b []byte, rows uint64) (*versionRuns, error) {
	out := &versionRuns{}
	var n uint64
	for len(b) > 0 {
		num, typ, k := protowire.ConsumeTag(b)
		if k < 0 {
			return nil, corruptf("version sequence: bad tag")
		}
		b = b[k:]
		if num != 1 || typ != protowire.BytesType {
			l := protowire.ConsumeFieldValue(num, typ, b)
			if l < 0 {
				return nil, corruptf("version sequence: bad field %d", num)
			}
			b = b[l:]
			continue
		}
		run, l := protowire.ConsumeBytes(b)
		if l < 0 {
			return nil, corruptf("version sequence: bad run")
		}
		b = b[l:]
		span, version, err := decodeVersionRun(run)
		if err != nil {
			return nil, corruptf("version sequence, run %d: %v", len(out.ends), err)
		}
		seg, err := decodeSegment(span, rows)
		if err != nil {
			return nil, corruptf("version sequence, run %d: %v", len(out.ends), err)
		}
		if n += seg.n; n > rows {
			return nil, corruptf("version sequence covers more than the fragment's %d rows", rows)
		}
		out.ends = append(out.ends, n)
		out.versions = append(out.versions, version)
	}
	return out, nil
}

// decodeVersionRun decodes a RowDatasetVersionRun: span = 1, version = 2.
func decodeVersionRun(b []byte) (*rowidspb.U64Segment, uint64, error) {
	span := &rowidspb.U64Segment{}
	var version uint64
	for len(b) > 0 {
		num, typ, k := protowire.ConsumeTag(b)
		if k < 0 {
			return nil, 0, fmt.Errorf("bad tag")
		}
		b = b[k:]
		switch {
		case num == 1 && typ == protowire.BytesType:
			v, l := protowire.ConsumeBytes(b)
			if l < 0 {
				return nil, 0, fmt.Errorf("bad span")
			}
			if err := proto.Unmarshal(v, span); err != nil {
				return nil, 0, err
			}
			b = b[l:]
		case num == 2 && typ == protowire.VarintType:
			v, l := protowire.ConsumeVarint(b)
			if l < 0 {
				return nil, 0, fmt.Errorf("bad version")
			}
			version, b = v, b[l:]
		default:
			l := protowire.ConsumeFieldValue(num, typ, b)
			if l < 0 {
				return nil, 0, fmt.Errorf("bad field %d", num)
			}
			b = b[l:]
		}
	}
	return span, version, nil
}

// createdAtVersions returns the created-at version of the row at each
// address (fragment id << 32 | offset), from the fragments' sequences.
func (ds *Dataset) createdAtVersions(ctx context.Context, addrs []uint64) ([]uint64, error) {
	return ds.rowVersions(ctx, addrs, false)
}

// rowVersions returns the created-at (last false) or last-updated-at
// version of the row at each address; a fragment without the sequence
// gives 1, and without a last-updated one its created-at versions, as
// Lance defaults them.
func (ds *Dataset) rowVersions(ctx context.Context, addrs []uint64, last bool) ([]uint64, error) {
	runs := map[uint64]*versionRuns{}
	out := make([]uint64, len(addrs))
	for i, a := range addrs {
		id := a >> 32
		r, ok := runs[id]
		if !ok {
			var err error
			if r, err = ds.fragmentVersions(ctx, id, last); err != nil {
				return nil, err
			}
			runs[id] = r
		}
		out[i] = 1
		if r != nil {
			out[i] = r.at(a & 0xffffffff)
		}
	}
	return out, nil
}

func (ds *Dataset) fragmentVersions(ctx context.Context, id uint64, last bool) (*versionRuns, error) {
	i, ok := ds.byID[id]
	if !ok {
		return nil, corruptf("row address of unknown fragment %d", id)
	}
	var f tablepb.DataFragment
	if err := proto.Unmarshal(ds.frags[i].ref.Raw(), &f); err != nil {
		return nil, corruptf("fragment %d: %v", id, err)
	}
	raw, x := f.GetInlineCreatedAtVersions(), f.GetExternalCreatedAtVersions()
	if last && (f.GetInlineLastUpdatedAtVersions() != nil || f.GetExternalLastUpdatedAtVersions() != nil) {
		raw, x = f.GetInlineLastUpdatedAtVersions(), f.GetExternalLastUpdatedAtVersions()
	}
	if x != nil {
		b, err := ds.readRange(ctx, x.GetPath(), x.GetOffset(), x.GetSize())
		if err != nil {
			return nil, fmt.Errorf("fragment %d row versions: %w", id, err)
		}
		raw = b
	}
	if raw == nil {
		return nil, nil
	}
	r, err := decodeVersionRuns(raw, f.GetPhysicalRows())
	if err != nil {
		return nil, fmt.Errorf("fragment %d: %w", id, err)
	}
	return r, nil
}
