package exec

import (
	"sync/atomic"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/compose"
	"github.com/plrun/plrun/sql/dml"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// State is what statements (SELECT, INSERT, UPDATE, DELETE) need of the
// session running them: its Env, the transaction manager whose catalog
// names resolve in, and the schema epoch plans are valid for.
type State struct {
	expr.Env
	txns  *txn.Manager
	epoch *atomic.Uint64
	// with holds the WITH clauses around the query being planned.
	with compose.Builder
	// viewDepth counts the views being expanded into the query planned;
	// definingView is set while CREATE VIEW plans its SELECT.
	viewDepth    int
	definingView bool
	temps        map[string]*storage.Table // the session's temporary tables (temptables.go)
	// writes is what the writing statements (sql/dml) keep between them;
	// w is the session's writer over it (writes.go).
	writes dml.Writes
	w      *dml.Session
	// Triggers runs tables' triggers (nil: none fire, as in tools that
	// have no sql layer).
	Triggers TriggerHost
	// SelectLimit is the sql_select_limit the session added to the
	// statement being planned, plus one (0: none): part of the plan
	// cache key, since the same text is planned with and without it.
	SelectLimit uint64
	// Virtual serves the read-only schema information_schema
	// (sql/infoschema); nil where there is none.
	Virtual VirtualSchema
	// virtualBuilds counts the virtual tables built: a plan that built
	// one holds that execution's rows and is never cached.
	virtualBuilds uint64
	// While a plan is built: the statement's arguments, and the WHERE
	// equalities of the single table being resolved (virtual.go).
	buildArgs []types.Value
	buildEq   Equalities
}

// SchemaChanged drops the plans built for the old schema (after DDL).
func (s *State) SchemaChanged() { s.epoch.Add(1) }

// NewState is the statement state of a session.
func NewState(env expr.Env, txns *txn.Manager, epoch *atomic.Uint64) State {
	return State{Env: env, txns: txns, epoch: epoch}
}

// PlanFor returns p's compiled plan for the session's database and the
// current schema, building it once.
func (s *State) PlanFor(p *parse.Stmt, build func() (any, error)) (any, error) {
	if len(s.temps) > 0 {
		// Plans are shared by every session, and this one's names may
		// resolve to its own temporary tables: build its own.
		return build()
	}
	epoch := s.epoch.Load()
	mode := s.SQLMode() & planModes
	if c := p.Cached.Load(); c != nil && c.Epoch == epoch && c.DB == s.DB && c.Mode == mode && c.Limit == s.SelectLimit {
		return c.Plan, nil
	}
	p.PlanMu.Lock()
	defer p.PlanMu.Unlock()
	if c := p.Cached.Load(); c != nil && c.Epoch == epoch && c.DB == s.DB && c.Mode == mode && c.Limit == s.SelectLimit {
		return c.Plan, nil
	}
	builds := s.virtualBuilds
	pl, err := build()
	if err != nil {
		return nil, err
	}
	if s.virtualBuilds != builds {
		return pl, nil // it holds this execution's information_schema rows
	}
	p.Cached.Store(&parse.PlanEntry{Plan: pl, Epoch: epoch, DB: s.DB, Mode: mode, Limit: s.SelectLimit})
	return pl, nil
}

// dbFor is the database a statement names, or the session's: 1046 if
// neither.
func (s *State) DBFor(named string) (string, error) {
	if named != "" {
		return named, nil
	}
	if s.DB == "" {
		return "", sqlerr.New(sqlerr.ErNoDB, "No database selected")
	}
	return s.DB, nil
}

// ResolveTable finds db.name for the session.
func (s *State) ResolveTable(tn *ast.TableName) (*storage.Table, error) {
	db, err := s.DBFor(tn.Schema.O)
	if err != nil {
		return nil, err
	}
	if s.IsVirtual(db) {
		t := s.Virtual.Table(db, tn.Name.O, s.buildEq)
		if t == nil {
			if name := s.VirtualName(db); name != "information_schema" {
				// performance_schema's missing tables are missing tables
				// (1146), as MariaDB says; information_schema's are 1109
				return nil, sqlerr.New(sqlerr.ErNoSuchTable, "Table '%s.%s' doesn't exist", name, tn.Name.O)
			}
			return nil, sqlerr.New(sqlerr.ErUnknownTable, "Unknown table '%s' in %s", tn.Name.O, s.VirtualName(db))
		}
		s.virtualBuilds++
		return t, nil
	}
	t := s.TempTable(db, tn.Name.O)
	if t == nil {
		t = s.txns.Catalog().Table(db, tn.Name.O)
	}
	if t == nil {
		return nil, sqlerr.New(sqlerr.ErNoSuchTable, "Table '%s.%s' doesn't exist", db, tn.Name.O)
	}
	return t, nil
}

// ResolveTarget is ResolveTable for a table a statement writes: the
// virtual schema's are refused (1044), as MariaDB refuses them.
func (s *State) ResolveTarget(tn *ast.TableName) (*storage.Table, error) {
	db, err := s.DBFor(tn.Schema.O)
	if err != nil {
		return nil, err
	}
	if s.IsVirtual(db) {
		return nil, s.AccessDenied(db)
	}
	return s.ResolveTable(tn)
}

// AccessDenied is 1044 for a write to virtual schema db.
func (s *State) AccessDenied(db string) error {
	return sqlerr.New(sqlerr.ErDBAccessDenied, "Access denied for user %s to database '%s'", s.Account(), s.VirtualName(db))
}

// planModes are the flags a plan's build depends on: a plan built under
// other ones is rebuilt.
var planModes = sysvar.ModeOnlyFullGroup

// ResolveSource resolves a FROM item naming a stored table, with its
// alias (plan.BuildJoin's resolver for EXPLAIN, which does not describe
// derived tables).
func (s *State) ResolveSource(ts *ast.TableSource) (*storage.Table, string, error) {
	tn, ok := ts.Source.(*ast.TableName)
	if !ok {
		return nil, "", sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support EXPLAIN of derived tables")
	}
	alias := tn.Name.O
	if ts.AsName.O != "" {
		alias = ts.AsName.O
	}
	t, err := s.ResolveTable(tn)
	return t, alias, err
}
