package tablelock

import (
	"context"
	"strings"

	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sqlerr"
)

// LockTables is LOCK TABLES: an implicit UNLOCK TABLES and COMMIT, then
// the locks, each table waiting for other sessions' conflicting locks,
// running statements and open transactions.
func (h *Holder) LockTables(ctx context.Context, locks []parse.LockSpec) (*exec.Result, uint64, error) {
	specs := make([]parse.LockSpec, len(locks))
	seen := map[string]bool{}
	anyWrite := false
	for i, spec := range locks {
		if spec.Schema == "" {
			if spec.Schema = h.host.CurrentDB(); spec.Schema == "" {
				return nil, 0, sqlerr.New(sqlerr.ErNoDB, "No database selected")
			}
		}
		use := strings.ToLower(lockUseName(spec))
		if seen[use] {
			return nil, 0, sqlerr.New(sqlerr.ErNonUniqTable, "Not unique table/alias: '%s'", lockUseName(spec))
		}
		seen[use] = true
		if !h.locks.exists(spec, true) {
			return nil, 0, sqlerr.New(sqlerr.ErNoSuchTable, "Table '%s.%s' doesn't exist", spec.Schema, spec.Name)
		}
		anyWrite = anyWrite || spec.Write
		specs[i] = spec
	}
	if h.globalRead && anyWrite {
		return nil, 0, errReadLock()
	}
	h.ReleaseTables()
	ack, err := h.commitOpen(ctx)
	if err != nil {
		return nil, ack, err
	}
	if err := h.acquireTables(ctx, h.locks.viewSpecs(specs)); err != nil {
		return nil, ack, err
	}
	return &exec.Result{}, ack, nil
}

// commitOpen is the implicit COMMIT: what the transaction held is free.
func (h *Holder) commitOpen(ctx context.Context) (uint64, error) {
	ack, err := h.host.CommitOpen(ctx)
	h.TxnEnded()
	return ack, err
}

// exists reports whether spec names a table (or, if views, a view).
func (l *Locks) exists(spec parse.LockSpec, views bool) bool {
	c := l.txns.Catalog()
	return c.Table(spec.Schema, spec.Name) != nil || views && c.View(spec.Schema, spec.Name) != nil
}

// acquireTables installs specs as the session's LOCK TABLES locks, then
// waits until no other session's running statement or open transaction
// conflicts with them.
func (h *Holder) acquireTables(ctx context.Context, specs []parse.LockSpec) error {
	l := h.locks
	deadline := h.lockWaitDeadline()
	h.host.SetState("Waiting for table metadata lock")
	defer h.host.SetState("")
	for {
		l.mu.Lock()
		if !l.tablesBlockedLocked(h, specs) {
			for _, spec := range specs {
				k := tableKey(spec.Schema, spec.Name)
				if spec.Write {
					l.writer[k] = h
				} else {
					if l.readers[k] == nil {
						l.readers[k] = map[*Holder]int{}
					}
					l.readers[k][h]++
				}
			}
			if !h.globalRead {
				l.active.Add(1)
			}
			h.locked = specs
			h.pending = true
			l.mu.Unlock()
			break
		}
		ch := l.changed
		l.mu.Unlock()
		if err := waitChange(ctx, ch, deadline); err != nil {
			return err
		}
	}
	// Installed: new statements of others now wait. Wait for the running
	// ones and the open transactions that conflict.
	for {
		l.mu.Lock()
		others := l.othersLocked(h)
		ch := l.changed
		l.mu.Unlock()
		if !l.usesConflict(others, specs) {
			l.mu.Lock()
			h.pending = false
			l.mu.Unlock()
			return nil
		}
		if err := waitChange(ctx, ch, deadline); err != nil {
			h.ReleaseTables()
			return err
		}
	}
}

// usesConflict reports whether one of others' running statements or open
// transactions conflicts with specs. Each one's running use is read
// before its transaction's tables (the order a statement's end publishes
// them in reverse), so a use moving from one to the other is seen.
func (l *Locks) usesConflict(others []*Holder, specs []parse.LockSpec) bool {
	for _, o := range others {
		u := o.running.Load()
		held := o.txnTables.Load()
		if u != nil && specsConflict(specs, l.tablesOf(u.refs, u.db)) {
			return true
		}
		if txnConflicts(specs, held) {
			return true
		}
	}
	return false
}

