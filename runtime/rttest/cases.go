package rttest

import (
	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sqlerr"
)

// Case is one script, written in both languages, and what it must do.
type Case struct {
	Name string
	// Sig is the parameter list as in CREATE PROCEDURE: "IN a INT, OUT b INT".
	Sig  string
	Lua  string
	JS   string
	Args []any
	Host func() *FakeHost // nil: an empty FakeHost

	// WantOuts are the OUT/INOUT values after procs.ConvertParam to the
	// declared types (what Catalog.Call returns); nil for IN parameters.
	WantOuts []any
	// WantCalls, if not nil, is the exact list of host calls.
	WantCalls []string
	// WantErr, if set, is the error Call must return: same code and
	// SQLSTATE, and a message containing every string of WantMsg (and
	// LuaMsg / JSMsg for the one language).
	WantErr *sqlerr.Error
	WantMsg []string
	LuaMsg  string
	JSMsg   string
	// Check, if set, inspects the host afterwards.
	Check func(h *FakeHost) string
}

var dupKey = sqlerr.New(sqlerr.ErDupEntry, "Duplicate entry '1' for key 'PRIMARY'")

func hostWith(results map[string]*procs.Result, errs map[string]error) func() *FakeHost {
	return func() *FakeHost { return &FakeHost{Results: results, Errors: errs} }
}

var twoRows = &procs.Result{
	Columns: []string{"a", "b"},
	Rows:    [][]any{{int64(7), "x"}, {int64(8), nil}},
}

var typedRow = &procs.Result{
	Columns: []string{"n", "d", "big", "f"},
	Rows:    [][]any{{nil, "12.50", int64(1) << 60, 2.5}},
}

func sqlState(code uint16) *sqlerr.Error { return sqlerr.New(code, "") }

// raisedAt is an error the script raised itself: its message is exactly
// the case's WantMsg[0] and its Where is the procedure's name and where.
func raisedAt(code uint16, where string) *sqlerr.Error {
	e := sqlerr.New(code, "")
	e.Where = where
	return e
}

