package plrun

import (
	"context"
	"log/slog"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"

	"github.com/plrun/plrun/sql"
	"github.com/plrun/plrun/types"
)

// Result is one statement's outcome: a result set (Columns != nil) or an OK.
// A CALL's Result is its final OK, and Result.Sets holds the result sets
// its procedure returned before it, in order (session.emit in Lua and
// JavaScript, a SELECT in SQL), and print / console.log output is in
// Result.Notes (level Note, code 1105).
type Result = sql.Result

// Column describes a result-set column.
type Column = sql.Column

// Value is one SQL value; Value.String() formats it as MySQL prints it.
type Value = types.Value

// Options configure Open. The zero value is the default.
type Options struct {
	// Settings are global variables applied at open, as SET GLOBAL would:
	// e.g. {"enable_early_lock_release": "ON", "innodb_flush_log_at_trx_commit": "2"}.
	Settings map[string]string
	// ProcsDir, if set, is a folder of *.lua / *.js procedure files loaded
	// (CREATE OR REPLACE) at open.
	ProcsDir string
	// Workers bounds how many statements execute at once (0 = default).
	Workers int
	// Logger is the error log (recovery, checkpoints, fail-stop, KILL);
	// nil logs nothing.
	Logger *slog.Logger
	// OptionSettings are settings read from option files (cmd/plrun's
	// plrun.cnf): below plrun-auto.cnf and Settings, as MySQL 8 orders them.
	OptionSettings []engine.OptionSetting
}

// DB is an open plrun database.
type DB struct {
	engine *engine.Engine
}

// Open opens (creating if needed) the database in dir and recovers it: the
// table store, then the log after what the store holds. A folder of the
// format before the store is upgraded; one a newer plrun wrote is refused.
func Open(dir string, opts *Options) (*DB, error) {
	if opts == nil {
		opts = &Options{}
	}
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: dir, Settings: opts.Settings, OptionSettings: opts.OptionSettings, ProcsDir: opts.ProcsDir, Workers: opts.Workers, Logger: opts.Logger})
	if err != nil {
		return nil, err
	}
	return &DB{engine: e}, nil
}

// Engine exposes the SQL engine to plrun's own server and tools.
func (db *DB) Engine() *engine.Engine { return db.engine }

// Session opens a new session (a connection's state: current database,
// transaction, session variables). Close it when done.
func (db *DB) Session() *Session {
	s := db.engine.NewSession()
	s.SetLocalFiles(sql.LocalFilesystem) // LOAD DATA LOCAL reads this process's files
	return &Session{s: s}
}

// Close syncs the log and closes the database. Sessions must be done.
func (db *DB) Close() error { return db.engine.Close() }

// Session is one connection's state. Use it from one goroutine at a time.
type Session struct {
	s *sql.Session
}

// Exec runs one SQL statement with ? placeholders bound to args (nil,
// integers, floats, strings, []byte, bool, time.Time).
func (s *Session) Exec(ctx context.Context, query string, args ...any) (*Result, error) {
	return s.s.Exec(ctx, query, args)
}

// Query is Exec for statements that return rows; it is the same call,
// named for readability.
func (s *Session) Query(ctx context.Context, query string, args ...any) (*Result, error) {
	return s.s.Exec(ctx, query, args)
}

// ExecScript runs every statement of a script (statements separated by
// ';', procedure bodies in $$ quotes kept whole) and stops at the first
// error, returning the results so far.
func (s *Session) ExecScript(ctx context.Context, script string) ([]*Result, error) {
	return s.s.ExecMulti(ctx, script)
}

// Call runs CALL name(args...) and returns the values of the procedure's
// parameters after the call (OUT and INOUT ones set, IN ones as passed).
// It returns no result sets: for a procedure that emits some, use
// Exec(ctx, "CALL name(?, ...)", args...) and read Result.Sets.
func (s *Session) Call(ctx context.Context, name string, args ...any) ([]Value, error) {
	return s.s.Call(ctx, name, args)
}

// SQL returns the underlying SQL session.
func (s *Session) SQL() *sql.Session { return s.s }

// Close rolls back any open transaction and frees the session.
func (s *Session) Close() { s.s.Close() }
