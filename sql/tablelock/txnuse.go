package tablelock

import "github.com/plrun/plrun/sql/parse"

// The tables a session's open transaction has used: MySQL's metadata
// locks of transaction duration. A transaction that read t holds it
// against LOCK TABLES t WRITE; one that wrote t, against LOCK TABLES t
// READ too; both until COMMIT or ROLLBACK. The owner publishes a new set
// (copy on write) when a statement adds a table; lockers of other sessions
// read it with one atomic load.

// tableSet is an immutable set of tables (views resolved): key -> written.
type tableSet map[string]bool

// covers reports whether the set holds key, written if write.
func (t *tableSet) covers(key string, write bool) bool {
	if t == nil {
		return false
	}
	w, ok := (*t)[key]
	return ok && (w || !write)
}

// holdForTxn adds what u uses to the open transaction's tables. The same
// statement run again adds nothing and allocates nothing.
func (h *Holder) holdForTxn(u *Use) {
	if u == nil || u == h.recorded {
		return
	}
	h.recorded = u
	old := h.txnTables.Load()
	var next tableSet
	for _, t := range h.locks.tablesOf(u.refs, u.db) {
		if old.covers(t.key, t.write) {
			continue
		}
		if next == nil {
			next = make(tableSet, 4)
			if old != nil {
				for k, w := range *old {
					next[k] = w
				}
			}
		}
		next[t.key] = next[t.key] || t.write
	}
	if next != nil {
		h.txnTables.Store(&next)
	}
}

// TxnEnded releases what the session's transaction held (COMMIT,
// ROLLBACK, an implicit commit, disconnect): lockers waiting for it look
// again.
func (h *Holder) TxnEnded() {
	h.recorded = nil
	if h.txnTables.Load() == nil {
		return
	}
	h.txnTables.Store(nil)
	h.locks.wake()
}

// txnConflicts reports whether an open transaction's tables keep specs
// from being granted: a WRITE lock conflicts with any use, a READ lock
// with a write.
func txnConflicts(specs []parse.LockSpec, held *tableSet) bool {
	if held == nil {
		return false
	}
	for _, s := range specs {
		if w, ok := (*held)[tableKey(s.Schema, s.Name)]; ok && (s.Write || w) {
			return true
		}
	}
	return false
}
