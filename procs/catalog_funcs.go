package procs

import (
	"context"
	"fmt"
	"strings"

	"github.com/plrun/plrun/sqlerr"
)

// FunctionProgram is a compiled stored function. Eval may run on many
// goroutines at once; each call borrows its own VM from the runtime's pool.
type FunctionProgram interface {
	// Eval runs the body with args in parameter order (already converted
	// to the declared types) and returns its one value (nil, bool, int64,
	// uint64, float64 or string), not yet converted to the RETURNS type.
	Eval(ctx context.Context, host Host, args []any) (any, error)
}

// FunctionCompiler is what a Runtime implements to compile stored function
// bodies: the body of a function of the parameters (by name) that returns
// one value, with the same session API as a procedure.
type FunctionCompiler interface {
	CompileFunction(def *Definition) (FunctionProgram, error)
}

// compileFunction compiles a copy of def. A LanguageSQL body is not
// compiled here (the sql layer compiles it when a statement names the
// function): prog is then nil.
func (c *Catalog) compileFunction(def *Definition) (*Definition, FunctionProgram, error) {
	if def == nil || def.Name == "" || def.Func == nil {
		return nil, nil, sqlerr.New(sqlerr.ErParse, "function has no name")
	}
	def = cloneDef(def)
	def.Language = strings.ToUpper(def.Language)
	if def.Language == LanguageSQL {
		return def, nil, nil
	}
	rt, ok := c.runtimes[def.Language]
	fc, compiles := rt.(FunctionCompiler)
	if !ok || !compiles {
		return nil, nil, sqlerr.New(sqlerr.ErParse,
			"You have an error in your SQL syntax; unknown LANGUAGE %s for FUNCTION %s (supported: %s)",
			def.Language, def.Name, strings.Join(c.functionLanguages(), ", "))
	}
	prog, err := fc.CompileFunction(def)
	if err != nil {
		if e, ok := sqlerr.As(err); ok && strings.HasPrefix(e.Message, "Syntax error in PROCEDURE ") {
			// The runtimes compile a function as a procedure; say what it is.
			return nil, nil, sqlerr.New(e.Code, "Syntax error in FUNCTION %s", strings.TrimPrefix(e.Message, "Syntax error in PROCEDURE "))
		}
		return nil, nil, err
	}
	if def.Func.NoSQL() {
		prog = noSQLProgram{prog: prog, host: noSQLHost{name: def.Name}}
	}
	return def, prog, nil
}

// CreateFunctionIn compiles def and adds it to db's functions (a namespace
// apart from procedures, as in MySQL). An existing function of the same
// name is error 1304 unless orReplace; times are kept as CreateIn keeps
// them.
func (c *Catalog) CreateFunctionIn(db string, def *Definition, orReplace bool) error {
	def, prog, err := c.compileFunction(def)
	if err != nil {
		return err
	}
	key := procKey(db, def.Name)
	c.mu.Lock()
	defer c.mu.Unlock()
	old, exists := c.funcs[key]
	if exists && !orReplace {
		return sqlerr.New(sqlerr.ErSPAlreadyExists, "FUNCTION %s already exists", def.Name)
	}
	var replaced *Definition
	if exists {
		replaced = old.def
	}
	stampTimes(def, replaced)
	c.funcs[key] = &functionEntry{def: def, prog: prog}
	return nil
}

// CheckFunction compiles def without adding it: what CREATE FUNCTION runs
// before it logs the definition.
func (c *Catalog) CheckFunction(def *Definition) error {
	_, _, err := c.compileFunction(def)
	return err
}

type functionEntry struct {
	def  *Definition
	prog FunctionProgram
}

// GetFunction returns db.name's definition (do not modify it) and program
// (nil for a LanguageSQL body).
func (c *Catalog) GetFunction(db, name string) (*Definition, FunctionProgram, bool) {
	c.mu.RLock()
	e, ok := c.funcs[procKey(db, name)]
	c.mu.RUnlock()
	if !ok {
		return nil, nil, false
	}
	return e.def, e.prog, true
}

// DropFunction removes db.name. A missing function is error 1305 unless
// ifExists.
func (c *Catalog) DropFunction(db, name string, ifExists bool) error {
	key := procKey(db, name)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.funcs[key]; !ok {
		if ifExists {
			return nil
		}
		return sqlerr.New(sqlerr.ErSPDoesNotExist, "FUNCTION %s.%s does not exist", db, name)
	}
	delete(c.funcs, key)
	return nil
}

