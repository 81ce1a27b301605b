package sql

import (
	"strconv"

	"github.com/plrun/plrun/lockmgr"
	"github.com/plrun/plrun/txn"
)

// PROCESSLIST State values. A state change is one atomic store of a
// pointer to one of these (Session.stateP), so a statement pays no lock
// and no formatting for it; what needs a number (the row lock's holder)
// is derived when PROCESSLIST is read, from the lock manager's waits-for
// graph (rowLockState), and costs the lock path nothing.
var (
	stateExecuting   = "executing"
	stateSending     = "Sending data"
	stateELRDeps     = "waiting for ELR dependents"
	stateHotLeader   = "in hot-row group (leader)"
	stateHotFollower = "in hot-row group (follower)"
	// stateRowLock is what a row-lock waiter shows when its holder's
	// session is not known (a transaction of no session).
	stateRowLock = "waiting for row lock"
)

// SendingResult tells PROCESSLIST that the server is writing the last
// statement's rows to the client: the session shows Command Query and
// State "Sending data" with that statement until ResultSent, as MySQL
// shows a client that reads its result slowly. One atomic store each.
func (s *Session) SendingResult() { s.sending.Store(true) }

// ResultSent ends SendingResult.
func (s *Session) ResultSent() { s.sending.Store(false) }

// setState sets a State given as text (the table-lock waits of
// sql/tablelock); "" is the running statement's plain "executing".
func (s *Session) setState(state string) {
	if state == "" {
		s.stateP.Store(&stateExecuting)
		return
	}
	s.stateP.Store(&state)
}

// stateLocked is the PROCESSLIST State now; s.mu is held. An idle
// session (Command Sleep) has none, as in MySQL. A transaction waiting in
// the lock manager overrides the statement's own state: the row lock's
// holder transaction is returned for the caller to name its session.
func (s *Session) stateLocked() (state string, holderTrx uint64, rowLockWait bool) {
	if s.command == "Sleep" {
		return "", 0, false
	}
	if p := s.stateP.Load(); p != nil {
		state = *p
	}
	for _, l := range s.live {
		if l.x.Ended() {
			continue
		}
		if w, ok := s.database.Txns.Locks.WaitOf(lockmgr.TxnID(l.x.ID)); ok {
			if w.Dependents {
				return stateELRDeps, 0, false
			}
			if p := s.stateP.Load(); p == &stateHotLeader {
				// a group's leader takes the row lock for its group
				return stateHotLeader + ", " + stateRowLock, uint64(w.Holder), true
			}
			return stateRowLock, uint64(w.Holder), true
		}
	}
	return state, 0, false
}

// ResolveLockHolders names, in each row-lock waiter's State, the session
// whose transaction holds the row: "waiting for row lock (held by N)"
// ("in hot-row group (leader), waiting for row lock (held by N)" for a
// group's leader, which waits for the row on behalf of its followers).
// infos is every session's row (Engine.Processlist), so the holder's
// session is among them when it has one.
func ResolveLockHolders(infos []SessionInfo) {
	var byTrx map[uint64]uint64
	for i := range infos {
		if !infos[i].RowLockWait {
			continue
		}
		if byTrx == nil {
			byTrx = map[uint64]uint64{}
			for _, si := range infos {
				for _, t := range si.Trx {
					byTrx[t.ID] = si.ID
				}
			}
		}
		if id, ok := byTrx[infos[i].LockHolderTrx]; ok {
			infos[i].State += " (held by " + strconv.FormatUint(id, 10) + ")"
		}
	}
}

// txnStateSink is the session's State as a transaction it drives
// updates it (txn.StateLogSync while a commit waits for its sync).
func (s *Session) txnStateSink(x *txn.Txn) { x.SetStateSink(&s.stateP) }
