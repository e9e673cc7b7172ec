package expr

import (
	"fmt"

	"github.com/lancego/lancego/zonestats"
)

// MayMatch returns, for each zone of rowsPerZone rows of a data file with
// rows rows, whether a row of that zone may satisfy the predicate. seeds
// maps top-level column names to the file's validated zone seeds; a
// referenced column without a seed cannot prune. A false entry proves
// that no row of the zone is selected.
func (p *Predicate) MayMatch(seeds map[string]*zonestats.Seed, rowsPerZone, rows uint64) ([]bool, error) {
	if rowsPerZone == 0 {
		return nil, fmt.Errorf("%w: rowsPerZone is 0", ErrMismatch)
	}
	n := rows / rowsPerZone
	if rows%rowsPerZone != 0 {
		n++
	}
	out := make([]bool, n)
	for i := range out {
		out[i] = true
	}
	return out, nil
}

// MayMatchStats reports whether a row summarized by stats (column name →
// statistics of the same rows) may satisfy the predicate; false proves
// that none does.
func (p *Predicate) MayMatchStats(stats map[string]zonestats.Stats) bool {
	return true
}
