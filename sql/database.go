package sql

import (
	"context"
	"log/slog"
	"sync/atomic"

	"github.com/plrun/plrun/hotrow"
	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/acl"
	"github.com/plrun/plrun/sql/counters"
	"github.com/plrun/plrun/sql/enginestatus"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/privilege"
	"github.com/plrun/plrun/sql/querylog"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sql/tablelock"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// Database is what the sessions of one open database share. The engine
// builds it once recovery is done (NewDatabase) and implements Engine.
type Database struct {
	Txns     *txn.Manager
	Procs    *procs.Catalog
	Runtimes []procs.Runtime // the languages procedures compile in
	Hot      *hotrow.Batcher
	Globals  *sysvar.Globals
	Engine   Engine
	// Accounts is the account catalog (CREATE USER, GRANT, SHOW GRANTS;
	// the server's logins). The engine sets it.
	Accounts *acl.Catalog

	// The settings sessions read per statement, mirrored from Globals by
	// the engine whenever a global changes.
	ELR               atomic.Bool
	Hotspot           atomic.Bool
	HotspotAutocommit atomic.Bool
	HotspotWait       atomic.Int64 // microseconds

	// Counters are the statement counters of SHOW GLOBAL STATUS.
	Counters counters.Counters
	// QueryLog is the general and slow query log (nil: none, as in
	// tools without an engine); the engine sets it before any session.
	QueryLog *querylog.Logs
	// Logger is the error log (nil: none), for what only a session
	// knows, such as who sent a KILL.
	Logger *slog.Logger
	// ReopenErrorLog reopens the error log's file (FLUSH ERROR LOGS);
	// nil when the error log is no file.
	ReopenErrorLog func() error

	// latestDeadlock is the last deadlock refused (SHOW ENGINE PLRUN
	// STATUS's LATEST DETECTED DEADLOCK; lockreport.go).
	latestDeadlock atomic.Pointer[enginestatus.Deadlock]

	plans       *parse.Cache
	locks       *tablelock.Locks // LOCK TABLES, FLUSH TABLES WITH READ LOCK, metadata locks
	schemaEpoch atomic.Uint64
	nextSess    atomic.Uint64
}

// Engine is what a session asks of the database around it: the worker
// pool, the session registry, checkpoints, KILL, global settings and
// status. engine.Engine implements it.
type Engine interface {
	// Closed reports whether the database is shutting down.
	Closed() bool
	// AcquireWorker takes a slot of the worker pool for one statement;
	// ReleaseWorker gives it back (never held while waiting for the log).
	AcquireWorker(ctx context.Context) error
	ReleaseWorker()
	// Register and Unregister keep the session registry (PROCESSLIST,
	// KILL, shutdown).
	Register(s *Session)
	Unregister(s *Session)
	// StatementDone is called after every top-level statement: the
	// engine may start a checkpoint.
	StatementDone()
	Checkpoint(ctx context.Context) (uint64, error)
	Kill(id uint64, queryOnly bool) error
	Processlist() []SessionInfo
	Status() [][2]string
	// DurableLSN is the newest LSN the log has made durable.
	DurableLSN() uint64
	// SetGlobal validates and sets a global variable and applies it;
	// ResetGlobal sets one back to its compiled-in default.
	SetGlobal(name string, v types.Value) (*exec.Note, error)
	ResetGlobal(d *sysvar.Def)
	// PersistSetting and ResetPersisted are ALTER SYSTEM SET / SET
	// PERSIST[_ONLY] and RESET PERSIST.
	PersistSetting(name string, v types.Value, only bool) (*exec.Note, error)
	ResetPersisted(name string, ifExists bool) error
	// Logger is the error log (engine.Config.Logger; never nil): denied
	// statements are logged there at WARN.
	Logger() *slog.Logger
	// EngineStatus is the commit pipeline's and the last checkpoint's
	// state, for SHOW ENGINE PLRUN STATUS.
	EngineStatus() (enginestatus.Pipeline, enginestatus.Checkpoint)
}

// NewDatabase assembles the shared state of an open database.
func NewDatabase(txns *txn.Manager, catalog *procs.Catalog, runtimes []procs.Runtime, hot *hotrow.Batcher, globals *sysvar.Globals, eng Engine) *Database {
	db := &Database{Txns: txns, Procs: catalog, Runtimes: runtimes, Hot: hot, Globals: globals, Engine: eng, plans: parse.NewCache(4096)}
	db.locks = tablelock.New(txns, db.plans)
	return db
}

// definerGrants is the account a DEFINER names, from the account
// catalog: the account user@host, or else the one a login of user from
// host would be (a dump's DEFINER=`root`@`localhost`, which plrun writes
// for what the operator created, restores onto the seeded 'root'@'%');
// false if neither exists (1449). Only SUPER or the operator can write a
// DEFINER other than the creator, so this widens nothing they could not.
func (db *Database) definerGrants(user, host string) (privilege.Grants, bool) {
	if db.Accounts == nil {
		return nil, false
	}
	st := db.Accounts.Current()
	if st.Lookup(user, host) != nil {
		return db.Accounts.GrantsFor(user, host), true
	}
	if a := st.Match(user, host); a != nil {
		return db.Accounts.GrantsFor(a.User, a.Host), true
	}
	return nil, false
}

// SchemaChanged invalidates the plans built for the old schema.
func (db *Database) SchemaChanged() { db.schemaEpoch.Add(1) }
