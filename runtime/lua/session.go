package lua

import (
	"context"

	glua "github.com/yuin/gopher-lua"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sqlerr"
)

// statement is what session:sql and session:prepare return.
type statement struct {
	sql  string
	args []any
}

// result is an SqlResult: a Host result and a fetch cursor.
type result struct {
	res  *procs.Result
	next int
}

// scriptSQLError is the value a failed SQL call raises in the script.
type scriptSQLError struct {
	err  *sqlerr.Error
	line int
}

func (v *vm) installSession() {
	L := v.L
	v.null = L.NewUserData()
	v.session = L.NewTable()
	methods := map[string]glua.LGFunction{
		"runSql":           v.runSQL,
		"sql":              v.newStatement,
		"prepare":          v.newStatement,
		"startTransaction": v.txnCall(func(v *vm) error { return v.host.StartTransaction(v.ctx) }),
		"commit":           v.commit,
		"rollback":         v.txnCall(func(v *vm) error { return v.host.Rollback(v.ctx) }),
		"setSavepoint":     v.savepointCall(procs.Host.Savepoint),
		"rollbackTo":       v.savepointCall(procs.Host.RollbackToSavepoint),
		"releaseSavepoint": v.savepointCall(procs.Host.ReleaseSavepoint),
		"emit":             v.emit,
	}
	for name, fn := range methods {
		v.session.RawSetString(name, L.NewFunction(fn))
	}
	v.session.RawSetString("NULL", v.null)
	L.SetGlobal("session", v.session)
	L.SetGlobal("print", L.NewFunction(v.print))

	v.stmtMeta = v.methodTable(map[string]glua.LGFunction{
		"bind":    v.bind,
		"execute": v.execute,
	})
	v.resultMeta = v.methodTable(map[string]glua.LGFunction{
		"fetchOne":              v.fetchOne,
		"fetchAll":              v.fetchAll,
		"getAffectedItemsCount": func(L *glua.LState) int { L.Push(toLua(v.checkResult(L).res.AffectedRows)); return 1 },
		"getAutoIncrementValue": func(L *glua.LState) int { L.Push(toLua(v.checkResult(L).res.LastInsertID)); return 1 },
		"getWarningsCount":      func(L *glua.LState) int { L.Push(glua.LNumber(v.checkResult(L).res.Warnings)); return 1 },
		"getColumnNames":        v.columnNames,
	})
	v.errMeta = L.NewTable()
	v.errMeta.RawSetString("__index", L.NewFunction(v.errIndex))
	v.errMeta.RawSetString("__tostring", L.NewFunction(func(L *glua.LState) int {
		L.Push(glua.LString(checkSQLError(L).err.Error()))
		return 1
	}))
}

func (v *vm) methodTable(methods map[string]glua.LGFunction) *glua.LTable {
	meta := v.L.NewTable()
	index := v.L.NewTable()
	for name, fn := range methods {
		index.RawSetString(name, v.L.NewFunction(fn))
	}
	meta.RawSetString("__index", index)
	return meta
}

// base is the index of the first real argument: session:m(x) passes the
// session itself first, session.m(x) does not.
func (v *vm) base(L *glua.LState) int {
	if L.GetTop() >= 1 && L.Get(1) == v.session {
		return 2
	}
	return 1
}

// raise throws err into the script as a catchable SQL error value.
func (v *vm) raise(L *glua.LState, err error) {
	e, ok := sqlerr.As(err)
	if !ok {
		e = sqlerr.Wrap(err, sqlerr.ErUnknown, "%s", err.Error())
	}
	ud := L.NewUserData()
	ud.Value = &scriptSQLError{err: e, line: currentLine(L)}
	ud.Metatable = v.errMeta
	L.Error(ud, 0)
}

// currentLine is the line of the innermost Lua frame that led to the
// running Go function (pcall(session.runSql, ...) puts a Go frame between).
func currentLine(L *glua.LState) int {
	for level := 1; level < 16; level++ {
		dbg, ok := L.GetStack(level)
		if !ok {
			return 0
		}
		if _, err := L.GetInfo("l", dbg, glua.LNil); err == nil && dbg.CurrentLine > 0 {
			return dbg.CurrentLine
		}
	}
	return 0
}

func (v *vm) args(L *glua.LState, from int) []any {
	top := L.GetTop()
	if from > top {
		return nil
	}
	// One table argument is an array of values.
	if from == top {
		if t, ok := L.Get(from).(*glua.LTable); ok {
			n := t.MaxN()
			out := make([]any, n)
			for i := 1; i <= n; i++ {
				out[i-1] = v.sqlValue(L, t.RawGetInt(i), i)
			}
			return out
		}
	}
	out := make([]any, 0, top-from+1)
	for i := from; i <= top; i++ {
		out = append(out, v.sqlValue(L, L.Get(i), i-from+1))
	}
	return out
}

func (v *vm) sqlValue(L *glua.LState, lv glua.LValue, n int) any {
	val, ok := fromLua(lv, v.null)
	if !ok {
		L.RaiseError("parameter %d: a %s cannot be bound to a SQL placeholder", n, lv.Type().String())
	}
	return val
}

