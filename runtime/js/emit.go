package js

import (
	"strconv"
	"strings"

	"github.com/dop251/goja"

	"github.com/plrun/plrun/procs"
)

// emit is session.emit(res) or session.emit(columns, rows): a result set
// for the CALL's caller (procs.Host.Emit). res is an SqlResult that
// session.runSql returned (all its rows, whatever was fetched, with the
// statement's column types); columns is an array of names and rows an
// array of arrays of values (null for SQL NULL).
func (v *vm) emit(call goja.FunctionCall) goja.Value {
	first, ok := call.Argument(0).(*goja.Object)
	if !ok {
		panic(v.r.NewTypeError("emit: an SqlResult or an array of column names expected"))
	}
	var res *procs.Result
	if r := v.results[first]; r != nil {
		res = r.res
	} else {
		res = v.arrayResult(first, call.Argument(1))
	}
	if err := v.host.Emit(v.ctx, res); err != nil {
		v.throw(err)
	}
	return goja.Undefined()
}

func (v *vm) array(val goja.Value, what string) (*goja.Object, int) {
	obj, ok := val.(*goja.Object)
	if !ok || obj.ClassName() != "Array" {
		panic(v.r.NewTypeError("emit: %s must be an array", what))
	}
	return obj, int(obj.Get("length").ToInteger())
}

func (v *vm) arrayResult(colsVal, rowsVal goja.Value) *procs.Result {
	cols, n := v.array(colsVal, "the column names")
	res := &procs.Result{Columns: make([]string, n)}
	for i := range res.Columns {
		name, ok := cols.Get(strconv.Itoa(i)).Export().(string)
		if !ok {
			panic(v.r.NewTypeError("emit: column %d: a name must be a string", i+1))
		}
		res.Columns[i] = name
	}
	rows, m := v.array(rowsVal, "the rows")
	for i := 0; i < m; i++ {
		row, k := v.array(rows.Get(strconv.Itoa(i)), "row "+strconv.Itoa(i+1))
		if k != n {
			panic(v.r.NewTypeError("emit: row %d has %d values for %d columns", i+1, k, n))
		}
		vals := make([]any, n)
		for j := range vals {
			vals[j] = v.sqlValue(row.Get(strconv.Itoa(j)), j+1)
		}
		res.Rows = append(res.Rows, vals)
	}
	return res
}

// consoleLog is console.log (and info, warn, error, debug): its output
// goes to the caller as a note (SHOW WARNINGS, level Note), the arguments
// separated by spaces, strings as they are and other values as
// JSON.stringify shows them (String() where JSON has no form).
func (v *vm) consoleLog(call goja.FunctionCall) goja.Value {
	parts := make([]string, len(call.Arguments))
	for i, a := range call.Arguments {
		parts[i] = v.logText(a)
	}
	if err := v.host.Note(v.ctx, strings.Join(parts, " ")); err != nil {
		v.throw(err)
	}
	return goja.Undefined()
}

func (v *vm) logText(a goja.Value) string {
	if obj, ok := a.(*goja.Object); ok && obj.ClassName() != "Function" && obj.ClassName() != "Error" {
		if b, err := obj.MarshalJSON(); err == nil {
			return string(b)
		}
	}
	return a.String()
}
