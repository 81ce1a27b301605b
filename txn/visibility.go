package txn

import "sync"

// visibility tracks which commits are fully installed, so a statement (or a
// REPEATABLE READ transaction's read view) can read one consistent
// snapshot (never a part of a transaction, across keys and tables), and
// which snapshots are in use, so old row versions can be dropped.
//
// Commits register their LSN when the pipeline assigns it (under mu, so
// registration order is LSN order) and mark it done once installed. The
// visible LSN is the highest LSN below which every registered commit is
// installed. A snapshot is a visible LSN; rows keep the versions a snapshot
// at or above the horizon may need.
type visibility struct {
	mu       sync.Mutex
	advanced *sync.Cond
	waiting  int
	inflight []inflightCommit // registered, in LSN order, from the oldest not yet done
	visible  uint64
	active   map[uint64]int // snapshot -> statements reading at it
}

type inflightCommit struct {
	lsn  uint64
	done bool
}

func newVisibility(start uint64) *visibility {
	v := &visibility{visible: start, active: map[uint64]int{}}
	v.advanced = sync.NewCond(&v.mu)
	return v
}

// register records a commit LSN just assigned; the caller holds mu across
// the assignment so registrations arrive in LSN order.
func (v *visibility) registerLocked(lsn uint64) {
	v.inflight = append(v.inflight, inflightCommit{lsn: lsn})
}

// installed marks lsn installed and advances the visible LSN.
func (v *visibility) installed(lsn uint64) {
	v.mu.Lock()
	for i := range v.inflight {
		if v.inflight[i].lsn == lsn {
			v.inflight[i].done = true
			break
		}
	}
	n := 0
	for n < len(v.inflight) && v.inflight[n].done {
		v.visible = v.inflight[n].lsn
		n++
	}
	if n > 0 {
		v.inflight = append(v.inflight[:0], v.inflight[n:]...)
		if v.waiting > 0 {
			v.advanced.Broadcast()
		}
	}
	v.mu.Unlock()
}

// horizon is the oldest snapshot a reader holds or can still take.
func (v *visibility) horizon() uint64 {
	v.mu.Lock()
	defer v.mu.Unlock()
	h := v.visible
	for s := range v.active {
		if s < h {
			h = s
		}
	}
	return h
}

// acquire returns a snapshot that sees at least every commit up to
// atLeast (the session's own earlier commits), waiting for the short
// in-memory installs of earlier LSNs to finish if need be.
func (v *visibility) acquire(atLeast uint64) uint64 {
	v.mu.Lock()
	for v.visible < atLeast && len(v.inflight) > 0 {
		v.waiting++
		v.advanced.Wait()
		v.waiting--
	}
	s := v.visible
	v.active[s]++
	v.mu.Unlock()
	return s
}

func (v *visibility) release(s uint64) {
	v.mu.Lock()
	if v.active[s] <= 1 {
		delete(v.active, s)
	} else {
		v.active[s]--
	}
	v.mu.Unlock()
}
