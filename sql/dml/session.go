package dml

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/constraint"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/query"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sql/view"
	"github.com/plrun/plrun/storage"
)

// Host is what writing statements ask of the session planning them
// (sql/exec's State): names, views and subqueries resolve through it
// (view.Host) and an INSERT ... SELECT's query is planned by it. The
// session also caches the plans (PlanInsert, BuildUpdate, PlanDelete
// make them) and starts each statement (BeginWrites).
type Host interface {
	view.Host
	PlanQuery(n ast.Node, outer *expr.Scope) (query.Plan, error)
}

// Writes is a session's state between the writing statements it runs
// (kept by sql/exec's State, shared by the statements of the trigger
// bodies a write fires).
type Writes struct {
	fkw        *constraint.Writer // the running statement's (constraints.go)
	triggering []*storage.Table   // the tables whose triggers run
	// LoadingRows: the next INSERT is LOAD DATA's (sql/dataio), a batch
	// of the file's lines. As MariaDB's LOAD DATA it is a multi-row write
	// however few lines the batch has (non-strict mode stores a NULL for
	// a NOT NULL column as its default), and the rows IGNORE skips warn
	// among the statement's other warnings, in row order, where LOAD DATA
	// numbers them by line. That INSERT takes it and clears it.
	LoadingRows bool
}

// Session is one session's writer: its Host, its Env and its Writes. It
// is made once per session (sql/exec's State.writer) and keeps nothing of
// its own: everything lives in those three, so the statements a trigger
// body runs use it beside the firing one.
type Session struct {
	Host
	*expr.Env
	*Writes
	// Triggers runs tables' triggers (nil: none fire).
	Triggers TriggerHost
}

// Functions are the session's stored functions (Host and Env both have
// them: the Env's).
func (s *Session) Functions() expr.FunctionHost { return s.Env.Functions() }

// SQLMode is the session's sql_mode (Host and Env both have it: the
// Env's).
func (s *Session) SQLMode() sysvar.SQLMode { return s.Env.SQLMode() }
