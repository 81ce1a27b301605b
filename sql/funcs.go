package sql

import (
	"context"
	"encoding/json"
	"time"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/show"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// Stored functions: CREATE/DROP FUNCTION, SHOW FUNCTION STATUS and SHOW
// CREATE FUNCTION. They are stored like procedures (a DDL log record, the
// snapshot), in a namespace of their own; a change bumps the schema epoch
// so that plans that named a function are rebuilt (funcs_call.go).

func (s *Session) execCreateFunc(ctx context.Context, p *parse.Stmt) (*exec.Result, uint64, error) {
	st, err := procs.ParseCreateFunction(p.Text)
	if err != nil {
		return nil, 0, err
	}
	ack, err := s.finishOpen(ctx)
	if err != nil {
		return nil, ack, err
	}
	res, err := s.CreateFunction(ctx, st)
	return res, ack, err
}

// CreateFunction compiles a parsed CREATE FUNCTION (a body that does not
// compile is never logged), logs it and adds it to the catalog.
func (s *Session) CreateFunction(ctx context.Context, st *procs.CreateStmt) (*exec.Result, error) {
	db, name := splitProcName(st.Def.Name, s.DB)
	db, err := s.procDB(db)
	if err != nil {
		return nil, err
	}
	d := *st.Def
	d.Name = name
	f := *d.Func
	f.SQLMode = s.getVar(sysvar.Defs["sql_mode"], false)
	d.Func = &f
	old, _, exists := s.database.Procs.GetFunction(db, name)
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
	if err := s.database.Procs.CheckFunction(&d); err != nil {
		return nil, err
	}
	if _, err := s.compileFunction(db, &d, nil, false); err != nil {
		return nil, err
	}
	if d.Language == procs.LanguageSQL && !isCompoundBody(d.Body) { // a BEGIN body compiled above
		mode, _ := sysvar.ParseSQLMode(f.SQLMode)
		if _, err := parseSQLFunctionBody(&d, mode); err != nil {
			return nil, err
		}
	}
	raw, err := json.Marshal(&d)
	if err != nil {
		return nil, err
	}
	err = s.database.Txns.LogDDL(ctx, &txn.DDLRecord{Op: "create_func", DB: db, Name: name, Proc: raw}, func() error {
		return s.database.Procs.CreateFunctionIn(db, &d, true)
	})
	s.database.SchemaChanged()
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

func (s *Session) execDropFunc(ctx context.Context, p *parse.Stmt) (*exec.Result, uint64, error) {
	db, name := splitProcName(p.Name, s.DB)
	db, err := s.procDB(db)
	if err != nil {
		return nil, 0, err
	}
	if _, _, ok := s.database.Procs.GetFunction(db, name); !ok {
		if p.IfExists {
			return exec.Noted("Note", sqlerr.ErSPDoesNotExist, "FUNCTION %s.%s does not exist", db, name), 0, nil
		}
		return nil, 0, sqlerr.New(sqlerr.ErSPDoesNotExist, "FUNCTION %s.%s does not exist", db, name)
	}
	ack, err := s.finishOpen(ctx)
	if err != nil {
		return nil, ack, err
	}
	err = s.database.Txns.LogDDL(ctx, &txn.DDLRecord{Op: "drop_func", DB: db, Name: name}, func() error {
		return s.database.Procs.DropFunction(db, name, true)
	})
	s.database.SchemaChanged()
	return &exec.Result{}, ack, err
}

func (s *Session) showFuncStatus(like string) *exec.Result {
	r := &exec.Result{}
	for _, c := range []string{"Db", "Name", "Type", "Definer", "Modified", "Created", "Security_type", "Comment",
		"character_set_client", "collation_connection", "Database Collation"} {
		r.Columns = append(r.Columns, exec.Column{Name: c, Type: expr.TVarchar})
	}
	for _, db := range s.database.Txns.Catalog().Databases() {
		for _, d := range s.database.Procs.ListFunctionsIn(db) {
			if like != "" && !expr.LikeMatch(like, d.Name) {
				continue
			}
			row := []string{db, d.Name, "FUNCTION", "root@localhost", d.Modified, d.Created, d.Func.SecurityType(), d.Func.Comment,
				"utf8mb4", "utf8mb4_general_ci", "utf8mb4_general_ci"}
			vs := make([]types.Value, len(row))
			for i, v := range row {
				vs[i] = types.StringValue(v)
			}
			r.Rows = append(r.Rows, vs)
		}
	}
	return r
}

func (s *Session) showCreateFunc(name string) (*exec.Result, error) {
	db, n := splitProcName(name, s.DB)
	def, _, ok := s.database.Procs.GetFunction(db, n)
	if !ok {
		return nil, sqlerr.New(sqlerr.ErSPDoesNotExist, "FUNCTION %s does not exist", n)
	}
	returns := def.Func.Returns
	if t, err := colTypeOf(def.Func.Returns); err == nil {
		returns = t.SQL()
	}
	return show.StringRows([]string{"Function", "sql_mode", "Create Function", "character_set_client", "collation_connection", "Database Collation"},
		[][]string{{def.Name, def.Func.SQLMode, procs.FormatCreateFunction(def, returns), "utf8mb4", "utf8mb4_general_ci", "utf8mb4_general_ci"}}), nil
}
