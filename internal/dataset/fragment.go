package dataset

import (
	"slices"

	"github.com/lancego/lancego/format/pb/filepb"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/lancego/lancego/format/pb/tablepb"
)

// MaxFragmentRows is the most rows a fragment can hold: a row address
// keeps the offset in its low 32 bits.
const MaxFragmentRows = 1 << 32

// MaxFragmentID is the largest fragment id a row address can hold.
const MaxFragmentID = 1<<32 - 1

// FragmentRef is what opening a dataset learns of a fragment: enough to
// count and locate rows. Decode gives the rest.
type FragmentRef struct {
	ID           uint64
	PhysicalRows uint64
	// NumDeleted is the deletion file's count of deleted rows; with
	// HasDeletions and NumDeleted 0 the count is unknown until the file is
	// read.
	NumDeleted   uint64
	HasDeletions bool
	raw          []byte
}

// Fragment is the full metadata of a fragment.
type Fragment struct {
	ID           uint64
	PhysicalRows uint64
	Files        []DataFile
	Deletion     *DeletionFile
	// RowIDs is the inline serialized RowIdSequence; RowIDFile the
	// external one. Both are empty without stable row ids.
	RowIDs    []byte
	RowIDFile *ExternalFile
}

// DataFile is one data file of a fragment.
type DataFile struct {
	Path string
	// Fields are the schema field ids the file stores, ColumnIndices the
	// file's top-level column of each (-1: none of its own).
	Fields        []int32
	ColumnIndices []int32
	Major, Minor  uint32
	Size          uint64
	// BaseID is the base path the file lives under; HasBase false means
	// the dataset root.
	BaseID  uint32
	HasBase bool
}

// DeletionFile names a fragment's deletion file.
type DeletionFile struct {
	Bitmap      bool // roaring .bin; else Arrow IPC .arrow
	ReadVersion uint64
	ID          uint64
	NumDeleted  uint64
	BaseID      uint32
	HasBase     bool
}

// ExternalFile is a byte range of another file.
type ExternalFile struct {
	Path         string
	Offset, Size uint64
}

// summarize reads the id, row count and deletion count of a serialized
// DataFragment without decoding its files.
func summarize(raw []byte) (FragmentRef, error) {
	r := FragmentRef{raw: raw}
	for off := 0; off < len(raw); {
		num, typ, n := protowire.ConsumeTag(raw[off:])
		if n < 0 {
			return r, corruptf("fragment: bad tag at byte %d", off)
		}
		off += n
		switch {
		case num == 1 && typ == protowire.VarintType:
			r.ID, n = protowire.ConsumeVarint(raw[off:])
		case num == 4 && typ == protowire.VarintType:
			r.PhysicalRows, n = protowire.ConsumeVarint(raw[off:])
		case num == 3 && typ == protowire.BytesType:
			var v []byte
			v, n = protowire.ConsumeBytes(raw[off:])
			if n >= 0 {
				r.HasDeletions = true
				r.NumDeleted = deletedCount(v)
			}
		default:
			n = protowire.ConsumeFieldValue(num, typ, raw[off:])
		}
		if n < 0 {
			return r, corruptf("fragment: bad field %d at byte %d", num, off)
		}
		off += n
	}
	return r, r.check()
}

// deletedCount returns field 4 (num_deleted_rows) of a DeletionFile, 0 if
// absent or malformed (Decode reports malformed ones).
func deletedCount(b []byte) uint64 {
	var d tablepb.DeletionFile
	if proto.Unmarshal(b, &d) != nil {
		return 0
	}
	return d.GetNumDeletedRows()
}

func (r FragmentRef) check() error {
	switch {
	case r.ID > MaxFragmentID:
		return corruptf("fragment id %d does not fit a row address", r.ID)
	case r.PhysicalRows > MaxFragmentRows:
		return corruptf("fragment %d: %d rows do not fit a row address", r.ID, r.PhysicalRows)
	case r.NumDeleted > r.PhysicalRows:
		return corruptf("fragment %d: %d deleted rows of %d", r.ID, r.NumDeleted, r.PhysicalRows)
	}
	return nil
}

// Decode decodes the fragment's full metadata.
func (r FragmentRef) Decode() (*Fragment, error) {
	var pb tablepb.DataFragment
	if err := proto.Unmarshal(r.raw, &pb); err != nil {
		return nil, corruptf("fragment %d: %v", r.ID, err)
	}
	f := &Fragment{ID: pb.GetId(), PhysicalRows: pb.GetPhysicalRows(), RowIDs: pb.GetInlineRowIds()}
	if x := pb.GetExternalRowIds(); x != nil {
		f.RowIDFile = &ExternalFile{Path: x.GetPath(), Offset: x.GetOffset(), Size: x.GetSize()}
	}
	for i, df := range pb.GetFiles() {
		d := DataFile{Path: df.GetPath(), Fields: df.GetFields(), ColumnIndices: df.GetColumnIndices(),
			Major: df.GetFileMajorVersion(), Minor: df.GetFileMinorVersion(), Size: df.GetFileSizeBytes(),
			BaseID: df.GetBaseId(), HasBase: df.BaseId != nil}
		if d.Path == "" {
			return nil, corruptf("fragment %d: data file %d has no path", r.ID, i)
		}
		if len(d.ColumnIndices) != 0 && len(d.ColumnIndices) != len(d.Fields) {
			return nil, corruptf("fragment %d: data file %s lists %d fields but %d column indices",
				r.ID, d.Path, len(d.Fields), len(d.ColumnIndices))
		}
		f.Files = append(f.Files, d)
	}
	if del := pb.GetDeletionFile(); del != nil {
		f.Deletion = &DeletionFile{Bitmap: del.GetFileType() == tablepb.DeletionFile_BITMAP,
			ReadVersion: del.GetReadVersion(), ID: del.GetId(), NumDeleted: del.GetNumDeletedRows(),
			BaseID: del.GetBaseId(), HasBase: del.BaseId != nil}
		if t := del.GetFileType(); t != tablepb.DeletionFile_BITMAP && t != tablepb.DeletionFile_ARROW_ARRAY {
			return nil, corruptf("fragment %d: unknown deletion file type %d", r.ID, t)
		}
	}
	if len(f.Files) == 0 {
		return nil, corruptf("fragment %d has no data file", r.ID)
	}
	return f, nil
}

// LegacyIDRange returns the field id range of a legacy file's page table:
// from the first field id the data file lists to the largest (Lance's
// rule; the list is ascending when written by Lance).
func (d *DataFile) LegacyIDRange() (lo, hi int32, ok bool) {
	if len(d.Fields) == 0 || d.Fields[0] < 0 {
		return 0, 0, false
	}
	lo, hi = d.Fields[0], d.Fields[0]
	for _, id := range d.Fields[1:] {
		hi = max(hi, id)
	}
	return lo, hi, true
}

// FieldsOf returns the fields of a schema (in its order) whose ids are
// in ids: the part of the dataset's schema a legacy data file stores.
// Fields dropped from the dataset since are not in it.
func FieldsOf(fields []*filepb.Field, ids []int32) []*filepb.Field {
	var out []*filepb.Field
	for _, f := range fields {
		if slices.Contains(ids, f.GetId()) {
			out = append(out, f)
		}
	}
	return out
}
