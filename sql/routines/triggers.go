package routines

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/psm"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// CreateTrigger is CREATE TRIGGER: checked as MariaDB checks it (the
// table, the name, the body compiled against the table's columns), then
// logged and added to the catalog. Like other DDL it commits the open
// transaction first.
func (r DDL) CreateTrigger(ctx context.Context, p *parse.Stmt) (*exec.Result, uint64, error) {
	st, err := procs.ParseCreateTrigger(p.Text)
	if err != nil {
		return nil, 0, err
	}
	ack, err := r.h.CommitOpen(ctx)
	if err != nil {
		return nil, ack, err
	}
	if err := r.h.CheckWritable(); err != nil {
		return nil, ack, err
	}
	d := *st.Def
	db := d.DB
	switch {
	case db == "" && d.TableDB != "":
		db = d.TableDB
	case db == "":
		db = r.h.Statement().DB
	case d.TableDB != "" && !strings.EqualFold(d.TableDB, db):
		return nil, ack, sqlerr.New(sqlerr.ErTrgInWrongSchema, "Trigger in wrong schema")
	}
	if db, err = r.routineDB(db); err != nil {
		return nil, ack, err
	}
	cat := r.c.Txns.Catalog()
	t := cat.Table(db, d.Table)
	if t == nil {
		if cat.View(db, d.Table) != nil {
			return nil, ack, sqlerr.New(sqlerr.ErNotView, "'%s.%s' is not of type 'BASE TABLE'", db, d.Table)
		}
		if r.h.Statement().TempTable(db, d.Table) != nil {
			return nil, ack, sqlerr.New(sqlerr.ErTrgOnViewOrTempTable, "Trigger's '%s' is a view, temporary table or sequence", d.Table)
		}
		return nil, ack, sqlerr.New(sqlerr.ErNoSuchTable, "Table '%s.%s' doesn't exist", db, d.Table)
	}
	d.DB, d.TableDB, d.Table = "", "", t.Def.Name
	if old, ok := r.c.Procs.GetTrigger(db, d.Name); ok && !st.OrReplace {
		_ = old
		if st.IfNotExists {
			return exec.Noted("Note", sqlerr.ErTrgAlreadyExists, "Trigger '%s.%s' already exists", db, d.Name), ack, nil
		}
		return nil, ack, sqlerr.New(sqlerr.ErTrgAlreadyExists, "Trigger '%s.%s' already exists", db, d.Name)
	}
	if _, err := CompileTrigger(t.Def, &d); err != nil {
		return nil, ack, err
	}
	runAs := st.Definer
	if runAs == "" {
		runAs = r.h.Definer()
	}
	tr := &procs.Trigger{DB: db, Def: d, Created: createdStamp(time.Now()),
		SQLMode: r.h.SysVar("sql_mode"), Definer: showDefiner(runAs), RunAs: runAs, Text: strings.TrimRight(strings.TrimSpace(parse.StripLeading(p.Text)), ";")}
	raw, err := json.Marshal(tr)
	if err != nil {
		return nil, ack, err
	}
	err = r.c.Txns.LogDDL(ctx, &txn.DDLRecord{Op: "create_trigger", DB: db, Name: d.Name, Proc: raw}, func() error {
		return r.c.Procs.CreateTrigger(tr, st.OrReplace)
	})
	r.c.SchemaChanged()
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

// DropTrigger is DROP TRIGGER [IF EXISTS] [db.]name.
func (r DDL) DropTrigger(ctx context.Context, p *parse.Stmt) (*exec.Result, uint64, error) {
	db, name := SplitName(p.Name, r.h.Statement().DB)
	db, err := r.routineDB(db)
	if err != nil {
		return nil, 0, err
	}
	if _, ok := r.c.Procs.GetTrigger(db, name); !ok {
		if p.IfExists {
			return exec.Noted("Note", sqlerr.ErTrgDoesNotExist, "Trigger does not exist"), 0, nil
		}
		return nil, 0, sqlerr.New(sqlerr.ErTrgDoesNotExist, "Trigger does not exist")
	}
	ack, err := r.h.CommitOpen(ctx)
	if err != nil {
		return nil, ack, err
	}
	if err := r.h.CheckWritable(); err != nil {
		return nil, ack, err
	}
	err = r.c.Txns.LogDDL(ctx, &txn.DDLRecord{Op: "drop_trigger", DB: db, Name: name}, func() error {
		return r.c.Procs.DropTrigger(db, name, true)
	})
	r.c.SchemaChanged()
	return &exec.Result{}, ack, err
}

// CompileTrigger compiles d's body against the columns of def.
func CompileTrigger(def *storage.TableDef, d *procs.TriggerDef) (*psm.Trigger, error) {
	cols := make([]string, len(def.Columns))
	typs := make([]types.ColType, len(def.Columns))
	for i, c := range def.Columns {
		cols[i], typs[i] = c.Name, c.Type
	}
	return psm.CompileTrigger(d.Name, d.Body, cols, typs, d.Timing, d.Event)
}

// showDefiner is a trigger's DEFINER as SHOW TRIGGERS lists it
// (user@host, unquoted); root@localhost for the operator's.
func showDefiner(account string) string {
	if account == "" {
		return "root@localhost"
	}
	return strings.NewReplacer("`", "", "'", "", `"`, "").Replace(account)
}
