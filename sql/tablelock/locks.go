package tablelock

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/txn"
)

// Locks is the table locks of one database, shared by its sessions.
type Locks struct {
	txns  *txn.Manager // the catalog, to resolve views
	plans *parse.Cache // the parsed SELECT of a view

	// active counts the sessions holding any table lock or the global
	// read lock: while it is zero a statement needs no further look.
	active atomic.Int32

	mu       sync.Mutex
	readers  map[string]map[*Holder]int // "db.table" (lower case) -> holders -> count
	writer   map[string]*Holder
	global   map[*Holder]bool
	sessions map[*Holder]bool
	changed  chan struct{} // closed (and replaced) at every release and statement end
}

// New makes the table locks of a database.
func New(txns *txn.Manager, plans *parse.Cache) *Locks {
	return &Locks{txns: txns, plans: plans, readers: map[string]map[*Holder]int{}, writer: map[string]*Holder{},
		global: map[*Holder]bool{}, sessions: map[*Holder]bool{}, changed: make(chan struct{})}
}

// Host is the session as its table locks see it.
type Host interface {
	// CurrentDB is the database unqualified names are in.
	CurrentDB() string
	// IsTempTable reports whether db.name is one of the session's
	// temporary tables (no one else sees them: no lock covers them).
	IsTempTable(db, name string) bool
	// InTransaction reports whether a transaction is open after the
	// statement: its tables stay held until it ends.
	InTransaction() bool
	// CommitOpen commits the open transaction (LOCK TABLES and FLUSH
	// TABLES WITH READ LOCK commit implicitly, as in MySQL); it returns
	// the LSN the reply must wait for.
	CommitOpen(ctx context.Context) (uint64, error)
	// SetState sets the PROCESSLIST State of the running statement.
	SetState(state string)
	// LockWaitTimeout is lock_wait_timeout.
	LockWaitTimeout() time.Duration
}

// Register gives a new session its Holder; Release ends it.
func (l *Locks) Register(h Host) *Holder {
	o := &Holder{locks: l, host: h}
	l.mu.Lock()
	l.sessions[o] = true
	l.mu.Unlock()
	return o
}

// Use is a running statement's table uses, resolved against the
// database it runs in.
type Use struct {
	stmt  *parse.Stmt
	refs  []parse.TableRef
	db    string
	write bool // the statement writes (global read lock)
}

func tableKey(db, name string) string { return strings.ToLower(db) + "." + strings.ToLower(name) }

func splitTableKey(k string) (db, name string) {
	if i := strings.IndexByte(k, '.'); i >= 0 {
		return k[:i], k[i+1:]
	}
	return "", k
}

// broadcastLocked wakes every waiter to look again.
func (l *Locks) broadcastLocked() {
	close(l.changed)
	l.changed = make(chan struct{})
}

// wake wakes lockers waiting for running statements or transactions to end.
func (l *Locks) wake() {
	if l.active.Load() == 0 {
		return
	}
	l.mu.Lock()
	l.broadcastLocked()
	l.mu.Unlock()
}

// blockerLocked is the other session whose locks hold back a statement
// of h that touches tables (views resolved: tablesOf, computed before
// l.mu is taken) and writes if write, or nil. A pending lock does not
// hold back a table h's open transaction already holds in the mode the
// statement needs (MySQL grants a lock its owner has).
func (l *Locks) blockerLocked(h *Holder, tables []usedTable, write bool) *Holder {
	for g := range l.global {
		if g != h && write {
			return g
		}
	}
	held := h.txnTables.Load()
	for _, t := range tables {
		if w := l.writer[t.key]; w != nil && w != h && !(w.pending && held.covers(t.key, t.write)) {
			return w
		}
		if t.write {
			for o := range l.readers[t.key] {
				if o != h && !(o.pending && held.covers(t.key, true)) {
					return o
				}
			}
		}
	}
	return nil
}

// othersLocked lists the other sessions (read under l.mu; their uses are
// examined after it is released).
func (l *Locks) othersLocked(h *Holder) []*Holder {
	out := make([]*Holder, 0, len(l.sessions))
	for o := range l.sessions {
		if o != h {
			out = append(out, o)
		}
	}
	return out
}

func errLockWaitTimeout() error {
	return sqlerr.New(sqlerr.ErLockWaitTimeout, "Lock wait timeout exceeded; try restarting transaction")
}

// waitChange waits for the next change, bounded by deadline and ctx.
func waitChange(ctx context.Context, ch <-chan struct{}, deadline time.Time) error {
	d := time.Until(deadline)
	if d <= 0 {
		return errLockWaitTimeout()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return nil
	case <-t.C:
		return errLockWaitTimeout()
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}
