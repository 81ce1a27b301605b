package sql

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
)

// The session's side of LOCK TABLES / UNLOCK TABLES / FLUSH TABLES [WITH
// READ LOCK] (the shared state is tablelocks.go). A session in LOCK
// TABLES mode (s.locked != nil) may use only the tables it locked, under
// the names it locked them by (1100), and write only those locked WRITE
// (1099); a session holding the global read lock may not write (1223).

func (s *Session) intVar(name string) int64 {
	n, _ := strconv.ParseInt(s.getVar(sysvar.Defs[name], false), 10, 64)
	return n
}

// enterTables checks the statement's table uses against the session's own
// locks and waits while other sessions' locks hold them back. When
// entered, leaveTables(prev) must run when the statement ends.
func (s *Session) enterTables(ctx context.Context, p *parse.Stmt) (prev *stmtUse, entered bool, err error) {
	write := p.IsWrite()
	if _, ok := p.Node.(*ast.CommitStmt); ok {
		write = s.txn != nil && s.txn.HasWrites()
	}
	refs, private := s.sharedRefs(p.TableRefs())
	if len(refs) == 0 && !write {
		return nil, false, nil
	}
	if s.locked != nil {
		if err := s.checkOwnLocks(refs); err != nil {
			return nil, false, err
		}
	}
	if s.globalRead && write {
		return nil, false, sqlerr.New(sqlerr.ErCantUpdateWithReadlock, "Can't execute the query because you have a conflicting read lock")
	}
	if s.locked != nil {
		// Every table it uses is locked by this session, and no other
		// session can hold a conflicting lock on it.
		return nil, false, nil
	}
	l := s.database.locks
	u := s.lastUse
	if u == nil || u.stmt != p || u.db != s.DB || u.write != write || private {
		// Published uses are never changed, so one is kept for the next
		// run of the same statement (a hot loop allocates nothing).
		u = &stmtUse{stmt: p, refs: refs, db: s.DB, write: write}
		s.lastUse = u
	}
	prev = s.running.Swap(u)
	var deadline time.Time
	var tables []usedTable
	for l.active.Load() != 0 {
		if tables == nil {
			tables = s.database.tablesOf(u.refs, u.db)
		}
		l.mu.Lock()
		if !l.blocksLocked(s, tables, u.write) {
			l.mu.Unlock()
			break
		}
		ch := l.changed
		l.mu.Unlock()
		// While it waits it uses nothing: a locker need not wait for it.
		s.running.Store(nil)
		if deadline.IsZero() {
			deadline = s.lockWaitDeadline()
			s.setState("Waiting for table metadata lock")
			defer s.setState("")
		}
		if err := s.waitTableChange(ctx, ch, deadline); err != nil {
			s.running.Store(prev)
			return nil, false, err
		}
		s.running.Store(u)
	}
	return prev, true, nil
}

// leaveTables ends a statement enterTables let in.
func (s *Session) leaveTables(prev *stmtUse) {
	s.running.Store(prev)
	s.database.locks.statementDone()
}

