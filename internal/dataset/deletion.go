package dataset

import (
	"bytes"
	"fmt"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// MaxDeletionFileSize bounds the size of a deletion file a reader accepts:
// 4 bytes per deleted row of the largest fragment, plus framing.
const MaxDeletionFileSize = 4*MaxFragmentRows + 1<<20

// DecodeDeletions decodes a deletion file of a fragment of physicalRows
// rows into the set of deleted row offsets: an Arrow IPC file with one
// uint32 column, or a roaring bitmap in the portable format. Every offset
// must be below physicalRows.
func DecodeDeletions(b []byte, bitmap bool, physicalRows uint64) (del *roaring.Bitmap, err error) {
	defer func() {
		// The Arrow and roaring readers are third-party code; a malformed
		// file must not take the process down with it.
		if r := recover(); r != nil {
			del, err = nil, corruptf("deletion file: %v", r)
		}
	}()
	if bitmap {
		del, err = decodeRoaring(b)
	} else {
		del, err = decodeArrowDeletions(b)
	}
	if err != nil {
		return nil, err
	}
	if !del.IsEmpty() && uint64(del.Maximum()) >= physicalRows {
		return nil, corruptf("deletion file deletes row %d of a fragment of %d rows", del.Maximum(), physicalRows)
	}
	return del, nil
}

func decodeRoaring(b []byte) (*roaring.Bitmap, error) {
	bm := roaring.New()
	if _, err := bm.ReadFrom(bytes.NewReader(b)); err != nil {
		return nil, corruptf("roaring deletion file: %v", err)
	}
	if err := bm.Validate(); err != nil {
		return nil, corruptf("roaring deletion file: %v", err)
	}
	return bm, nil
}

func decodeArrowDeletions(b []byte) (*roaring.Bitmap, error) {
	mem := memory.NewGoAllocator()
	r, err := ipc.NewFileReader(bytes.NewReader(b), ipc.WithAllocator(mem))
	if err != nil {
		return nil, corruptf("Arrow deletion file: %v", err)
	}
	defer r.Close()
	s := r.Schema()
	if s.NumFields() != 1 || s.Field(0).Type.ID() != arrow.UINT32 {
		return nil, corruptf("Arrow deletion file has schema %s, want one uint32 column", s)
	}
	bm := roaring.New()
	for i := 0; i < r.NumRecords(); i++ {
		rec, err := r.RecordBatchAt(i)
		if err != nil {
			return nil, corruptf("Arrow deletion file, batch %d: %v", i, err)
		}
		col, ok := rec.Column(0).(*array.Uint32)
		if !ok || col.NullN() != 0 {
			rec.Release()
			return nil, corruptf("Arrow deletion file, batch %d: column is not non-null uint32", i)
		}
		bm.AddMany(col.Uint32Values())
		rec.Release()
	}
	return bm, nil
}

// Deletions is the deleted rows of a fragment.
type Deletions = roaring.Bitmap

// LiveRanges returns the runs [from, to) of rows of [lo, hi) that del does
// not delete (del may be nil), appended to dst as pairs.
func LiveRanges(dst [][2]uint64, del *roaring.Bitmap, lo, hi uint64) [][2]uint64 {
	if lo >= hi {
		return dst
	}
	if del == nil || del.IsEmpty() {
		return append(dst, [2]uint64{lo, hi})
	}
	it := del.Iterator()
	it.AdvanceIfNeeded(uint32(lo))
	cur := lo
	for it.HasNext() {
		d := uint64(it.Next())
		if d >= hi {
			break
		}
		if d > cur {
			dst = append(dst, [2]uint64{cur, d})
		}
		cur = d + 1
	}
	if cur < hi {
		dst = append(dst, [2]uint64{cur, hi})
	}
	return dst
}

// String describes a deletion file for errors.
func (d DeletionFile) String() string {
	kind := "arrow"
	if d.Bitmap {
		kind = "bitmap"
	}
	return fmt.Sprintf("%s deletion file (read version %d, id %d)", kind, d.ReadVersion, d.ID)
}