// ListFunctionsIn returns db's functions sorted by name (case-insensitively).
func (c *Catalog) ListFunctionsIn(db string) []*Definition {
	prefix := strings.ToLower(db) + "."
	c.mu.RLock()
	defer c.mu.RUnlock()
	var defs []*Definition
	for _, k := range sortedKeys(c.funcs) {
		if strings.HasPrefix(k, prefix) {
			defs = append(defs, c.funcs[k].def)
		}
	}
	return defs
}

// noSQLProgram is a NO SQL function: its body may not use the session.
type noSQLProgram struct {
	prog FunctionProgram
	host Host // a noSQLHost, boxed once
}

func (p noSQLProgram) Eval(ctx context.Context, host Host, args []any) (any, error) {
	if host == nil {
		return p.prog.Eval(ctx, p.host, args)
	}
	return p.prog.Eval(ctx, noSQLHost{name: p.host.(noSQLHost).name, notes: host}, args)
}

// noSQLHost refuses every session call of a NO SQL function; its notes
// (print, console.log) still reach the caller's host.
type noSQLHost struct {
	name  string
	notes Host
}

func (h noSQLHost) refuse() error {
	return sqlerr.New(sqlerr.ErSPBadStatement, "SQL statements are not allowed in FUNCTION %s, declared NO SQL", h.name)
}

func (h noSQLHost) Exec(context.Context, string, []any) (*Result, error) { return nil, h.refuse() }
func (h noSQLHost) StartTransaction(context.Context) error               { return h.refuse() }
func (h noSQLHost) Commit(context.Context, CommitWait) error             { return h.refuse() }
func (h noSQLHost) Rollback(context.Context) error                       { return h.refuse() }
func (h noSQLHost) Savepoint(context.Context, string) error              { return h.refuse() }
func (h noSQLHost) RollbackToSavepoint(context.Context, string) error    { return h.refuse() }
func (h noSQLHost) ReleaseSavepoint(context.Context, string) error       { return h.refuse() }
func (h noSQLHost) Emit(context.Context, *Result) error                  { return retsetNotAllowed() }

// Note passes a debugging note to the caller: it runs no SQL.
func (h noSQLHost) Note(ctx context.Context, msg string) error {
	if h.notes == nil {
		return nil
	}
	return h.notes.Note(ctx, msg)
}

// FunctionHost is the Host a stored function's body gets: SQL statements
// run in the caller's statement, but a function may not end or start a
// transaction (error 1422, as in MySQL).
func FunctionHost(h Host) Host { return functionHost{Host: h} }

type functionHost struct{ Host }

func commitNotAllowed() error {
	return sqlerr.New(sqlerr.ErCommitNotAllowedInSF, "Explicit or implicit commit is not allowed in stored function or trigger.")
}

func (h functionHost) StartTransaction(context.Context) error   { return commitNotAllowed() }
func (h functionHost) Commit(context.Context, CommitWait) error { return commitNotAllowed() }
func (h functionHost) Rollback(context.Context) error           { return commitNotAllowed() }

// Emit is refused: a function returns a value, not result sets (1415, as
// MySQL's "Not allowed to return a result set from a function").
func (h functionHost) Emit(context.Context, *Result) error { return retsetNotAllowed() }

func retsetNotAllowed() error {
	return sqlerr.New(sqlerr.ErSPNoRetset, "Not allowed to return a result set from a function")
}

// FunctionArgsError is error 1318 for a call of db.name with got arguments.
func FunctionArgsError(db string, def *Definition, got int) error {
	return sqlerr.New(sqlerr.ErSPWrongNoOfArgs,
		"Incorrect number of arguments for FUNCTION %s.%s; expected %d, got %d", db, def.Name, len(def.Params), got)
}

// String is for debugging.
func (e *functionEntry) String() string { return fmt.Sprintf("FUNCTION %s", e.def.Name) }

// functionLanguages are SQL (compiled by the sql layer, whether or not the
// SQL/PSM procedure runtime is registered) and the other runtimes.
func (c *Catalog) functionLanguages() []string {
	out := []string{LanguageSQL}
	for _, l := range c.languages() {
		if l != LanguageSQL {
			out = append(out, l)
		}
	}
	return out
}
