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
	// VarOrigin is where the global variable stored under key got its
	// value (performance_schema.variables_info).
	VarOrigin(key string) sysvar.Origin
	// Status is SHOW [GLOBAL] STATUS's rows.
	Status(global bool) [][2]string
	Processlist() []SessionInfo
	// Locks are the row locks held and waited for (PLRUN_LOCKS,
	// PLRUN_LOCK_WAITS); the open transactions (PLRUN_TRX) are the
	// sessions' (SessionInfo.Trx).
	Locks() []LockInfo
	// ViewColumns are a view's columns (exec.State.ViewColumns) and
	// whether any names a base column; the error is the view's 1356 when
	// its tables are gone.
	ViewColumns(v *storage.ViewDef) ([]storage.Column, bool, error)
	// ViewDefinition is a view's SELECT with its tables' databases
	// (exec.State.ViewDefinition).
	ViewDefinition(v *storage.ViewDef) string
	// Warn adds a warning to the statement's (a broken view's 1356).
	Warn(code uint16, msg string)
}

// SessionInfo is one PROCESSLIST row (SHOW PROCESSLIST).
type SessionInfo struct {
	ID                      uint64
	User, Host, DB, Command string
	Time                    int64
	State, Info             string
	// Trx are the session's open transactions (PLRUN_TRX).
	Trx []TrxInfo
}

// LockInfo is one held row lock and the transactions waiting for it, in
// the order they will get it.
type LockInfo struct {
	// Key is the lock manager's key: "<table id>/<primary key>" for a row,
	// "<table id>/u<index>/<key>" for a unique-key value.
	Key     string
	Holder  uint64
	Waiters []WaiterInfo
}

// WaiterInfo is a transaction waiting for a lock since Since.
type WaiterInfo struct {
	TrxID uint64
	Since time.Time
}

// TrxInfo is one open transaction.
type TrxInfo struct {
	ID          uint64
	Session     uint64
	Started     time.Time
	RowsChanged int
	ReadOnly    bool
	Isolation   string
}
