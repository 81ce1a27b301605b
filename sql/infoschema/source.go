package infoschema

import (
	"time"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/storage"
)

// Source is what information_schema reads of the session and the engine.
type Source interface {
	Catalog() *storage.Catalog
	Procs() *procs.Catalog
	SysVar(d *sysvar.Def, global bool) string
	// Status is SHOW [GLOBAL] STATUS's rows.
	Status(global bool) [][2]string
	Processlist() []SessionInfo
	// Locks are the row locks held and waited for, Transactions the open
	// transactions (PLRUN_LOCKS, PLRUN_LOCK_WAITS, PLRUN_TRX).
	Locks() []LockInfo
	Transactions() []TrxInfo
}

// SessionInfo is one PROCESSLIST row (SHOW PROCESSLIST).
type SessionInfo struct {
	ID                      uint64
	User, Host, DB, Command string
	Time                    int64
	State, Info             string
	// TrxID is the session's open transaction, 0 if none.
	TrxID uint64
}

// LockInfo is one row lock request: held, or waited for since Since.
type LockInfo struct {
	TableID uint64
	Key     string // the primary-key encoding, as the lock manager keys it
	TrxID   uint64
	Waiting bool
	Since   time.Time // when the wait began (Waiting only)
	// BlockedBy is, for a waiter, the transaction holding the lock.
	BlockedBy uint64
}

// TrxInfo is one open transaction.
type TrxInfo struct {
	ID          uint64
	Session     uint64
	State       string // RUNNING, LOCK WAIT, COMMITTING
	Started     time.Time
	RowsChanged int
	ReadOnly    bool
	Isolation   string
}