// Cases is the conformance table. Scripts of one case put each statement
// on the same line in both languages, so error lines agree.
var Cases = []Case{
	{
		Name: "in_out_inout",
		Sig:  "IN a INT, OUT b INT, INOUT c VARCHAR(10)",
		Lua:  "b = a * 2\nc = c .. '!'",
		JS:   "b = a * 2;\nc = c + '!';",
		Args: []any{int64(21), nil, "hi"}, WantOuts: []any{nil, int64(42), "hi!"},
		WantCalls: []string{},
	},
	{
		Name:     "bigint_beyond_2p53_stays_exact",
		Sig:      "IN a BIGINT, OUT b BIGINT, IN u BIGINT UNSIGNED, OUT v BIGINT UNSIGNED, OUT kinds VARCHAR(20)",
		Lua:      "b = a\nv = u\nkinds = type(a) .. ',' .. type(u)",
		JS:       "b = a;\nv = u;\nkinds = (typeof a === 'bigint' ? 'string' : typeof a) + ',' + (typeof u === 'bigint' ? 'string' : typeof u);",
		Args:     []any{int64(1)<<60 + 1, nil, uint64(1<<64 - 1), nil, nil},
		WantOuts: []any{nil, int64(1)<<60 + 1, nil, uint64(1<<64 - 1), "string,string"},
	},
	{
		Name: "out_param_starts_null_whatever_was_passed",
		Sig:  "OUT b INT, OUT wasnull BOOL",
		Lua:  "wasnull = (b == nil)",
		JS:   "wasnull = (b === null);",
		Args: []any{int64(5), nil}, WantOuts: []any{nil, int64(1)},
	},
	{
		Name: "out_unassigned_is_null",
		Sig:  "OUT b INT",
		Lua:  "local x = 1",
		JS:   "let x = 1;",
		Args: []any{nil}, WantOuts: []any{nil},
	},
	{
		Name: "early_return",
		Sig:  "IN a INT, OUT b INT",
		Lua:  "b = 1\nif a > 0 then return end\nb = 2",
		JS:   "b = 1;\nif (a > 0) { return; }\nb = 2;",
		Args: []any{int64(5), nil}, WantOuts: []any{nil, int64(1)},
	},
	{
		Name: "runSql_fetchOne_by_name_and_position",
		Sig:  "IN id INT, OUT a INT, OUT b VARCHAR(5), OUT b2null BOOL, OUT done BOOL",
		Lua: `local r = session:runSql("SELECT a, b FROM t WHERE id > ?", {id})
local r1 = r:fetchOne()
local r2 = r:fetchOne()
a = r1.a; b = r1[2]
b2null = (r2.b == nil and r2[2] == nil and r2[1] == 8)
done = (r:fetchOne() == nil)`,
		JS: `let r = session.runSql("SELECT a, b FROM t WHERE id > ?", [id]);
let r1 = r.fetchOne();
let r2 = r.fetchOne();
a = r1.a; b = r1[1];
b2null = (r2.b === null && r2[1] === null && r2[0] === 8);
done = (r.fetchOne() === null);`,
		Host:      hostWith(map[string]*procs.Result{"SELECT a, b FROM t WHERE id > ?": twoRows}, nil),
		Args:      []any{int64(3), nil, nil, nil, nil},
		WantOuts:  []any{nil, int64(7), "x", int64(1), int64(1)},
		WantCalls: []string{"exec SELECT a, b FROM t WHERE id > ? [int64(3)]"},
	},
	{
		Name: "dot_call_form_on_session",
		Sig:  "OUT a INT",
		Lua:  `a = session.runSql("SELECT a, b FROM t WHERE id > ?", {1}):fetchOne().a`,
		JS:   `a = session.runSql("SELECT a, b FROM t WHERE id > ?", [1]).fetchOne().a;`,
		Host: hostWith(map[string]*procs.Result{"SELECT a, b FROM t WHERE id > ?": twoRows}, nil),
		Args: []any{nil}, WantOuts: []any{int64(7)},
	},
	{
		Name: "fetchAll_and_column_names",
		Sig:  "OUT n INT, OUT total INT, OUT cols VARCHAR(20), OUT rest INT",
		Lua: `local r = session:runSql("SELECT a, b FROM t")
local rows = r:fetchAll()
n = #rows; total = 0
for _, row in ipairs(rows) do total = total + row.a end
cols = table.concat(r:getColumnNames(), ",")
rest = #r:fetchAll()`,
		JS: `let r = session.runSql("SELECT a, b FROM t");
let rows = r.fetchAll();
n = rows.length; total = 0;
for (const row of rows) { total += row.a; }
cols = r.getColumnNames().join(",");
rest = r.fetchAll().length;`,
		Host:     hostWith(map[string]*procs.Result{"SELECT a, b FROM t": twoRows}, nil),
		Args:     []any{nil, nil, nil, nil},
		WantOuts: []any{int64(2), int64(15), "a,b", int64(0)},
	},
	{
		Name: "null_decimal_bigint_float",
		Sig:  "OUT isnull BOOL, OUT d DECIMAL(12,2), OUT big BIGINT, OUT bigexact BOOL, OUT f DOUBLE",
		Lua: `local row = session:runSql("SELECT n, d, big, f"):fetchOne()
isnull = row.n == nil
d = row.d
big = row.big
bigexact = (type(row.big) == "string" and row.big == "1152921504606846976")
f = row[4]`,
		JS: `let row = session.runSql("SELECT n, d, big, f").fetchOne();
isnull = row.n === null;
d = row.d;
big = row.big;
bigexact = (typeof row.big === "bigint" && row.big === 1152921504606846976n);
f = row[3];`,
		Host:     hostWith(map[string]*procs.Result{"SELECT n, d, big, f": typedRow}, nil),
		Args:     []any{nil, nil, nil, nil, nil},
		WantOuts: []any{int64(1), "12.50", int64(1) << 60, int64(1), 2.5},
	},
	{
		Name: "sql_bind_chain_and_array_and_counts",
		Sig:  "OUT affected INT, OUT id BIGINT, OUT warnings INT",
		Lua: `session:sql("INSERT INTO t VALUES (?, ?, ?)"):bind(1):bind("a", nil):execute()
local r = session:sql("INSERT INTO t VALUES (?, ?, ?)"):bind({2, "b", session.NULL}):execute()
affected = r:getAffectedItemsCount(); id = r:getAutoIncrementValue(); warnings = r:getWarningsCount()
session:sql("SELECT 1"):execute()`,
		JS: `session.sql("INSERT INTO t VALUES (?, ?, ?)").bind(1).bind("a", null).execute();
let r = session.sql("INSERT INTO t VALUES (?, ?, ?)").bind([2, "b", null]).execute();
affected = r.getAffectedItemsCount(); id = r.getAutoIncrementValue(); warnings = r.getWarningsCount();
session.sql("SELECT 1").execute();`,
		Host: hostWith(map[string]*procs.Result{
			"INSERT INTO t VALUES (?, ?, ?)": {AffectedRows: 1, LastInsertID: 41, Warnings: 2},
		}, nil),
		Args:     []any{nil, nil, nil},
		WantOuts: []any{int64(1), int64(41), int64(2)},
		WantCalls: []string{
			"exec INSERT INTO t VALUES (?, ?, ?) [int64(1) string(a) nil]",
			"exec INSERT INTO t VALUES (?, ?, ?) [int64(2) string(b) nil]",
			"exec SELECT 1 []",
		},
	},
	{
		Name: "prepare_bind_execute_reused",
		Sig:  "IN n INT",
		Lua: `local st = session:prepare("INSERT INTO t (a, f) VALUES (?, ?)")
for i = 1, n do st:bind(i, i + 0.5):execute() end`,
		JS: `const st = session.prepare("INSERT INTO t (a, f) VALUES (?, ?)");
for (let i = 1; i <= n; i++) { st.bind(i, i + 0.5).execute(); }`,
		Args: []any{int64(3)}, WantOuts: []any{nil},
		WantCalls: []string{
			"exec INSERT INTO t (a, f) VALUES (?, ?) [int64(1) float64(1.5)]",
			"exec INSERT INTO t (a, f) VALUES (?, ?) [int64(2) float64(2.5)]",
			"exec INSERT INTO t (a, f) VALUES (?, ?) [int64(3) float64(3.5)]",
		},
	},
	{
		Name: "commit_in_loop_1000",
		Sig:  "IN n INT",
		Lua: `for i = 1, n do
  session:runSql("INSERT INTO test1 (a) VALUES (?)", {i})
  session:commit()
end`,
		JS: `for (let i = 1; i <= n; i++) {
  session.runSql("INSERT INTO test1 (a) VALUES (?)", [i]);
  session.commit();
}`,
		Host: func() *FakeHost { return &FakeHost{NoRecord: true} },
		Args: []any{int64(1000)}, WantOuts: []any{nil},
		Check: func(h *FakeHost) string {
			if h.Execs != 1000 || h.Commits != 1000 || FormatArgs(h.LastArgs) != "[int64(1000)]" {
				return "want 1000 execs and commits ending with 1000, got " +
					FormatArgs([]any{h.Execs, h.Commits}) + " " + FormatArgs(h.LastArgs)
			}
			return ""
		},
	},
	{
		Name: "transactions_and_savepoints",
		Sig:  "",
		Lua: `session:startTransaction()
session:setSavepoint("s1")
session.rollbackTo("s1")
session:releaseSavepoint("s1")
session:commit({wait = 'complete'})
session:commit()
session:commit({wait = 'session'})
session:rollback()`,
		JS: `session.startTransaction();
session.setSavepoint("s1");
session.rollbackTo("s1");
session.releaseSavepoint("s1");
session.commit({wait: 'complete'});
session.commit();
session.commit({wait: 'session'});
session.rollback();`,
		WantOuts: []any{},
		WantCalls: []string{"start", "savepoint s1", "rollback to s1", "release s1",
			"commit complete", "commit session", "commit session", "rollback"},
	},
	{
		Name: "catch_sql_error",
		Sig:  "OUT code INT, OUT state VARCHAR(5), OUT msg VARCHAR(100), OUT after INT",
		Lua: `local ok, e = pcall(function() session:runSql("INSERT dup") end)
code = e.code; state = e.sqlState; msg = e.message
after = session:runSql("SELECT a, b FROM t"):fetchOne().a`,
		JS: `try { session.runSql("INSERT dup"); } catch (e) {
code = e.code; state = e.sqlState; msg = e.message; }
after = session.runSql("SELECT a, b FROM t").fetchOne().a;`,
		Host: hostWith(map[string]*procs.Result{"SELECT a, b FROM t": twoRows},
			map[string]error{"INSERT dup": dupKey}),
		Args:     []any{nil, nil, nil, nil},
		WantOuts: []any{int64(1062), "23000", "Duplicate entry '1' for key 'PRIMARY'", int64(7)},
	},
	{
		Name:    "uncaught_sql_error_keeps_code_and_names_line",
		Sig:     "IN a INT",
		Lua:     "local x = a\nsession:runSql('SELECT 1')\nsession:runSql('INSERT dup')\nx = 2",
		JS:      "let x = a;\nsession.runSql('SELECT 1');\nsession.runSql('INSERT dup');\nx = 2;",
		Host:    hostWith(nil, map[string]error{"INSERT dup": dupKey}),
		Args:    []any{int64(1)},
		WantErr: dupKey,
		WantMsg: []string{"line 3: Duplicate entry '1' for key 'PRIMARY'"},
	},
	{
		Name:    "script_raises_sql_error_like_signal",
		Sig:     "",
		Lua:     "\nerror({code = 1690, sqlState = '22003', message = 'stock would go negative'})",
		JS:      "\nthrow {code: 1690, sqlState: '22003', message: 'stock would go negative'};",
		WantErr: raisedAt(sqlerr.ErDataOutOfRange, "line 2"),
		WantMsg: []string{"stock would go negative"},
	},
	{
		Name:    "runtime_error_is_1644_with_line",
		Sig:     "",
		Lua:     "local x = nil\nlocal y = x.field",
		JS:      "let x = null;\nlet y = x.field;",
		WantErr: sqlState(sqlerr.ErSignalException),
		WantMsg: []string{"line 2: "},
	},
	{
		Name:    "thrown_string_is_1644_with_line",
		Sig:     "IN amount DECIMAL(12,2)",
		Lua:     "local x = 1\n\nerror('insufficient funds: ' .. amount)",
		JS:      "let x = 1;\n\nthrow 'insufficient funds: ' + amount;",
		Args:    []any{"10.50"},
		WantErr: raisedAt(sqlerr.ErSignalException, "line 3"),
		WantMsg: []string{"insufficient funds: 10.50"},
	},
	{
		// error() in a function and a thrown Error: still the script's
		// own, located where raised.
		Name:    "thrown_error_object_keeps_message",
		Lua:     "local function check() error('no such item') end\ncheck()",
		JS:      "function check() { throw new Error('no such item'); }\ncheck();",
		WantErr: raisedAt(sqlerr.ErSignalException, "line 1"),
		WantMsg: []string{"no such item"},
	},
	{
		// A caught SQL error rethrown is still the statement's error,
		// located in the message.
		Name:    "caught_and_rethrown_sql_error_names_line",
		Lua:     "local ok, e = pcall(session.runSql, 'INSERT dup')\nerror(e)",
		JS:      "let e0; try { session.runSql('INSERT dup'); } catch (e) { e0 = e; }\nthrow e0;",
		Host:    hostWith(nil, map[string]error{"INSERT dup": dupKey}),
		WantErr: sqlState(sqlerr.ErDupEntry),
		WantMsg: []string{"line 1: Duplicate entry"},
	},
	{
		Name:    "out_param_holding_table_is_an_error",
		Sig:     "OUT b INT",
		Lua:     "b = {}",
		JS:      "b = {};",
		Args:    []any{nil},
		WantErr: sqlState(sqlerr.ErSignalException),
		WantMsg: []string{"OUT parameter b"},
	},
	{
		Name:    "binding_a_table_is_an_error",
		Sig:     "",
		Lua:     "session:runSql('SELECT ?', {{}})",
		JS:      "session.runSql('SELECT ?', [{}]);",
		WantErr: sqlState(sqlerr.ErSignalException),
		WantMsg: []string{"line 1", "cannot be bound"},
	},
	{
		Name:    "host_panic_is_recovered",
		Sig:     "",
		Lua:     "session:runSql('PANIC')",
		JS:      "session.runSql('PANIC');",
		Host:    func() *FakeHost { return &FakeHost{Panic: "PANIC"} },
		WantErr: sqlState(sqlerr.ErUnknown),
		WantMsg: []string{"fake host: PANIC"},
	},
	{
		Name:    "sandbox_os_execute",
		Lua:     "os.execute('touch /tmp/plrun-pwned')",
		JS:      "os.execute('touch /tmp/plrun-pwned');",
		WantErr: sqlState(sqlerr.ErSignalException),
		LuaMsg:  "os.execute is not available in procedures",
		JSMsg:   "os is not defined",
	},
	{
		Name:    "sandbox_io_open",
		Lua:     "local f = io.open('/etc/passwd')",
		JS:      "const f = io.open('/etc/passwd');",
		WantErr: sqlState(sqlerr.ErSignalException),
		LuaMsg:  "io.open is not available in procedures",
		JSMsg:   "io is not defined",
	},
	{
		Name:    "sandbox_require",
		Lua:     "local fs = require('os')",
		JS:      "const fs = require('fs');",
		WantErr: sqlState(sqlerr.ErSignalException),
		LuaMsg:  "require is not available in procedures",
		JSMsg:   "require is not defined",
	},
	{
		Name:    "sandbox_process_and_loaders",
		Lua:     "dofile('/etc/passwd')",
		JS:      "process.exit(1);",
		WantErr: sqlState(sqlerr.ErSignalException),
		LuaMsg:  "dofile is not available in procedures",
		JSMsg:   "process is not defined",
	},
	{
		Name:    "sandbox_load_string",
		Lua:     "local f = load('return 1')",
		JS:      "const f = load('return 1');",
		WantErr: sqlState(sqlerr.ErSignalException),
		LuaMsg:  "load is not available in procedures",
		JSMsg:   "load is not defined",
	},
	{
		Name: "emit_result_and_arrays",
		Sig:  "IN n INT",
		Lua:  "session:emit(session:runSql('SELECT a, b FROM t'))\nsession:emit({'x', 'y'}, {{n, 'one'}, {session.NULL, n + 0.5}})",
		JS:   "session.emit(session.runSql('SELECT a, b FROM t'));\nsession.emit(['x', 'y'], [[n, 'one'], [null, n + 0.5]]);",
		Host: hostWith(map[string]*procs.Result{"SELECT a, b FROM t": twoRows}, nil),
		Args: []any{int64(2)}, WantOuts: []any{nil},
		WantCalls: []string{
			"exec SELECT a, b FROM t []",
			"emit [a b] [[7 x] [8 <nil>]]",
			"emit [x y] [[2 one] [<nil> 2.5]]",
		},
	},
	{
		Name:    "emit_bad_rows",
		Lua:     "session:emit({'x', 'y'}, {{1, 2, 3}})",
		JS:      "session.emit(['x', 'y'], [[1, 2, 3]]);",
		WantErr: sqlState(sqlerr.ErSignalException),
		WantMsg: []string{"row 1 has 3 values for 2 columns"},
	},
	{
		Name: "print_and_console_log_are_notes",
		Lua:  "print('n = ' .. 1)\nprint()",
		JS:   "console.log('n = ' + 1);\nconsole.error();",
		WantCalls: []string{
			"note n = 1",
			"note ",
		},
	},
}
