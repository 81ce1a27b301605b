package sql

import (
	"context"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/psm"
	"github.com/plrun/plrun/sql/routines"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// compiledTrigger is a trigger compiled for one version of its table.
type compiledTrigger struct {
	def  *storage.TableDef
	prog *psm.Trigger
}

// triggerHost is the session as sql/exec's TriggerHost.
type triggerHost struct{ s *Session }

func (h triggerHost) HasTriggers(t *storage.Table, event string) bool {
	return h.s.database.Procs.HasTriggers(t.Def.DB, t.Def.Name)
}

// FireTriggers runs t's triggers of timing and event for one row, each
// body nested in the firing statement as a stored function's is: its
// statements join the statement's transaction, so an error anywhere
// fails the statement and its changes roll back with it.
func (h triggerHost) FireTriggers(ctx context.Context, x *txn.Txn, t *storage.Table, timing, event string, old, nw []types.Value) ([]types.Value, error) {
	s := h.s
	trs := s.database.Procs.TriggersOf(t.Def.DB, t.Def.Name, timing, event)
	for _, tr := range trs {
		ct := s.triggerProgs[tr]
		if ct == nil || ct.def != t.Def {
			prog, err := routines.CompileTrigger(t.Def, &tr.Def)
			if err != nil {
				return nil, err
			}
			if s.triggerProgs == nil {
				s.triggerProgs = map[*procs.Trigger]*compiledTrigger{}
			}
			ct = &compiledTrigger{def: t.Def, prog: prog}
			s.triggerProgs[tr] = ct
		}
		out, err := s.runTrigger(ctx, x, tr, ct.prog, old, nw)
		if err != nil {
			return nil, err
		}
		if out != nil {
			nw = out
		}
	}
	return nw, nil
}

// runTrigger runs one trigger body as evalScriptFunction runs a function
// body: through the function host (no transaction control, 1422), with
// the statement's snapshot set aside meanwhile.
func (s *Session) runTrigger(ctx context.Context, x *txn.Txn, tr *procs.Trigger, prog *psm.Trigger, old, nw []types.Value) ([]types.Value, error) {
	key := "trigger " + tr.Key()
	for _, k := range s.runningFuncs {
		if k == key {
			return nil, sqlerr.New(sqlerr.ErSPNoRecursion, "Recursive stored functions and triggers are not allowed")
		}
	}
	if ctx == nil {
		ctx = context.Background()
	}
	restore, err := s.runAsTrigger(tr)
	if err != nil {
		return nil, err
	}
	defer restore()
	s.runningFuncs = append(s.runningFuncs, key)
	savedAck := s.callAck
	s.callDepth++
	if s.functionHost == nil {
		s.functionHost = envFunctionHost{Host: procs.FunctionHost(&procHost{s: s}), env: &s.Env}
	}
	outerTxn, outerDB := s.stmtTxn, s.DB
	// the body runs in the trigger's database, as in MariaDB: its
	// unqualified names are that database's tables
	s.stmtTxn, s.DB = x, tr.DB
	outer := x.SuspendStatement()
	out, err := prog.Fire(ctx, s.functionHost, old, nw)
	x.ResumeStatement(outer)
	s.stmtTxn, s.DB = outerTxn, outerDB
	s.callDepth--
	s.runningFuncs = s.runningFuncs[:len(s.runningFuncs)-1]
	s.callAck = max(savedAck, s.callAck)
	if err != nil {
		return nil, MapError(err)
	}
	return out, nil
}
