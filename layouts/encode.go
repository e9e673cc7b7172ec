package layouts

import (
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	pb23 "github.com/lancego/lancego/format/pb/encodings23pb"
)

// The structural encoders (shred.go for the levels, levels.go for their
// codecs, miniblock_encode.go, constant.go; full-zip and blob are still in
// internal/filewriter) build EncodedPages from a Shredded page and its
// codecs.Values; the writer engine chooses which
// (internal/filewriter/policy.go) and writes them.

// EncodedPage is one page made by a structural encoder, ready to be
// written: its buffers and its PageLayout.
type EncodedPage struct {
	Buffers [][]byte
	// split, when split[i] is not nil, holds buffer i as pieces written
	// back to back (buffers[i] is then unused).
	Split [][][]byte
	// scratch lists buffers to return to the scratch pool once the page
	// is written.
	Scratch [][]byte
	Layout  *pb.PageLayout
	// Planar, when set, is the page's 2.3 layout (then Layout is unused);
	// a 2.3 writer turns other pages into dense planar ones (DensePlanar).
	Planar  *pb23.PlanarLayout
	NumRows uint64
	Desc    string
	// external holds value bytes (blobs) written as their own 64-aligned
	// buffers before the page; finish then builds the page from the
	// positions they were written at.
	External [][]byte
	Finish   func(positions []uint64) (*EncodedPage, error)
}
