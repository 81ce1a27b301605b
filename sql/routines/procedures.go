package routines

import (
	"context"
	"encoding/json"
	"os"
	"time"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/dataio"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/txn"
)

// CreateProc is CREATE PROCEDURE.
func (r DDL) CreateProc(ctx context.Context, p *parse.Stmt) (*exec.Result, uint64, error) {
	def, orReplace, err := procs.ParseCreate(p.Text)
	if err != nil {
		return nil, 0, err
	}
	ack, err := r.h.CommitOpen(ctx)
	if err != nil {
		return nil, ack, err
	}
	return &exec.Result{}, ack, r.CreateProcedure(ctx, def, orReplace)
}

// CreateProcedure compiles def (syntax is checked here), logs it and adds
// it to the catalog.
func (r DDL) CreateProcedure(ctx context.Context, def *procs.Definition, orReplace bool) error {
	db, name := SplitName(def.Name, r.h.Statement().DB)
	db, err := r.createDB(db)
	if err != nil {
		return err
	}
	d := *def
	d.Name = name
	if d.Definer == "" {
		d.Definer = r.h.Definer()
	}
	old, _, exists := r.c.Procs.Get(db, name)
	if exists && !orReplace {
		return sqlerr.New(sqlerr.ErSPAlreadyExists, "PROCEDURE %s already exists", name)
	}
	// The times go into the log record, so a restart shows when the
	// procedure was created and changed, not when the log was replayed.
	d.Modified = time.Now().Format("2006-01-02 15:04:05")
	d.Created = d.Modified
	if exists {
		d.Created = old.Created
	}
	// Compile before logging so a body with a syntax error is never logged.
	if err := procs.NewCatalog(r.c.Runtimes...).CreateIn(db, &d, true); err != nil {
		return err
	}
	raw, err := json.Marshal(&d)
	if err != nil {
		return err
	}
	return r.c.Txns.LogDDL(ctx, &txn.DDLRecord{Op: "create_proc", DB: db, Name: name, Proc: raw}, func() error {
		return r.c.Procs.CreateIn(db, &d, orReplace)
	})
}

// DropProc is DROP PROCEDURE [IF EXISTS].
func (r DDL) DropProc(ctx context.Context, p *parse.Stmt) (*exec.Result, uint64, error) {
	db, name := SplitName(p.Name, r.h.Statement().DB)
	db, err := r.routineDB(db)
	if err != nil {
		return nil, 0, err
	}
	if _, _, ok := r.c.Procs.Get(db, name); !ok {
		if p.IfExists {
			return exec.Noted("Note", sqlerr.ErSPDoesNotExist, "PROCEDURE %s.%s does not exist", db, name), 0, nil
		}
		return nil, 0, sqlerr.New(sqlerr.ErSPDoesNotExist, "PROCEDURE %s.%s does not exist", db, name)
	}
	err = r.c.Txns.LogDDL(ctx, &txn.DDLRecord{Op: "drop_proc", DB: db, Name: name}, func() error {
		return r.c.Procs.Drop(db, name, true)
	})
	return &exec.Result{}, 0, err
}

// LoadProcedures runs LOAD PROCEDURE 'path': a *.lua / *.js file, or every
// such file of a folder, each a CREATE OR REPLACE PROCEDURE.
func (r DDL) LoadProcedures(ctx context.Context, path string) (int, error) {
	if err := dataio.CheckFilePriv(r.h.SysVar("secure_file_priv"), path); err != nil {
		return 0, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return 0, sqlerr.New(sqlerr.ErFileNotFound, "Can't find file: '%s' (%v)", path, err)
	}
	var defs []*procs.Definition
	if st.IsDir() {
		if defs, err = procs.LoadDir(path); err != nil {
			return 0, err
		}
	} else {
		body, err := os.ReadFile(path)
		if err != nil {
			return 0, sqlerr.New(sqlerr.ErFileNotFound, "Can't read file: '%s' (%v)", path, err)
		}
		d, err := procs.ParseFile(path, body)
		if err != nil {
			return 0, err
		}
		defs = []*procs.Definition{d}
	}
	if _, err := r.h.CommitOpen(ctx); err != nil {
		return 0, err
	}
	for _, d := range defs {
		if err := r.CreateProcedure(ctx, d, true); err != nil {
			return 0, err
		}
	}
	return len(defs), nil
}
