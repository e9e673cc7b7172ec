package dataset

import (
	"google.golang.org/protobuf/encoding/protowire"
)

// appendRange appends a U64Segment holding the range [start, end).
func appendRange(b []byte, start, end uint64) []byte {
	var r []byte
	if start != 0 {
		r = protowire.AppendTag(r, 1, protowire.VarintType)
		r = protowire.AppendVarint(r, start)
	}
	if end != 0 {
		r = protowire.AppendTag(r, 2, protowire.VarintType)
		r = protowire.AppendVarint(r, end)
	}
	var seg []byte
	seg = protowire.AppendTag(seg, 1, protowire.BytesType) // U64Segment.range
	seg = protowire.AppendBytes(seg, r)
	return protowire.AppendBytes(b, seg)
}

// EncodeRowIDRange serializes a RowIdSequence of one range segment: the
// stable row ids [start, end) of a new fragment, as Lance assigns them.
func EncodeRowIDRange(start, end uint64) []byte {
	b := protowire.AppendTag(nil, 1, protowire.BytesType) // segments
	return appendRange(b, start, end)
}

// EncodeVersionRun serializes a RowDatasetVersionSequence saying that
// every one of rows rows has dataset version v (the created-at and
// last-updated-at sequences Lance writes beside stable row ids).
func EncodeVersionRun(rows, v uint64) []byte {
	var run []byte
	run = protowire.AppendTag(run, 1, protowire.BytesType) // span
	run = appendRange(run, 0, rows)
	run = protowire.AppendTag(run, 2, protowire.VarintType) // version
	run = protowire.AppendVarint(run, v)
	b := protowire.AppendTag(nil, 1, protowire.BytesType) // runs
	return protowire.AppendBytes(b, run)
}
