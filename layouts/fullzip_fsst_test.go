package layouts

import "testing"

// TestFullZipFSSTReserve checks the reservation of a full-zip piece of
// FSST strings: twice its stored bytes before any piece was decoded, then
// the last piece's ratio (rounded up to a sixteenth) plus an eighth, and
// that ratios no FSST table can produce are not learned.
func TestFullZipFSSTReserve(t *testing.T) {
	for _, c := range []struct {
		name             string
		stored, decoded  uint64 // the piece noted, none when stored is 0
		next, wantReserv uint64
	}{
		{"first piece", 0, 0, 1000, 2*1000 + fsstReserveSlack},
		{"words (2.2x)", 1 << 20, 2306867, 1 << 20, (1<<20)*36/16 + (1<<20)*36/128 + fsstPieceSlack},
		{"identifiers (1.07x)", 1000, 1070, 16000, 16000*18/16 + 16000*18/128 + fsstPieceSlack},
		{"all escapes (0.5x)", 1000, 500, 1600, 1600*8/16 + 1600*8/128 + fsstPieceSlack},
		{"empty strings", 1000, 0, 1600, 1600/16 + 1600/128 + fsstPieceSlack},
		{"impossible (9x) ignored", 1000, 9000, 1000, 2*1000 + fsstReserveSlack},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := &FullZipPage{}
			if c.stored > 0 {
				p.noteExpansion(c.stored, c.decoded)
			}
			if got := p.fsstReserve(c.next); got != c.wantReserv {
				t.Fatalf("reserve(%d) = %d, want %d (ratio %d/16)", c.next, got, c.wantReserv, p.expand.Load())
			}
		})
	}
}