func (v *vm) exec(L *glua.LState, sql string, args []any) int {
	res, err := v.host.Exec(v.ctx, sql, args)
	if err != nil {
		v.raise(L, err)
		return 0
	}
	if res == nil {
		res = &procs.Result{}
	}
	ud := L.NewUserData()
	ud.Value = &result{res: res}
	ud.Metatable = v.resultMeta
	L.Push(ud)
	return 1
}

func (v *vm) runSQL(L *glua.LState) int {
	b := v.base(L)
	sql := L.CheckString(b)
	var args []any
	if L.GetTop() > b {
		args = v.args(L, b+1)
	}
	return v.exec(L, sql, args)
}

func (v *vm) newStatement(L *glua.LState) int {
	sql := L.CheckString(v.base(L))
	ud := L.NewUserData()
	ud.Value = &statement{sql: sql}
	ud.Metatable = v.stmtMeta
	L.Push(ud)
	return 1
}

func checkStatement(L *glua.LState) (*glua.LUserData, *statement) {
	ud := L.CheckUserData(1)
	st, ok := ud.Value.(*statement)
	if !ok {
		L.ArgError(1, "statement expected (call it as stmt:bind(...))")
	}
	return ud, st
}

func (v *vm) bind(L *glua.LState) int {
	ud, st := checkStatement(L)
	st.args = append(st.args, v.args(L, 2)...)
	L.Push(ud)
	return 1
}

func (v *vm) execute(L *glua.LState) int {
	_, st := checkStatement(L)
	args := st.args
	st.args = nil
	return v.exec(L, st.sql, args)
}

func (v *vm) checkResult(L *glua.LState) *result {
	ud := L.CheckUserData(1)
	r, ok := ud.Value.(*result)
	if !ok {
		L.ArgError(1, "SqlResult expected (call it as res:fetchOne())")
	}
	return r
}

func (v *vm) row(L *glua.LState, res *procs.Result, vals []any) *glua.LTable {
	t := L.CreateTable(len(vals), len(res.Columns))
	for i, val := range vals {
		lv := toLua(val)
		t.RawSetInt(i+1, lv)
		if i < len(res.Columns) {
			t.RawSetString(res.Columns[i], lv)
		}
	}
	return t
}

func (v *vm) fetchOne(L *glua.LState) int {
	r := v.checkResult(L)
	if r.next >= len(r.res.Rows) {
		L.Push(glua.LNil)
		return 1
	}
	L.Push(v.row(L, r.res, r.res.Rows[r.next]))
	r.next++
	return 1
}

func (v *vm) fetchAll(L *glua.LState) int {
	r := v.checkResult(L)
	rows := L.CreateTable(len(r.res.Rows)-r.next, 0)
	for ; r.next < len(r.res.Rows); r.next++ {
		rows.Append(v.row(L, r.res, r.res.Rows[r.next]))
	}
	L.Push(rows)
	return 1
}

func (v *vm) columnNames(L *glua.LState) int {
	r := v.checkResult(L)
	t := L.CreateTable(len(r.res.Columns), 0)
	for _, c := range r.res.Columns {
		t.Append(glua.LString(c))
	}
	L.Push(t)
	return 1
}

func (v *vm) txnCall(op func(v *vm) error) glua.LGFunction {
	return func(L *glua.LState) int {
		if err := op(v); err != nil {
			v.raise(L, err)
		}
		return 0
	}
}

func (v *vm) commit(L *glua.LState) int {
	wait := procs.WaitSession
	if opts, ok := L.Get(v.base(L)).(*glua.LTable); ok {
		wait = procs.CommitWaitFrom(opts.RawGetString("wait").String())
	}
	if err := v.host.Commit(v.ctx, wait); err != nil {
		v.raise(L, err)
	}
	return 0
}

func (v *vm) savepointCall(op func(procs.Host, context.Context, string) error) glua.LGFunction {
	return func(L *glua.LState) int {
		name := L.CheckString(v.base(L))
		if err := op(v.host, v.ctx, name); err != nil {
			v.raise(L, err)
		}
		return 0
	}
}

func checkSQLError(L *glua.LState) *scriptSQLError {
	ud := L.CheckUserData(1)
	se, ok := ud.Value.(*scriptSQLError)
	if !ok {
		L.ArgError(1, "SQL error expected")
	}
	return se
}

func (v *vm) errIndex(L *glua.LState) int {
	se := checkSQLError(L)
	switch L.CheckString(2) {
	case "code":
		L.Push(glua.LNumber(se.err.Code))
	case "sqlState":
		L.Push(glua.LString(se.err.State))
	case "message":
		L.Push(glua.LString(se.err.Message))
	case "line":
		L.Push(glua.LNumber(se.line))
	default:
		L.Push(glua.LNil)
	}
	return 1
}

// sqlErrorFromTable reads error{code=, sqlState=, message=} raised by a script.
func sqlErrorFromTable(t *glua.LTable) (*sqlerr.Error, bool) {
	code, ok1 := t.RawGetString("code").(glua.LNumber)
	state, ok2 := t.RawGetString("sqlState").(glua.LString)
	msg, ok3 := t.RawGetString("message").(glua.LString)
	if !ok1 || !ok2 || !ok3 || code < 1 || code > 65535 || len(state) != 5 {
		return nil, false
	}
	return &sqlerr.Error{Code: uint16(code), State: string(state), Message: string(msg)}, true
}
