package dataset

import (
	"sync/atomic"

	lanceio "github.com/lancego/lancego/io"
)

// sharedStore is a Store used by several Datasets: the one a write was
// made through and the ones it returns. Sharing matters beyond saving a
// store open: a mem:// URL opens a fresh empty bucket each time, so only
// the store a write committed to can see its version. The store is closed
// when the last reference is released.
type sharedStore struct {
	s    *lanceio.Store
	refs atomic.Int64
}

// storeRef is one holder's reference to a sharedStore; releasing it more
// than once releases it once.
type storeRef struct {
	ss   *sharedStore
	done atomic.Bool
}

// newSharedStore wraps s, which the sharedStore now owns; it has no
// reference until ref is called.
func newSharedStore(s *lanceio.Store) *sharedStore {
	return &sharedStore{s: s}
}

// ref returns a new reference to the store.
func (ss *sharedStore) ref() *storeRef {
	ss.refs.Add(1)
	return &storeRef{ss: ss}
}

// store is the Store referred to.
func (r *storeRef) store() *lanceio.Store { return r.ss.s }

// share returns another reference to the same store.
func (r *storeRef) share() *storeRef { return r.ss.ref() }

// release drops the reference, closing the store with the last one.
func (r *storeRef) release() error {
	if r.done.Swap(true) {
		return nil
	}
	if r.ss.refs.Add(-1) == 0 {
		return r.ss.s.Close()
	}
	return nil
}
