package routines

import (
	"context"
	"encoding/json"
	"time"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/txn"
)

// Stored functions: CREATE/DROP FUNCTION, SHOW FUNCTION STATUS and SHOW
// CREATE FUNCTION. They are stored like procedures (a DDL log record, the
// snapshot), in a namespace of their own; a change bumps the schema epoch
// so that plans that named a function are rebuilt (funcs_call.go).

// CreateFunc is CREATE FUNCTION.
func (r DDL) CreateFunc(ctx context.Context, p *parse.Stmt) (*exec.Result, uint64, error) {
	st, err := procs.ParseCreateFunction(p.Text)
	if err != nil {
		return nil, 0, err
	}
	ack, err := r.h.CommitOpen(ctx)
	if err != nil {
		return nil, ack, err
	}
	res, err := r.CreateFunction(ctx, st)
	return res, ack, err
}

// CreateFunction compiles a parsed CREATE FUNCTION (a body that does not
// compile is never logged), logs it and adds it to the catalog.
func (r DDL) CreateFunction(ctx context.Context, st *procs.CreateStmt) (*exec.Result, error) {
	db, name := SplitName(st.Def.Name, r.h.Statement().DB)
	db, err := r.createDB(db)
	if err != nil {
		return nil, err
	}
	d := *st.Def
	d.Name = name
	if d.Definer == "" {
		d.Definer = r.h.Definer()
	}
	f := *d.Func
	f.SQLMode = r.h.SysVar("sql_mode")
	d.Func = &f
	old, _, exists := r.c.Procs.GetFunction(db, name)
	if exists && !st.OrReplace {
		if st.IfNotExists {
			return exec.Noted("Note", sqlerr.ErSPAlreadyExists, "FUNCTION %s already exists", name), nil
		}
		return nil, sqlerr.New(sqlerr.ErSPAlreadyExists, "FUNCTION %s already exists", name)
	}
	d.Modified = time.Now().Format("2006-01-02 15:04:05")
	d.Created = d.Modified
	if exists {
		d.Created = old.Created
	}
	if err := r.c.Procs.CheckFunction(&d); err != nil {
		return nil, err
	}
	if err := r.h.CheckFunction(db, &d); err != nil {
		return nil, err
	}
	raw, err := json.Marshal(&d)
	if err != nil {
		return nil, err
	}
	err = r.c.Txns.LogDDL(ctx, &txn.DDLRecord{Op: "create_func", DB: db, Name: name, Proc: raw}, func() error {
		return r.c.Procs.CreateFunctionIn(db, &d, true)
	})
	r.c.SchemaChanged()
	if err != nil {
		return nil, err
	}
	if expr.IsBuiltinFunction(name) {
		// MariaDB creates it, and says a plain name(...) still calls the
		// built-in (only db.name(...) reaches the stored function).
		return exec.Noted("Note", sqlerr.ErNativeFctNameCollision, "This function '%s' has the same name as a native function", name), nil
	}
	return &exec.Result{}, nil
}

// DropFunc is DROP FUNCTION [IF EXISTS].
func (r DDL) DropFunc(ctx context.Context, p *parse.Stmt) (*exec.Result, uint64, error) {
	db, name := SplitName(p.Name, r.h.Statement().DB)
	db, err := r.routineDB(db)
	if err != nil {
		return nil, 0, err
	}
	if _, _, ok := r.c.Procs.GetFunction(db, name); !ok {
		if p.IfExists {
			return exec.Noted("Note", sqlerr.ErSPDoesNotExist, "FUNCTION %s.%s does not exist", db, name), 0, nil
		}
		return nil, 0, sqlerr.New(sqlerr.ErSPDoesNotExist, "FUNCTION %s.%s does not exist", db, name)
	}
	ack, err := r.h.CommitOpen(ctx)
	if err != nil {
		return nil, ack, err
	}
	err = r.c.Txns.LogDDL(ctx, &txn.DDLRecord{Op: "drop_func", DB: db, Name: name}, func() error {
		return r.c.Procs.DropFunction(db, name, true)
	})
	r.c.SchemaChanged()
	return &exec.Result{}, ack, err
}

// ReturnsText is a function's RETURNS type as SHOW CREATE FUNCTION prints
// it (MariaDB's column type text: INT is int(11)), or as written.
func ReturnsText(written string) string {
	if t, err := parse.TypeOf(written); err == nil {
		return t.SQL()
	}
	return written
}
