package tablelock

import (
	"context"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sqlerr"
)

// Flush is FLUSH TABLES [t, ...] [WITH READ LOCK], FLUSH PRIVILEGES,
// FLUSH HOSTS and FLUSH [BINARY | ERROR | ...] LOGS. plrun keeps no table
// cache, no grant tables (logins come from --user / --users-file, read at
// start) and no host cache, so these have nothing to reload; the log
// files FLUSH LOGS reopens are the session's (sql/querylogs.go) before
// it comes here. What they check and lock is as in MariaDB. The other
// FLUSH kinds (STATUS, ...) are refused.
func (h *Holder) Flush(ctx context.Context, n *ast.FlushStmt) (*exec.Result, uint64, error) {
	switch n.Tp {
	case ast.FlushPrivileges, ast.FlushLogs, ast.FlushHosts:
		// No grant tables to reload; no binary log; no host cache
		// (max_connect_errors) to empty.
		return &exec.Result{}, 0, nil
	case ast.FlushTables:
	default:
		return nil, 0, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support '%s'", "FLUSH "+flushKind(n))
	}
	if n.ReadLock && h.locked != nil {
		return nil, 0, sqlerr.New(sqlerr.ErLockOrActiveTransaction, "Can't execute the given command because you have active locked tables or an active transaction")
	}
	if !n.ReadLock {
		return &exec.Result{}, 0, h.checkFlushable(n)
	}
	ack, err := h.commitOpen(ctx)
	if err != nil {
		return nil, ack, err
	}
	if len(n.Tables) > 0 {
		// FLUSH TABLES t, ... WITH READ LOCK: LOCK TABLES t READ, ...
		specs := make([]parse.LockSpec, 0, len(n.Tables))
		for _, t := range n.Tables {
			spec := parse.LockSpec{Schema: t.Schema.O, Name: t.Name.O}
			if spec.Schema == "" {
				if spec.Schema = h.host.CurrentDB(); spec.Schema == "" {
					return nil, ack, sqlerr.New(sqlerr.ErNoDB, "No database selected")
				}
			}
			if !h.locks.exists(spec, false) {
				return nil, ack, sqlerr.New(sqlerr.ErNoSuchTable, "Table '%s.%s' doesn't exist", spec.Schema, spec.Name)
			}
			specs = append(specs, spec)
		}
		return &exec.Result{}, ack, h.acquireTables(ctx, specs)
	}
	if h.globalRead {
		return &exec.Result{}, ack, nil
	}
	return &exec.Result{}, ack, h.acquireGlobalRead(ctx)
}

// checkFlushable: in LOCK TABLES mode, flushing a table needs it locked
// WRITE, as in MariaDB.
func (h *Holder) checkFlushable(n *ast.FlushStmt) error {
	if h.locked == nil {
		return nil
	}
	var refs []parse.TableRef
	if len(n.Tables) == 0 {
		for _, spec := range h.locked {
			if !spec.ViaView {
				refs = append(refs, parse.TableRef{Schema: spec.Schema, Name: spec.Name, Alias: spec.Alias, Write: true})
			}
		}
	}
	for _, t := range n.Tables {
		refs = append(refs, parse.TableRef{Schema: t.Schema.O, Name: t.Name.O, Write: true})
	}
	for _, r := range refs {
		if err := h.checkOwnLocks([]parse.TableRef{r}); err != nil {
			return err
		}
	}
	return nil
}

// acquireGlobalRead takes the global read lock: it waits for other
// sessions' WRITE table locks, then for their running writes (not for
// their open transactions, as in MariaDB: their COMMIT waits instead).
func (h *Holder) acquireGlobalRead(ctx context.Context) error {
	l := h.locks
	deadline := h.lockWaitDeadline()
	h.host.SetState("Waiting for global read lock")
	defer h.host.SetState("")
	for {
		l.mu.Lock()
		blocked := false
		for _, w := range l.writer {
			if w != h {
				blocked = true
				break
			}
		}
		if !blocked {
			l.global[h] = true
			h.globalRead = true
			if h.locked == nil {
				l.active.Add(1)
			}
			l.mu.Unlock()
			break
		}
		ch := l.changed
		l.mu.Unlock()
		if err := waitChange(ctx, ch, deadline); err != nil {
			return err
		}
	}
	for {
		l.mu.Lock()
		others := l.othersLocked(h)
		ch := l.changed
		l.mu.Unlock()
		busy := false
		for _, o := range others {
			if u := o.running.Load(); u != nil && u.write {
				busy = true
				break
			}
		}
		if !busy {
			return nil
		}
		if err := waitChange(ctx, ch, deadline); err != nil {
			h.ReleaseGlobalRead()
			return err
		}
	}
}

// ReleaseGlobalRead ends the session's global read lock.
func (h *Holder) ReleaseGlobalRead() {
	if !h.globalRead {
		return
	}
	l := h.locks
	l.mu.Lock()
	delete(l.global, h)
	h.globalRead = false
	if h.locked == nil {
		l.active.Add(-1)
	}
	l.broadcastLocked()
	l.mu.Unlock()
}

func flushKind(n *ast.FlushStmt) string {
	switch n.Tp {
	case ast.FlushStatus:
		return "STATUS"
	}
	return "..."
}
