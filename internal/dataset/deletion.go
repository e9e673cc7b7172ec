package dataset

import (
	"bytes"
	"encoding/binary"
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

// maxArrowDeletions bounds the rows an Arrow deletion file may list.
const maxArrowDeletions = 1 << 26

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
		del, err = decodeArrowDeletions(b, physicalRows)
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
	if err := checkRoaringSize(b); err != nil {
		return nil, corruptf("roaring deletion file: %v", err)
	}
	bm := roaring.New()
	if _, err := bm.ReadFrom(bytes.NewReader(b)); err != nil {
		return nil, corruptf("roaring deletion file: %v", err)
	}
	if err := bm.Validate(); err != nil {
		return nil, corruptf("roaring deletion file: %v", err)
	}
	return bm, nil
}

func decodeArrowDeletions(b []byte, physicalRows uint64) (*roaring.Bitmap, error) {
	// Buffer lengths come from the file: cap what the reader may allocate
	// at what a valid file can need (its size, or 4 bytes a row once
	// decompressed: Lance compresses them with zstd), so a hostile length
	// fails instead of exhausting memory. Lance writes Arrow deletion files
	// for small deletions only (a bitmap beyond 5,000 rows), so the cap
	// stops at maxArrowDeletions rows.
	mem := &cappedAllocator{mem: memory.NewGoAllocator(), left: int64(len(b)) + 4*int64(min(physicalRows, maxArrowDeletions)) + 1<<16}
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

// cappedAllocator fails (panics, recovered by DecodeDeletions) once more
// than its budget was allocated.
type cappedAllocator struct {
	mem  memory.Allocator
	left int64
}

func (c *cappedAllocator) Allocate(n int) []byte {
	c.left -= int64(n)
	if n < 0 || c.left < 0 {
		panic(fmt.Sprintf("buffer of %d bytes exceeds what the file can hold", n))
	}
	return c.mem.Allocate(n)
}

func (c *cappedAllocator) Reallocate(n int, b []byte) []byte {
	c.left -= int64(n - len(b))
	if n < 0 || c.left < 0 {
		panic(fmt.Sprintf("buffer of %d bytes exceeds what the file can hold", n))
	}
	return c.mem.Reallocate(n, b)
}

func (c *cappedAllocator) Free(b []byte) { c.left += int64(len(b)); c.mem.Free(b) }

// Roaring portable format constants (RoaringFormatSpec).
const (
	roaringNoRunCookie = 12346
	roaringRunCookie   = 12347
	roaringNoOffsetMin = 4 // run bitmaps with fewer containers have no offsets
	roaringArrayMax    = 4096
)

// checkRoaringSize walks the header of a portable roaring bitmap and
// checks that the containers it declares fit in b, so that the library's
// deserializer never allocates for data that is not there.
func checkRoaringSize(b []byte) error {
	if len(b) < 4 {
		return fmt.Errorf("%d bytes", len(b))
	}
	cookie := binary.LittleEndian.Uint32(b)
	pos := 4
	var n int
	var runFlags []byte
	switch {
	case cookie == roaringNoRunCookie:
		if len(b) < 8 {
			return fmt.Errorf("truncated header")
		}
		c := binary.LittleEndian.Uint32(b[4:])
		if c > 1<<16 {
			return fmt.Errorf("%d containers", c)
		}
		n, pos = int(c), 8
	case cookie&0xffff == roaringRunCookie:
		n = int(cookie>>16) + 1
		if len(b)-pos < (n+7)/8 {
			return fmt.Errorf("truncated run flags")
		}
		runFlags, pos = b[pos:pos+(n+7)/8], pos+(n+7)/8
	default:
		return fmt.Errorf("unknown cookie %#x", cookie)
	}
	if len(b)-pos < 4*n {
		return fmt.Errorf("truncated container descriptions")
	}
	desc := b[pos : pos+4*n]
	pos += 4 * n
	if runFlags == nil || n >= roaringNoOffsetMin {
		pos += 4 * n
	}
	for i := 0; i < n && pos <= len(b); i++ {
		card := int(binary.LittleEndian.Uint16(desc[4*i+2:])) + 1
		switch {
		case runFlags != nil && runFlags[i/8]&(1<<(i%8)) != 0:
			if len(b)-pos < 2 {
				return fmt.Errorf("truncated run container %d", i)
			}
			pos += 2 + 4*int(binary.LittleEndian.Uint16(b[pos:]))
		case card > roaringArrayMax:
			pos += 8192
		default:
			pos += 2 * card
		}
	}
	if pos > len(b) {
		return fmt.Errorf("containers need %d bytes, the file has %d", pos, len(b))
	}
	return nil
}
