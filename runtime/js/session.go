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

// statement is what session.sql and session.prepare return: bind appends
// values, execute runs the statement and clears them.
type statement struct {
	sql   string
	bound []any
}

// result is an SqlResult: a Host result and a fetch cursor.
type result struct {
	res  *procs.Result
	next int
}

// Statements and results are plain objects whose prototype holds the
// methods; the Go state is found through v.stmts / v.results, which Call
// clears. That is two map operations per object instead of a closure per
// method.

func (v *vm) newStatement(call goja.FunctionCall) goja.Value {
	obj := v.r.NewObject()
	must(obj.SetPrototype(v.stmtProto))
	v.stmts[obj] = &statement{sql: call.Argument(0).String()}
	return obj
}

func (v *vm) thisStatement(call goja.FunctionCall) (*goja.Object, *statement) {
	obj, _ := call.This.(*goja.Object)
	st := v.stmts[obj]
	if st == nil {
		panic(v.r.NewTypeError("not a statement of this call (use stmt.bind(...).execute())"))
	}
	return obj, st
}

func (v *vm) thisResult(call goja.FunctionCall) *result {
	obj, _ := call.This.(*goja.Object)
	r := v.results[obj]
	if r == nil {
		panic(v.r.NewTypeError("not an SqlResult of this call"))
	}
	return r
}

func (v *vm) newResult(res *procs.Result) goja.Value {
	obj := v.r.NewObject()
	must(obj.SetPrototype(v.resultProto))
	v.results[obj] = &result{res: res}
	return obj
}

func (v *vm) buildPrototypes() {
	v.stmtProto = v.r.NewObject()
	must(v.stmtProto.Set("bind", func(call goja.FunctionCall) goja.Value {
		obj, st := v.thisStatement(call)
		st.bound = append(st.bound, v.sqlArgs(call.Arguments)...)
		return obj
	}))
	must(v.stmtProto.Set("execute", func(call goja.FunctionCall) goja.Value {
		_, st := v.thisStatement(call)
		args := st.bound
		st.bound = nil
		return v.exec(st.sql, args)
	}))
	p := v.r.NewObject()
	v.resultProto = p
	must(p.Set("fetchOne", func(call goja.FunctionCall) goja.Value {
		r := v.thisResult(call)
		if r.next >= len(r.res.Rows) {
			return goja.Null()
		}
		r.next++
		return v.row(r.res, r.res.Rows[r.next-1])
	}))
	must(p.Set("fetchAll", func(call goja.FunctionCall) goja.Value {
		r := v.thisResult(call)
		rows := make([]any, 0, len(r.res.Rows)-r.next)
		for ; r.next < len(r.res.Rows); r.next++ {
			rows = append(rows, v.row(r.res, r.res.Rows[r.next]))
		}
		return v.r.NewArray(rows...)
	}))
	must(p.Set("getAffectedItemsCount", func(call goja.FunctionCall) goja.Value {
		return v.toJS(v.thisResult(call).res.AffectedRows)
	}))
	must(p.Set("getAutoIncrementValue", func(call goja.FunctionCall) goja.Value {
		return v.toJS(v.thisResult(call).res.LastInsertID)
	}))
	must(p.Set("getWarningsCount", func(call goja.FunctionCall) goja.Value {
		return v.r.ToValue(int64(v.thisResult(call).res.Warnings))
	}))
	must(p.Set("getColumnNames", func(call goja.FunctionCall) goja.Value {
		r := v.thisResult(call)
		names := make([]any, len(r.res.Columns))
		for i, c := range r.res.Columns {
			names[i] = c
		}
		return v.r.NewArray(names...)
	}))
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
