package sql

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/psm"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// execCreateTrigger is CREATE TRIGGER: checked as MariaDB checks it (the
// table, the name, the body compiled against the table's columns), then
// logged and added to the catalog. Like other DDL it commits the open
// transaction first.
func (s *Session) execCreateTrigger(ctx context.Context, p *parse.Stmt) (*exec.Result, uint64, error) {
	st, err := procs.ParseCreateTrigger(p.Text)
	if err != nil {
		return nil, 0, err
	}
	ack, err := s.finishOpen(ctx)
	if err != nil {
		return nil, ack, err
	}
	if err := s.checkWritable(); err != nil {
		return nil, ack, err
	}
	d := *st.Def
	db := d.DB
	switch {
	case db == "" && d.TableDB != "":
		db = d.TableDB
	case db == "":
		db = s.DB
	case d.TableDB != "" && !strings.EqualFold(d.TableDB, db):
		return nil, ack, sqlerr.New(sqlerr.ErTrgInWrongSchema, "Trigger in wrong schema")
	}
	if db, err = s.procDB(db); err != nil {
		return nil, ack, err
	}
	cat := s.database.Txns.Catalog()
	t := cat.Table(db, d.Table)
	if t == nil {
		if cat.View(db, d.Table) != nil {
			return nil, ack, sqlerr.New(sqlerr.ErNotView, "'%s.%s' is not of type 'BASE TABLE'", db, d.Table)
		}
		if s.State.TempTable(db, d.Table) != nil {
			return nil, ack, sqlerr.New(sqlerr.ErTrgOnViewOrTempTable, "Trigger's '%s' is a view, temporary table or sequence", d.Table)
		}
		return nil, ack, sqlerr.New(sqlerr.ErNoSuchTable, "Table '%s.%s' doesn't exist", db, d.Table)
	}
	d.DB, d.TableDB, d.Table = "", "", t.Def.Name
	if old, ok := s.database.Procs.GetTrigger(db, d.Name); ok && !st.OrReplace {
		_ = old
		if st.IfNotExists {
			return exec.Noted("Note", sqlerr.ErTrgAlreadyExists, "Trigger '%s.%s' already exists", db, d.Name), ack, nil
		}
		return nil, ack, sqlerr.New(sqlerr.ErTrgAlreadyExists, "Trigger '%s.%s' already exists", db, d.Name)
	}
	if _, err := compileTrigger(t.Def, &d); err != nil {
		return nil, ack, err
	}
	tr := &procs.Trigger{DB: db, Def: d, Created: createdStamp(time.Now()),
		SQLMode: s.getVar(sysvar.Defs["sql_mode"], false), Definer: "root@localhost", Text: strings.TrimRight(strings.TrimSpace(parse.StripLeading(p.Text)), ";")}
	raw, err := json.Marshal(tr)
	if err != nil {
		return nil, ack, err
	}
	err = s.database.Txns.LogDDL(ctx, &txn.DDLRecord{Op: "create_trigger", DB: db, Name: d.Name, Proc: raw}, func() error {
		return s.database.Procs.CreateTrigger(tr, st.OrReplace)
	})
	s.database.SchemaChanged()
	if err != nil {
		return nil, ack, err
	}
	return &exec.Result{}, ack, nil
}

// createdStamp is a trigger's Created time as MariaDB prints it
// (hundredths of a second).
func createdStamp(t time.Time) string {
	return t.Format("2006-01-02 15:04:05.00")
}

// execDropTrigger is DROP TRIGGER [IF EXISTS] [db.]name.
func (s *Session) execDropTrigger(ctx context.Context, p *parse.Stmt) (*exec.Result, uint64, error) {
	db, name := splitProcName(p.Name, s.DB)
	db, err := s.procDB(db)
	if err != nil {
		return nil, 0, err
	}
	if _, ok := s.database.Procs.GetTrigger(db, name); !ok {
		if p.IfExists {
			return exec.Noted("Note", sqlerr.ErTrgDoesNotExist, "Trigger does not exist"), 0, nil
		}
		return nil, 0, sqlerr.New(sqlerr.ErTrgDoesNotExist, "Trigger does not exist")
	}
	ack, err := s.finishOpen(ctx)
	if err != nil {
		return nil, ack, err
	}
	if err := s.checkWritable(); err != nil {
		return nil, ack, err
	}
	err = s.database.Txns.LogDDL(ctx, &txn.DDLRecord{Op: "drop_trigger", DB: db, Name: name}, func() error {
		return s.database.Procs.DropTrigger(db, name, true)
	})
	s.database.SchemaChanged()
	return &exec.Result{}, ack, err
}

// compileTrigger compiles d's body against the columns of def.
func compileTrigger(def *storage.TableDef, d *procs.TriggerDef) (*psm.Trigger, error) {
	cols := make([]string, len(def.Columns))
	typs := make([]types.ColType, len(def.Columns))
	for i, c := range def.Columns {
		cols[i], typs[i] = c.Name, c.Type
	}
	return psm.CompileTrigger(d.Name, d.Body, cols, typs, d.Timing, d.Event)
}

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
			prog, err := compileTrigger(t.Def, &tr.Def)
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
