package lua

import (
	"strings"

	glua "github.com/yuin/gopher-lua"

	"github.com/plrun/plrun/procs"
)

// emit is session:emit(res) or session:emit(columns, rows): a result set
// for the CALL's caller (procs.Host.Emit). res is an SqlResult that
// session:runSql returned (all its rows, whatever was fetched, with the
// statement's column types); columns is an array of names and rows an
// array of arrays of values (nil or session.NULL for SQL NULL; use
// session.NULL inside a row, as a nil would end the array).
func (v *vm) emit(L *glua.LState) int {
	b := v.base(L)
	var res *procs.Result
	switch arg := L.Get(b).(type) {
	case *glua.LUserData:
		r, ok := arg.Value.(*result)
		if !ok {
			L.ArgError(b, "SqlResult or array of column names expected")
		}
		res = r.res
	case *glua.LTable:
		res = v.tableResult(L, arg, L.CheckTable(b+1))
	default:
		L.ArgError(b, "SqlResult or array of column names expected")
	}
	if err := v.host.Emit(v.ctx, res); err != nil {
		v.raise(L, err)
	}
	return 0
}

func (v *vm) tableResult(L *glua.LState, cols, rows *glua.LTable) *procs.Result {
	res := &procs.Result{}
	for i := 1; i <= cols.MaxN(); i++ {
		name, ok := cols.RawGetInt(i).(glua.LString)
		if !ok {
			L.RaiseError("emit: column %d: a name must be a string, not a %s", i, cols.RawGetInt(i).Type().String())
		}
		res.Columns = append(res.Columns, string(name))
	}
	for i := 1; i <= rows.MaxN(); i++ {
		row, ok := rows.RawGetInt(i).(*glua.LTable)
		if !ok {
			L.RaiseError("emit: row %d must be an array of values, not a %s", i, rows.RawGetInt(i).Type().String())
		}
		vals := make([]any, len(res.Columns))
		for j := range vals {
			vals[j] = v.sqlValue(L, row.RawGetInt(j+1), j+1)
		}
		if n := row.MaxN(); n > len(vals) {
			L.RaiseError("emit: row %d has %d values for %d columns", i, n, len(vals))
		}
		res.Rows = append(res.Rows, vals)
	}
	return res
}

// print is Lua's print with its output sent to the caller as a note
// (SHOW WARNINGS, level Note): the arguments through tostring, separated
// by tabs.
func (v *vm) print(L *glua.LState) int {
	parts := make([]string, L.GetTop())
	for i := range parts {
		parts[i] = L.ToStringMeta(L.Get(i + 1)).String()
	}
	if err := v.host.Note(v.ctx, strings.Join(parts, "\t")); err != nil {
		v.raise(L, err)
	}
	return 0
}
