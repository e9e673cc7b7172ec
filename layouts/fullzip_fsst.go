package layouts

// Reserving a full-zip piece's FSST strings. A piece's stored bytes (values
// with their length prefixes and control words) give its decoded size only
// through the table's expansion: Zipf-distributed words (the bench's
// str_long) decode to more than twice their stored bytes, random
// identifiers to little more than once. A fixed guess of twice the stored bytes made
// str_long's every batch run out near its end, and Decompress then doubled
// the batch's bytes into fresh memory (outside the allocator's pool) and
// copied them: 700 MB allocated and ~270 MB copied for a 1M-row scan. So
// the page keeps the ratio its last piece had and reserves by it, with an
// eighth of margin; the first piece reserves twice its bytes as before.

const (
	// fsstValueExpansion and fsstValueSlack are what Decompress needs
	// free past the data for one value: 8 bytes a code, plus 8.
	fsstValueExpansion = 8
	fsstValueSlack     = 8
	// fsstPieceSlack is room reserved past a piece's expected bytes, for
	// one long value's worst case near its end.
	fsstPieceSlack = 16 << 10
	// maxExpand16 caps the learned ratio (sixteenths): 8 bytes a code.
	maxExpand16 = 8 * 16
)

// fsstReserve returns the bytes to reserve for a piece of stored bytes.
func (p *FullZipPage) fsstReserve(stored uint64) uint64 {
	r := uint64(p.expand.Load())
	if r == 0 {
		return 2*stored + fsstReserveSlack
	}
	return stored*r/16 + stored*r/128 + fsstPieceSlack
}

// noteExpansion records the ratio of a piece that decoded stored bytes to
// decoded bytes (rounded up to a sixteenth, at most 8).
func (p *FullZipPage) noteExpansion(stored, decoded uint64) {
	if stored == 0 || decoded > stored*fsstValueExpansion {
		return
	}
	r := (decoded*16 + stored - 1) / stored
	p.expand.Store(uint32(min(max(r, 1), maxExpand16)))
}
