package sql

import (
	"errors"
	"time"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/plrun/plrun/lockmgr"
	"github.com/plrun/plrun/sql/enginestatus"
	"github.com/plrun/plrun/sql/infoschema"
	"github.com/plrun/plrun/sql/querylog"
)

// reportLockFailure writes a deadlock or lock-wait timeout the statement
// query met to the error log, and keeps a deadlock for SHOW ENGINE PLRUN
// STATUS. It runs only for a failed statement: a DML statement reports
// before its transaction is rolled back (runDML), so the other
// transactions of a deadlock are still where the cycle caught them; any
// other statement when it fails. A failure is reported once, by the
// innermost statement, though a CALL fails with it too.
func (s *Session) reportLockFailure(query string, err error) {
	var dl *lockmgr.DeadlockError
	var to *lockmgr.LockWaitTimeoutError
	switch {
	case errors.As(err, &dl):
		if s.reportedLock == error(dl) {
			return
		}
		s.reportedLock = dl
		d := s.database.deadlockOf(s.self(query), dl)
		s.database.latestDeadlock.Store(d)
		enginestatus.LogDeadlock(s.database.Engine.Logger(), d)
	case errors.As(err, &to):
		if s.reportedLock == error(to) {
			return
		}
		s.reportedLock = to
		ix := s.database.trxIndex()
		w := enginestatus.LockWait{Waiter: s.self(query), Row: s.database.lockRow(to.Key)}
		w.Waiter.ID = uint64(to.Txn)
		if !to.Dependents {
			w.Holder = ix.ref(uint64(to.Holder))
		}
		enginestatus.LogLockWaitTimeout(s.database.Engine.Logger(), w, to.Waited)
	}
}

// self is the session running query, as the reports name a transaction.
func (s *Session) self(query string) enginestatus.Trx {
	query = querylog.RedactText(query, mysql.ModeNone) // before cutting: a cut statement does not parse
	if len(query) > 1024 {
		query = query[:1024]
	}
	return enginestatus.Trx{Session: s.id, Query: query}
}

// deadlockOf describes a refused cycle; victim is the requester's session
// (its transaction has already been rolled back, so the registry no
// longer lists it).
func (db *Database) deadlockOf(victim enginestatus.Trx, dl *lockmgr.DeadlockError) *enginestatus.Deadlock {
	ix := db.trxIndex()
	n := len(dl.Cycle)
	d := &enginestatus.Deadlock{At: time.Now()}
	for i, e := range dl.Cycle {
		t := enginestatus.DeadlockTrx{Trx: ix.ref(uint64(e.Txn)), WaitsFor: db.lockRow(e.Key),
			Holds: db.lockRow(dl.Cycle[(i+n-1)%n].Key)}
		if i == 0 {
			t.Trx = victim
			t.ID = uint64(e.Txn)
		}
		d.Txns = append(d.Txns, t)
	}
	return d
}

// trxIndex maps each open transaction to its session's PROCESSLIST row.
type trxIndex map[uint64]SessionInfo

func (db *Database) trxIndex() trxIndex {
	ix := trxIndex{}
	for _, si := range db.Engine.Processlist() {
		for _, t := range si.Trx {
			ix[t.ID] = si
		}
	}
	return ix
}

// ref names transaction id with its session and statement, if it has one.
func (ix trxIndex) ref(id uint64) enginestatus.Trx {
	si, ok := ix[id]
	if !ok {
		return enginestatus.Trx{ID: id}
	}
	return enginestatus.Trx{ID: id, Session: si.ID, Query: si.Info}
}

// lockRow is the row a lock key names.
func (db *Database) lockRow(key lockmgr.Key) enginestatus.Row {
	t, i, d := infoschema.LockPlace(db.Txns.Catalog(), string(key))
	return enginestatus.Row{Table: t, Index: i, Data: d}
}

// lockWaits lists every row-lock wait now, with both sides' sessions.
func (db *Database) lockWaits(ix trxIndex) []enginestatus.LockWait {
	var out []enginestatus.LockWait
	for _, h := range db.Txns.Locks.Locks() {
		row := db.lockRow(h.Key)
		for _, w := range h.Waiters {
			out = append(out, enginestatus.LockWait{Waiter: ix.ref(uint64(w.Txn)), Holder: ix.ref(uint64(h.Holder)), Row: row, Since: w.Since})
		}
	}
	for txn, w := range db.Txns.Locks.DependentWaits() {
		out = append(out, enginestatus.LockWait{Waiter: ix.ref(uint64(txn)), Row: db.lockRow(w.Key), Since: w.Since, Dependents: true})
	}
	return out
}
