package codecs

import "sync"

// FSSTScratch keeps the large tables of FSST table training (the symbol
// and pair counts, about 1 MB, and a matcher) and of encoder construction
// (a matcher and the encoder's 128 KiB two-byte table) for reuse by later
// calls, which then skip allocating and faulting in fresh memory. The
// caller owns it: tables are only kept while it is reachable (and, as in
// a sync.Pool, may be dropped by the garbage collector), and Clear drops
// them at once.
//
// The zero value is ready to use, and an FSSTScratch is safe for
// concurrent use; it must not be copied after first use. Methods on a nil
// *FSSTScratch allocate fresh tables, as BuildFSSTTable and
// NewFSSTEncoder do.
type FSSTScratch struct {
	matchers sync.Pool // *fsstMatcher
	counts   sync.Pool // *fsstCounts
	shorts   sync.Pool // *[1 << 16]uint16
}

// matcher returns an empty matcher, recycled when possible.
func (s *FSSTScratch) matcher() *fsstMatcher {
	if s != nil {
		if m, ok := s.matchers.Get().(*fsstMatcher); ok {
			m.reset()
			return m
		}
	}
	return newMatcher()
}

// putMatcher keeps m for reuse; the caller no longer uses it.
func (s *FSSTScratch) putMatcher(m *fsstMatcher) {
	if s != nil {
		s.matchers.Put(m)
	}
}

// countsTable returns a counts table, recycled when possible (count
// clears it before use).
func (s *FSSTScratch) countsTable() *fsstCounts {
	if s != nil {
		if c, ok := s.counts.Get().(*fsstCounts); ok {
			return c
		}
	}
	return newCounts()
}

// putCounts keeps c for reuse; the caller no longer uses it.
func (s *FSSTScratch) putCounts(c *fsstCounts) {
	if s != nil {
		s.counts.Put(c)
	}
}

// short returns an encoder short table, recycled when possible (its
// contents are stale: NewEncoder sets every entry).
func (s *FSSTScratch) short() *[1 << 16]uint16 {
	if s != nil {
		if t, ok := s.shorts.Get().(*[1 << 16]uint16); ok {
			return t
		}
	}
	return new([1 << 16]uint16)
}

// putShort keeps t for reuse; the caller no longer uses it.
func (s *FSSTScratch) putShort(t *[1 << 16]uint16) {
	if s != nil {
		s.shorts.Put(t)
	}
}

// Clear drops every table s keeps for reuse (s stays usable). Encoders
// from s not yet released give their tables back to it when they are.
func (s *FSSTScratch) Clear() {
	if s == nil {
		return
	}
	for s.matchers.Get() != nil {
	}
	for s.counts.Get() != nil {
	}
	for s.shorts.Get() != nil {
	}
}
