package exec

import (
	"context"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/coerce"
	"github.com/plrun/plrun/sql/dml"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/query"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// INSERT, UPDATE and DELETE are sql/dml's; State is its dml.Host, and
// these are the session's entry points package sql and sql/ddl call.

// TriggerHost runs tables' triggers (dml.TriggerHost).
type TriggerHost = dml.TriggerHost

// UpdatePlan is a compiled UPDATE (the hot-row group update reads it).
type UpdatePlan = dml.UpdatePlan

// writer is the session's writer: made once (a State copied since gets
// its own), it keeps nothing of its own between statements (s.writes
// does), so a trigger body's statement uses it beside the firing one.
func (s *State) writer() *dml.Session {
	if s.w == nil || s.w.Host != dml.Host(s) {
		s.w = &dml.Session{Host: s, Env: &s.Env, Writes: &s.writes}
	}
	s.w.Triggers = s.Triggers
	return s.w
}

// ExecInsert runs INSERT / REPLACE in x.
func (s *State) ExecInsert(ctx context.Context, x *txn.Txn, p *parse.Stmt, n *ast.InsertStmt, args []types.Value) (*Result, error) {
	w := s.writer()
	w.BeginWrites()
	pi, err := s.PlanFor(p, func() (any, error) { return w.PlanInsert(n) })
	if err != nil {
		return nil, err
	}
	return w.RunInsert(ctx, x, pi, args)
}

// InsertSelect writes the rows of the compiled SELECT src into t's columns
// cols (CREATE TABLE ... [IGNORE|REPLACE] SELECT), with t's CHECKs, as
// INSERT [IGNORE] / REPLACE ... SELECT does.
func (s *State) InsertSelect(ctx context.Context, x *txn.Txn, t *storage.Table, cols []int, src QueryPlan, args []types.Value, ignore, replace bool) (*Result, error) {
	q, ok := src.(query.Plan)
	if !ok {
		panic("exec: InsertSelect of a plan BuildQuery did not make")
	}
	return s.writer().InsertSelect(ctx, x, t, cols, q, args, ignore, replace)
}

// BuildUpdate compiles an UPDATE.
func (s *State) BuildUpdate(n *ast.UpdateStmt) (*UpdatePlan, error) { return s.writer().BuildUpdate(n) }

// ExecUpdate runs UPDATE in x.
func (s *State) ExecUpdate(ctx context.Context, x *txn.Txn, p *parse.Stmt, n *ast.UpdateStmt, args []types.Value) (*Result, error) {
	w := s.writer()
	w.BeginWrites()
	pi, err := s.PlanFor(p, func() (any, error) { return w.BuildUpdate(n) })
	if err != nil {
		return nil, err
	}
	return w.RunUpdate(ctx, x, pi.(*UpdatePlan), n, args)
}

// ExecDelete runs DELETE in x.
func (s *State) ExecDelete(ctx context.Context, x *txn.Txn, p *parse.Stmt, n *ast.DeleteStmt, args []types.Value) (*Result, error) {
	w := s.writer()
	w.BeginWrites()
	pi, err := s.PlanFor(p, func() (any, error) { return w.PlanDelete(n) })
	if err != nil {
		return nil, err
	}
	return w.RunDelete(ctx, x, pi, n, args)
}

// AssignTo converts v to type t as MariaDB assigns a stored function's
// argument to its parameter or its return value to the RETURNS type
// (coerce.Assign).
func (s *State) AssignTo(name string, t types.ColType, v types.Value, rowNum int, strict bool) (types.Value, error) {
	return coerce.Assign(&s.Env, name, t, v, rowNum, strict)
}

// LoadRows marks (on) or unmarks the next INSERT as a batch of LOAD
// DATA's lines (dml.Writes.LoadingRows).
func (s *State) LoadRows(on bool) { s.writes.LoadingRows = on }