// sharedRefs leaves out the uses of the session's temporary tables: no
// one else sees them, so no table lock covers them, and LOCK TABLES mode
// lets the session use them unlocked, as in MySQL. private reports that
// some were left out (the slice is then the session's own).
func (s *Session) sharedRefs(refs []parse.TableRef) (out []parse.TableRef, private bool) {
	for i, r := range refs {
		db := r.Schema
		if db == "" {
			db = s.DB
		}
		if s.TempTable(db, r.Name) == nil {
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
func (s *Session) checkOwnLocks(refs []parse.TableRef) error {
	used := make([]bool, len(s.locked))
	for _, r := range refs {
		db := r.Schema
		if db == "" {
			db = s.DB
		}
		k := tableKey(db, r.Name)
		found := -1
		for i, spec := range s.locked {
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
		if r.Write && !s.locked[found].Write {
			name := r.UseName()
			if through := s.database.tablesOf([]parse.TableRef{r}, db); len(through) > 1 {
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

// execLockTables is LOCK TABLES: an implicit UNLOCK TABLES and COMMIT,
// then the locks, each table waiting for other sessions' conflicting
// locks and running statements.
func (s *Session) execLockTables(ctx context.Context, p *parse.Stmt) (*exec.Result, uint64, error) {
	if s.callDepth > 0 {
		return nil, 0, errInRoutine("LOCK")
	}
	specs := make([]parse.LockSpec, len(p.Locks))
	seen := map[string]bool{}
	anyWrite := false
	for i, spec := range p.Locks {
		if spec.Schema == "" {
			if s.DB == "" {
				return nil, 0, sqlerr.New(sqlerr.ErNoDB, "No database selected")
			}
			spec.Schema = s.DB
		}
		use := strings.ToLower(lockUseName(spec))
		if seen[use] {
			return nil, 0, sqlerr.New(sqlerr.ErNonUniqTable, "Not unique table/alias: '%s'", lockUseName(spec))
		}
		seen[use] = true
		if s.database.Txns.Catalog().Table(spec.Schema, spec.Name) == nil && s.database.Txns.Catalog().View(spec.Schema, spec.Name) == nil {
			return nil, 0, sqlerr.New(sqlerr.ErNoSuchTable, "Table '%s.%s' doesn't exist", spec.Schema, spec.Name)
		}
		anyWrite = anyWrite || spec.Write
		specs[i] = spec
	}
	if s.globalRead && anyWrite {
		return nil, 0, sqlerr.New(sqlerr.ErCantUpdateWithReadlock, "Can't execute the query because you have a conflicting read lock")
	}
	s.releaseTableLocks()
	ack, err := s.finishOpen(ctx)
	if err != nil {
		return nil, ack, err
	}
	if err := s.acquireTables(ctx, s.database.viewSpecs(specs)); err != nil {
		return nil, ack, err
	}
	return &exec.Result{}, ack, nil
}

// acquireTables installs specs as the session's LOCK TABLES locks.
func (s *Session) acquireTables(ctx context.Context, specs []parse.LockSpec) error {
	l := s.database.locks
	deadline := s.lockWaitDeadline()
	s.setState("Waiting for table metadata lock")
	defer s.setState("")
	for {
		l.mu.Lock()
		if !l.tablesBlockedLocked(s, specs) {
			for _, spec := range specs {
				k := tableKey(spec.Schema, spec.Name)
				if spec.Write {
					l.writer[k] = s
				} else {
					if l.readers[k] == nil {
						l.readers[k] = map[*Session]int{}
					}
					l.readers[k][s]++
				}
			}
			if !s.globalRead {
				l.active.Add(1)
			}
			s.locked = specs
			l.mu.Unlock()
			break
		}
		ch := l.changed
		l.mu.Unlock()
		if err := s.waitTableChange(ctx, ch, deadline); err != nil {
			return err
		}
	}
	// Installed: new statements of others now wait. Wait for the running
	// ones that conflict.
	for {
		l.mu.Lock()
		uses := l.runningUsesLocked(s)
		ch := l.changed
		l.mu.Unlock()
		busy := false
		for _, u := range uses {
			if specsConflict(specs, s.database.tablesOf(u.refs, u.db)) {
				busy = true
				break
			}
		}
		if !busy {
			return nil
		}
		if err := s.waitTableChange(ctx, ch, deadline); err != nil {
			s.releaseTableLocks()
			return err
		}
	}
}

// tablesBlockedLocked reports whether other sessions' locks keep specs
// from being installed.
func (l *tableLocks) tablesBlockedLocked(s *Session, specs []parse.LockSpec) bool {
	for _, spec := range specs {
		k := tableKey(spec.Schema, spec.Name)
		if w := l.writer[k]; w != nil && w != s {
			return true
		}
		if !spec.Write {
			continue
		}
		for h := range l.readers[k] {
			if h != s {
				return true
			}
		}
		for g := range l.global {
			if g != s {
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

// releaseTableLocks ends LOCK TABLES mode (UNLOCK TABLES, BEGIN, another
// LOCK TABLES, disconnect). The global read lock stays.
func (s *Session) releaseTableLocks() {
	if s.locked == nil {
		return
	}
	l := s.database.locks
	l.mu.Lock()
	for _, spec := range s.locked {
		k := tableKey(spec.Schema, spec.Name)
		if spec.Write {
			if l.writer[k] == s {
				delete(l.writer, k)
			}
			continue
		}
		if h := l.readers[k]; h != nil {
			if h[s]--; h[s] <= 0 {
				delete(h, s)
			}
			if len(h) == 0 {
				delete(l.readers, k)
			}
		}
	}
	if !s.globalRead {
		l.active.Add(-1)
	}
	s.locked = nil
	l.broadcastLocked()
	l.mu.Unlock()
}

// releaseGlobalRead ends the session's global read lock.
func (s *Session) releaseGlobalRead() {
	if !s.globalRead {
		return
	}
	l := s.database.locks
	l.mu.Lock()
	delete(l.global, s)
	s.globalRead = false
	if s.locked == nil {
		l.active.Add(-1)
	}
	l.broadcastLocked()
	l.mu.Unlock()
}

// execUnlockTables is UNLOCK TABLES: it commits the open transaction
// when tables were locked (as MySQL), and releases the table locks and
// the global read lock.
func (s *Session) execUnlockTables(ctx context.Context) (*exec.Result, uint64, error) {
	if s.callDepth > 0 {
		return nil, 0, errInRoutine("UNLOCK")
	}
	var ack uint64
	if s.locked != nil {
		var err error
		if ack, err = s.finishOpen(ctx); err != nil {
			return nil, ack, err
		}
	}
	s.releaseTableLocks()
	s.releaseGlobalRead()
	return &exec.Result{}, ack, nil
}

// execFlush is FLUSH TABLES [t, ...] [WITH READ LOCK], FLUSH PRIVILEGES
// FLUSH HOSTS and FLUSH [BINARY | ERROR | ...] LOGS. plrun keeps no table
// cache, no grant tables (logins come from --user / --users-file, read at
// start), no host cache and no MySQL log files, so these have nothing to
// reload or reopen; what they check and lock is as in MariaDB. The other
// FLUSH kinds (STATUS, ...) are refused.
func (s *Session) execFlush(ctx context.Context, n *ast.FlushStmt) (*exec.Result, uint64, error) {
	switch n.Tp {
	case ast.FlushPrivileges, ast.FlushLogs, ast.FlushHosts:
		// No grant tables to reload; no binary, error, general or slow
		// log file to close and reopen (mysqldump --flush-logs sends it);
		// no host cache (max_connect_errors) to empty.
		return &exec.Result{}, 0, nil
	case ast.FlushTables:
	default:
		return nil, 0, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support '%s'", "FLUSH "+flushKind(n))
	}
	if n.ReadLock && s.locked != nil {
		return nil, 0, sqlerr.New(sqlerr.ErLockOrActiveTransaction, "Can't execute the given command because you have active locked tables or an active transaction")
	}
	if !n.ReadLock {
		if s.locked != nil {
			// Flushing a table needs it locked WRITE, as in MariaDB.
			var refs []parse.TableRef
			if len(n.Tables) == 0 {
				for _, spec := range s.locked {
					if !spec.ViaView {
						refs = append(refs, parse.TableRef{Schema: spec.Schema, Name: spec.Name, Alias: spec.Alias, Write: true})
					}
				}
			}
			for _, t := range n.Tables {
				refs = append(refs, parse.TableRef{Schema: t.Schema.O, Name: t.Name.O, Write: true})
			}
			for _, r := range refs {
				if err := s.checkOwnLocks([]parse.TableRef{r}); err != nil {
					return nil, 0, err
				}
			}
		}
		return &exec.Result{}, 0, nil
	}
	ack, err := s.finishOpen(ctx)
	if err != nil {
		return nil, ack, err
	}
	if len(n.Tables) > 0 {
		// FLUSH TABLES t, ... WITH READ LOCK: LOCK TABLES t READ, ...
		specs := make([]parse.LockSpec, 0, len(n.Tables))
		for _, t := range n.Tables {
			spec := parse.LockSpec{Schema: t.Schema.O, Name: t.Name.O}
			if spec.Schema == "" {
				if s.DB == "" {
					return nil, ack, sqlerr.New(sqlerr.ErNoDB, "No database selected")
				}
				spec.Schema = s.DB
			}
			if s.database.Txns.Catalog().Table(spec.Schema, spec.Name) == nil {
				return nil, ack, sqlerr.New(sqlerr.ErNoSuchTable, "Table '%s.%s' doesn't exist", spec.Schema, spec.Name)
			}
			specs = append(specs, spec)
		}
		return &exec.Result{}, ack, s.acquireTables(ctx, specs)
	}
	if s.globalRead {
		return &exec.Result{}, ack, nil
	}
	return &exec.Result{}, ack, s.acquireGlobalRead(ctx)
}

// acquireGlobalRead takes the global read lock: it waits for other
// sessions' WRITE table locks, then for their running writes.
func (s *Session) acquireGlobalRead(ctx context.Context) error {
	l := s.database.locks
	deadline := s.lockWaitDeadline()
	s.setState("Waiting for global read lock")
	defer s.setState("")
	for {
		l.mu.Lock()
		blocked := false
		for _, w := range l.writer {
			if w != s {
				blocked = true
				break
			}
		}
		if !blocked {
			l.global[s] = true
			s.globalRead = true
			if s.locked == nil {
				l.active.Add(1)
			}
			l.mu.Unlock()
			break
		}
		ch := l.changed
		l.mu.Unlock()
		if err := s.waitTableChange(ctx, ch, deadline); err != nil {
			return err
		}
	}
	for {
		l.mu.Lock()
		uses := l.runningUsesLocked(s)
		ch := l.changed
		l.mu.Unlock()
		busy := false
		for _, u := range uses {
			if u.write {
				busy = true
				break
			}
		}
		if !busy {
			return nil
		}
		if err := s.waitTableChange(ctx, ch, deadline); err != nil {
			s.releaseGlobalRead()
			return err
		}
	}
}

func flushKind(n *ast.FlushStmt) string {
	switch n.Tp {
	case ast.FlushStatus:
		return "STATUS"
	}
	return "..."
}

// errInRoutine refuses a statement MySQL does not allow in stored
// programs (1314); a SQL procedure is refused when created, a Lua or
// JavaScript one when it runs the statement.
func errInRoutine(what string) error {
	return sqlerr.New(sqlerr.ErSPBadStatement, "%s is not allowed in stored procedures", what)
}

// forgetDroppedLocks drops the LOCK TABLES locks of tables DROP TABLE
// removed: the session can no longer use them, as in MySQL (1100).
func (s *Session) forgetDroppedLocks(n *ast.DropTableStmt) {
	if s.locked == nil {
		return
	}
	gone := map[string]bool{}
	for _, t := range n.Tables {
		db := t.Schema.O
		if db == "" {
			db = s.DB
		}
		gone[tableKey(db, t.Name.O)] = true
	}
	kept := make([]parse.LockSpec, 0, len(s.locked))
	var dropped []parse.LockSpec
	for _, spec := range s.locked {
		if gone[tableKey(spec.Schema, spec.Name)] {
			dropped = append(dropped, spec)
		} else {
			kept = append(kept, spec)
		}
	}
	if len(dropped) == 0 {
		return
	}
	l := s.database.locks
	l.mu.Lock()
	for _, spec := range dropped {
		k := tableKey(spec.Schema, spec.Name)
		if spec.Write && l.writer[k] == s {
			delete(l.writer, k)
		}
	}
	// s.locked stays non-nil: the session is still in LOCK TABLES mode.
	s.locked = kept
	l.broadcastLocked()
	l.mu.Unlock()
}