// tablesBlockedLocked reports whether other sessions' locks keep specs
// from being installed.
func (l *Locks) tablesBlockedLocked(h *Holder, specs []parse.LockSpec) bool {
	for _, spec := range specs {
		k := tableKey(spec.Schema, spec.Name)
		if w := l.writer[k]; w != nil && w != h {
			return true
		}
		if !spec.Write {
			continue
		}
		for o := range l.readers[k] {
			if o != h {
				return true
			}
		}
		for g := range l.global {
			if g != h {
				return true
			}
		}
	}
	return false
}

// specsConflict reports whether a running statement's use conflicts with
// table locks about to be held.
func specsConflict(specs []parse.LockSpec, tables []usedTable) bool {
	for _, t := range tables {
		for _, spec := range specs {
			if tableKey(spec.Schema, spec.Name) == t.key && (spec.Write || t.write) {
				return true
			}
		}
	}
	return false
}

// ReleaseTables ends LOCK TABLES mode (UNLOCK TABLES, BEGIN, another
// LOCK TABLES, disconnect). The global read lock stays.
func (h *Holder) ReleaseTables() {
	if h.locked == nil {
		return
	}
	l := h.locks
	l.mu.Lock()
	for _, spec := range h.locked {
		k := tableKey(spec.Schema, spec.Name)
		if spec.Write {
			if l.writer[k] == h {
				delete(l.writer, k)
			}
			continue
		}
		if r := l.readers[k]; r != nil {
			if r[h]--; r[h] <= 0 {
				delete(r, h)
			}
			if len(r) == 0 {
				delete(l.readers, k)
			}
		}
	}
	if !h.globalRead {
		l.active.Add(-1)
	}
	h.locked = nil
	h.pending = false
	l.broadcastLocked()
	l.mu.Unlock()
}

// UnlockTables is UNLOCK TABLES: it commits the open transaction when
// tables were locked (as MySQL), and releases the table locks and the
// global read lock.
func (h *Holder) UnlockTables(ctx context.Context) (*exec.Result, uint64, error) {
	var ack uint64
	if h.locked != nil {
		var err error
		if ack, err = h.commitOpen(ctx); err != nil {
			return nil, ack, err
		}
	}
	h.ReleaseTables()
	h.ReleaseGlobalRead()
	return &exec.Result{}, ack, nil
}

// Release ends everything the session holds (disconnect, as in MySQL)
// and forgets it.
func (h *Holder) Release() {
	h.ReleaseTables()
	h.ReleaseGlobalRead()
	h.TxnEnded()
	l := h.locks
	l.mu.Lock()
	delete(l.sessions, h)
	l.mu.Unlock()
}

// ForgetDropped drops the LOCK TABLES locks of tables DROP TABLE removed
// (db.name pairs, db filled in): the session can no longer use them, as
// in MySQL (1100).
func (h *Holder) ForgetDropped(tables [][2]string) {
	if h.locked == nil {
		return
	}
	gone := map[string]bool{}
	for _, t := range tables {
		gone[tableKey(t[0], t[1])] = true
	}
	kept := make([]parse.LockSpec, 0, len(h.locked))
	var dropped []parse.LockSpec
	for _, spec := range h.locked {
		if gone[tableKey(spec.Schema, spec.Name)] {
			dropped = append(dropped, spec)
		} else {
			kept = append(kept, spec)
		}
	}
	if len(dropped) == 0 {
		return
	}
	l := h.locks
	l.mu.Lock()
	for _, spec := range dropped {
		k := tableKey(spec.Schema, spec.Name)
		if spec.Write && l.writer[k] == h {
			delete(l.writer, k)
		}
	}
	// h.locked stays non-nil: the session is still in LOCK TABLES mode.
	h.locked = kept
	l.broadcastLocked()
	l.mu.Unlock()
}
