package tablelock

import (
	"context"
	"strings"
	"sync/atomic"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/lockmgr"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sqlerr"
)

// Holder is one session's side of the table locks. A session in LOCK
// TABLES mode (locked != nil) may use only the tables it locked, under
// the names it locked them by (1100), and write only those locked WRITE
// (1099); a session holding the global read lock may not write (1223).
// It belongs to its session's goroutine, but for running and txnTables,
// which other sessions' lockers read, and pending, guarded by Locks.mu.
type Holder struct {
	locks *Locks
	host  Host

	locked     []parse.LockSpec // nil: not in LOCK TABLES mode
	globalRead bool
	pending    bool                // locks installed, still waiting for others' uses (Locks.mu)
	running    atomic.Pointer[Use] // what the running statement uses
	lastUse    *Use                // the last published use, reused for the same statement

	txnTables atomic.Pointer[tableSet] // what the open transaction has used (txnuse.go)
	recorded  *Use                     // the last use added to txnTables
}

// Locked reports whether the session is in LOCK TABLES mode.
func (h *Holder) Locked() bool { return h.locked != nil }

// Enter checks a statement's table uses against the session's own locks
// and waits while other sessions' locks hold them back; write says the
// statement writes. When entered, Leave(prev) must run when the
// statement ends.
func (h *Holder) Enter(ctx context.Context, p *parse.Stmt, write bool) (prev *Use, entered bool, err error) {
	if _, rename := p.Node.(*ast.RenameTableStmt); rename && h.locked != nil {
		// MariaDB refuses RENAME TABLE in LOCK TABLES mode, of temporary
		// tables too, whatever is locked (ALTER ... RENAME TO is an
		// ALTER, checked as one).
		return nil, false, sqlerr.New(sqlerr.ErLockOrActiveTransaction, "Can't execute the given command because you have active locked tables or an active transaction")
	}
	refs, private := h.sharedRefs(p.TableRefs())
	if len(refs) == 0 && !write {
		return nil, false, nil
	}
	if h.locked != nil {
		if err := h.checkOwnLocks(refs); err != nil {
			return nil, false, err
		}
	}
	if h.globalRead && write {
		return nil, false, errReadLock()
	}
	if h.locked != nil {
		// Every table it uses is locked by this session, and no other
		// session can hold a conflicting lock on it.
		return nil, false, nil
	}
	l := h.locks
	db := h.host.CurrentDB()
	u := h.lastUse
	if u == nil || u.stmt != p || u.db != db || u.write != write || private {
		// Published uses are never changed, so one is kept for the next
		// run of the same statement (a hot loop allocates nothing).
		u = &Use{stmt: p, refs: refs, db: db, write: write}
		h.lastUse = u
	}
	before := h.running.Swap(u)
	var deadline time.Time
	var tables []usedTable
	for l.active.Load() != 0 {
		if tables == nil {
			tables = l.tablesOf(u.refs, u.db)
		}
		l.mu.Lock()
		b := l.blockerLocked(h, tables, u.write)
		if b == nil {
			l.mu.Unlock()
			break
		}
		// A pending locker waits for this session's transaction, which
		// would wait for it: as MariaDB's metadata locks, the statement
		// (the lighter side) is the deadlock's victim, and its
		// transaction is rolled back (ErrDeadlock).
		deadlock := b.pending && txnConflicts(b.locked, h.txnTables.Load())
		ch := l.changed
		l.mu.Unlock()
		if deadlock {
			h.running.Store(before)
			return nil, false, lockmgr.ErrDeadlock
		}
		// While it waits it uses nothing: a locker need not wait for it.
		h.running.Store(nil)
		if deadline.IsZero() {
			deadline = h.lockWaitDeadline()
			h.host.SetState("Waiting for table metadata lock")
			defer h.host.SetState("")
		}
		if err := waitChange(ctx, ch, deadline); err != nil {
			h.running.Store(before)
			return nil, false, err
		}
		h.running.Store(u)
	}
	return before, true, nil
}

// Leave ends a statement Enter let in: what it used stays held by the
// open transaction, if one is open, before it stops being running.
func (h *Holder) Leave(prev *Use) {
	if h.host.InTransaction() {
		h.holdForTxn(h.running.Load())
	} else {
		h.TxnEnded()
	}
	h.running.Store(prev)
	h.locks.wake()
}

func (h *Holder) lockWaitDeadline() time.Time {
	return time.Now().Add(h.host.LockWaitTimeout())
}

func errReadLock() error {
	return sqlerr.New(sqlerr.ErCantUpdateWithReadlock, "Can't execute the query because you have a conflicting read lock")
}

// sharedRefs leaves out the uses of the session's temporary tables: no
// one else sees them, so no table lock covers them, and LOCK TABLES mode
// lets the session use them unlocked, as in MySQL. private reports that
// some were left out (the slice is then the session's own).
func (h *Holder) sharedRefs(refs []parse.TableRef) (out []parse.TableRef, private bool) {
	for i, r := range refs {
		db := r.Schema
		if db == "" {
			db = h.host.CurrentDB()
		}
		if !h.host.IsTempTable(db, r.Name) {
			if private {
				out = append(out, r)
			}
			continue
		}
		if !private {
			private = true
			out = append(make([]parse.TableRef, 0, len(refs)), refs[:i]...)
		}
	}
	if !private {
		return refs, false
	}
	return out, true
}

// checkOwnLocks applies LOCK TABLES mode to a statement's uses.
func (h *Holder) checkOwnLocks(refs []parse.TableRef) error {
	used := make([]bool, len(h.locked))
	for _, r := range refs {
		db := r.Schema
		if db == "" {
			db = h.host.CurrentDB()
		}
		k := tableKey(db, r.Name)
		found := -1
		for i, spec := range h.locked {
			if tableKey(spec.Schema, spec.Name) == k && strings.EqualFold(lockUseName(spec), r.UseName()) {
				found = i
				break
			}
		}
		if found < 0 || used[found] {
			// A table used twice in one statement needs a lock per use,
			// under an alias each, as in MySQL.
			return sqlerr.New(sqlerr.ErTableNotLocked, "Table '%s' was not locked with LOCK TABLES", r.UseName())
		}
		used[found] = true
		if r.Write && !h.locked[found].Write {
			name := r.UseName()
			if through := h.locks.tablesOf([]parse.TableRef{r}, db); len(through) > 1 {
				_, name = splitTableKey(through[1].key) // a view: MariaDB names the table under it
			}
			return sqlerr.New(sqlerr.ErTableNotLockedForWrite, "Table '%s' was locked with a READ lock and can't be updated", name)
		}
	}
	return nil
}

func lockUseName(spec parse.LockSpec) string {
	if spec.Alias != "" {
		return spec.Alias
	}
	return spec.Name
}
