package js

import (
	"context"
	"strconv"

	"github.com/dop251/goja"

	"github.com/plrun/plrun/procs"
)

func (v *vm) exec(sql string, args []any) goja.Value {
	res, err := v.host.Exec(v.ctx, sql, args)
	if err != nil {
		v.throw(err)
	}
	if res == nil {
		res = &procs.Result{}
	}
	return v.newResult(res)
}

func (v *vm) runSQL(call goja.FunctionCall) goja.Value {
	sql := call.Argument(0).String()
	var args []any
	if len(call.Arguments) > 1 {
		args = v.sqlArgs(call.Arguments[1:])
	}
	return v.exec(sql, args)
}

// newStatement is session.sql and session.prepare: a statement whose bind
// appends values and whose execute runs it and clears them.
func (v *vm) newStatement(call goja.FunctionCall) goja.Value {
	sql := call.Argument(0).String()
	var bound []any
	stmt := v.r.NewObject()
	must(stmt.Set("bind", func(call goja.FunctionCall) goja.Value {
		bound = append(bound, v.sqlArgs(call.Arguments)...)
		return stmt
	}))
	must(stmt.Set("execute", func(goja.FunctionCall) goja.Value {
		args := bound
		bound = nil
		return v.exec(sql, args)
	}))
	return stmt
}

func (v *vm) newResult(res *procs.Result) goja.Value {
	next := 0
	obj := v.r.NewObject()
	must(obj.Set("fetchOne", func(goja.FunctionCall) goja.Value {
		if next >= len(res.Rows) {
			return goja.Null()
		}
		next++
		return v.row(res, res.Rows[next-1])
	}))
	must(obj.Set("fetchAll", func(goja.FunctionCall) goja.Value {
		rows := make([]any, 0, len(res.Rows)-next)
		for ; next < len(res.Rows); next++ {
			rows = append(rows, v.row(res, res.Rows[next]))
		}
		return v.r.NewArray(rows...)
	}))
	must(obj.Set("getAffectedItemsCount", func(goja.FunctionCall) goja.Value { return v.toJS(res.AffectedRows) }))
	must(obj.Set("getAutoIncrementValue", func(goja.FunctionCall) goja.Value { return v.toJS(res.LastInsertID) }))
	must(obj.Set("getWarningsCount", func(goja.FunctionCall) goja.Value { return v.r.ToValue(int64(res.Warnings)) }))
	must(obj.Set("getColumnNames", func(goja.FunctionCall) goja.Value {
		names := make([]any, len(res.Columns))
		for i, c := range res.Columns {
			names[i] = c
		}
		return v.r.NewArray(names...)
	}))
	return obj
}

// row is readable as row.name and row[i].
func (v *vm) row(res *procs.Result, vals []any) *goja.Object {
	obj := v.r.NewObject()
	for i, val := range vals {
		jv := v.toJS(val)
		must(obj.Set(strconv.Itoa(i), jv))
		if i < len(res.Columns) {
			must(obj.Set(res.Columns[i], jv))
		}
	}
	return obj
}

func (v *vm) txnCall(op func() error) func(goja.FunctionCall) goja.Value {
	return func(goja.FunctionCall) goja.Value {
		if err := op(); err != nil {
			v.throw(err)
		}
		return goja.Undefined()
	}
}

func (v *vm) commit(call goja.FunctionCall) goja.Value {
	wait := procs.WaitSession
	if opts, ok := call.Argument(0).(*goja.Object); ok {
		if w := opts.Get("wait"); w != nil {
			wait = procs.CommitWaitFrom(w.String())
		}
	}
	if err := v.host.Commit(v.ctx, wait); err != nil {
		v.throw(err)
	}
	return goja.Undefined()
}

func (v *vm) savepointCall(op func(procs.Host, context.Context, string) error) func(goja.FunctionCall) goja.Value {
	return func(call goja.FunctionCall) goja.Value {
		if err := op(v.host, v.ctx, call.Argument(0).String()); err != nil {
			v.throw(err)
		}
		return goja.Undefined()
	}
}
