package sql

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sqlerr"
)

// tableLocks is what LOCK TABLES and FLUSH TABLES WITH READ LOCK hold,
// shared by every session of a database:
//
//   - a table locked READ by some sessions: others may read it; their
//     statements that write it wait;
//   - a table locked WRITE by one session: others' statements that use it
//     wait;
//   - the global read lock (FTWRL), held by any number of sessions:
//     others' statements that write (DML, DDL, a COMMIT with changes) wait.
//
// A statement publishes what it is about to use (Session.running) before
// it looks at the locks; a session taking a lock installs it first and
// then waits until no other session's running statement conflicts. With
// both sides' steps sequentially consistent, either the statement sees
// the lock or the locker sees the statement. Waits are bounded by
// lock_wait_timeout and end at KILL. These are table locks for the
// length of LOCK TABLES; a statement takes none for itself beyond its
// run (MySQL's metadata locks would also wait for other sessions' open
// transactions that used the table: here a locker waits only for their
// running statements, and row locks order what they write).
//
// Lock order: tableLocks.mu is taken with no other lock held, and nothing
// else is taken or waited for under it (views are resolved outside it).
type tableLocks struct {
	// active counts the sessions holding any table lock or the global
	// read lock: while it is zero a statement needs no further look.
	active atomic.Int32

	mu       sync.Mutex
	readers  map[string]map[*Session]int // "db.table" (lower case) -> holders -> count
	writer   map[string]*Session
	global   map[*Session]bool
	sessions map[*Session]bool
	changed  chan struct{} // closed (and replaced) at every release and statement end
}

func newTableLocks() *tableLocks {
	return &tableLocks{readers: map[string]map[*Session]int{}, writer: map[string]*Session{},
		global: map[*Session]bool{}, sessions: map[*Session]bool{}, changed: make(chan struct{})}
}

// stmtUse is a running statement's table uses, resolved against the
// database it runs in.
type stmtUse struct {
	stmt  *parse.Stmt
	refs  []parse.TableRef
	db    string
	write bool // the statement writes (global read lock)
}

func tableKey(db, name string) string { return strings.ToLower(db) + "." + strings.ToLower(name) }

func (l *tableLocks) register(s *Session) {
	l.mu.Lock()
	l.sessions[s] = true
	l.mu.Unlock()
}

func (l *tableLocks) unregister(s *Session) {
	l.mu.Lock()
	delete(l.sessions, s)
	l.mu.Unlock()
}

// broadcastLocked wakes every waiter to look again.
func (l *tableLocks) broadcastLocked() {
	close(l.changed)
	l.changed = make(chan struct{})
}

// statementDone wakes lockers waiting for running statements to end.
func (l *tableLocks) statementDone() {
	if l.active.Load() == 0 {
		return
	}
	l.mu.Lock()
	l.broadcastLocked()
	l.mu.Unlock()
}

// blocksLocked reports whether another session's locks hold back a
// statement that touches tables (views resolved: tablesOf, computed
// before l.mu is taken) and writes if write.
func (l *tableLocks) blocksLocked(s *Session, tables []usedTable, write bool) bool {
	for g := range l.global {
		if g != s && write {
			return true
		}
	}
	for _, t := range tables {
		if w := l.writer[t.key]; w != nil && w != s {
			return true
		}
		if t.write {
			for h := range l.readers[t.key] {
				if h != s {
					return true
				}
			}
		}
	}
	return false
}

// runningUses lists the uses other sessions' running statements have
// published (read under l.mu; examined after it is released).
func (l *tableLocks) runningUsesLocked(s *Session) []*stmtUse {
	var out []*stmtUse
	for o := range l.sessions {
		if o == s {
			continue
		}
		if u := o.running.Load(); u != nil {
			out = append(out, u)
		}
	}
	return out
}

// wait waits for the next change, bounded by deadline and ctx.
func (s *Session) waitTableChange(ctx context.Context, ch <-chan struct{}, deadline time.Time) error {
	d := time.Until(deadline)
	if d <= 0 {
		return sqlerr.New(sqlerr.ErLockWaitTimeout, "Lock wait timeout exceeded; try restarting transaction")
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return nil
	case <-t.C:
		return sqlerr.New(sqlerr.ErLockWaitTimeout, "Lock wait timeout exceeded; try restarting transaction")
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// lockWaitDeadline is when a wait for a table lock gives up
// (lock_wait_timeout, in seconds).
func (s *Session) lockWaitDeadline() time.Time {
	secs := s.intVar("lock_wait_timeout")
	return time.Now().Add(time.Duration(secs) * time.Second)
}
