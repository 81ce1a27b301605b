package counters

import (
	"strconv"
	"sync/atomic"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/parse"
)

// Counters are the statement counters MySQL's SHOW GLOBAL STATUS has:
// Questions (statements the clients sent), Queries (those and the ones
// procedures ran), a Com_xxx counter per statement kind (both), the
// sessions executing a statement now (Threads_running) and the statements
// that ran longer than long_query_time (Slow_queries).
type Counters struct {
	questions atomic.Uint64
	queries   atomic.Uint64
	slow      atomic.Uint64
	running   atomic.Int64
	com       [numComs]atomic.Uint64
}

// com is a Com_xxx counter.
type com int

const (
	comOther com = iota // counted in Queries only
	comSelect
	comInsert
	comInsertSelect
	comReplace
	comReplaceSelect
	comUpdate
	comUpdateMulti
	comDelete
	comDeleteMulti
	comCallProcedure
	comBegin
	comCommit
	comRollback
	comRollbackToSavepoint
	comSavepoint
	comReleaseSavepoint
	comSetOption
	comChangeDB
	comShowDatabases
	comShowTables
	comShowFields
	comShowCreateTable
	comShowKeys
	comShowVariables
	comShowStatus
	comShowProcesslist
	comShowWarnings
	comShowErrors
	comShowEngines
	comShowCharsets
	comShowCollations
	comShowTableStatus
	comShowStatusProc
	comShowCreateProc
	comShowStatusFunc
	comShowCreateFunc
	comCreateTable
	comDropTable
	comCreateDB
	comDropDB
	comTruncate
	comCreateProcedure
	comDropProcedure
	comCreateFunction
	comDropFunction
	comKill
	comDo
	comFlush
	comAnalyze
	comCreateTrigger
	comDropTrigger
	comShowTriggers
	comShowCreateTrigger
	numComs
)

// comNames are the counters' names after "Com_", as MySQL spells them.
var comNames = [numComs]string{
	comSelect: "select", comInsert: "insert", comInsertSelect: "insert_select", comReplace: "replace",
	comReplaceSelect: "replace_select", comUpdate: "update", comUpdateMulti: "update_multi", comDelete: "delete",
	comDeleteMulti: "delete_multi", comCallProcedure: "call_procedure", comBegin: "begin", comCommit: "commit",
	comRollback: "rollback", comRollbackToSavepoint: "rollback_to_savepoint", comSavepoint: "savepoint",
	comReleaseSavepoint: "release_savepoint", comSetOption: "set_option", comChangeDB: "change_db",
	comShowDatabases: "show_databases", comShowTables: "show_tables", comShowFields: "show_fields",
	comShowCreateTable: "show_create_table", comShowKeys: "show_keys", comShowVariables: "show_variables",
	comShowStatus: "show_status", comShowProcesslist: "show_processlist", comShowWarnings: "show_warnings",
	comShowErrors: "show_errors", comShowEngines: "show_engine_status", comShowCharsets: "show_charsets",
	comShowCollations: "show_collations", comShowTableStatus: "show_table_status", comShowStatusProc: "show_status_proc",
	comShowCreateProc: "show_create_proc", comShowStatusFunc: "show_status_func", comShowCreateFunc: "show_create_func",
	comCreateTable: "create_table", comDropTable: "drop_table", comCreateDB: "create_db", comDropDB: "drop_db",
	comTruncate: "truncate", comCreateProcedure: "create_procedure", comDropProcedure: "drop_procedure",
	comCreateFunction: "create_function", comDropFunction: "drop_function", comKill: "kill", comDo: "do",
	comFlush: "flush", comAnalyze: "analyze", comCreateTrigger: "create_trigger", comDropTrigger: "drop_trigger",
	comShowTriggers: "show_triggers", comShowCreateTrigger: "show_create_trigger",
}

// comOf is the Com_xxx counter of a parsed statement.
func comOf(p *parse.Stmt) com {
	switch p.Kind {
	case parse.KindCreateProc:
		return comCreateProcedure
	case parse.KindDropProc:
		return comDropProcedure
	case parse.KindCreateFunc:
		return comCreateFunction
	case parse.KindDropFunc:
		return comDropFunction
	case parse.KindAlterSystem, parse.KindSetPersist:
		return comSetOption
	case parse.KindShowProcStatus:
		return comShowStatusProc
	case parse.KindShowCreateProc:
		return comShowCreateProc
	case parse.KindShowFuncStatus:
		return comShowStatusFunc
	case parse.KindShowCreateFunc:
		return comShowCreateFunc
	case parse.KindDoBlock:
		return comDo
	case parse.KindCreateTrigger:
		return comCreateTrigger
	case parse.KindDropTrigger:
		return comDropTrigger
	case parse.KindShowTriggers:
		return comShowTriggers
	case parse.KindShowCreateTrigger:
		return comShowCreateTrigger
	case parse.KindAST:
	default:
		return comOther
	}
	switch n := p.Node.(type) {
	case *ast.SelectStmt, *ast.SetOprStmt:
		return comSelect
	case *ast.InsertStmt:
		switch {
		case n.IsReplace && n.Select != nil:
			return comReplaceSelect
		case n.IsReplace:
			return comReplace
		case n.Select != nil:
			return comInsertSelect
		}
		return comInsert
	case *ast.UpdateStmt:
		if n.MultipleTable {
			return comUpdateMulti
		}
		return comUpdate
	case *ast.DeleteStmt:
		if n.IsMultiTable {
			return comDeleteMulti
		}
		return comDelete
	case *ast.CallStmt:
		return comCallProcedure
	case *ast.BeginStmt:
		return comBegin
	case *ast.CommitStmt:
		return comCommit
	case *ast.RollbackStmt:
		if n.SavepointName != "" {
			return comRollbackToSavepoint
		}
		return comRollback
	case *ast.SavepointStmt:
		return comSavepoint
	case *ast.ReleaseSavepointStmt:
		return comReleaseSavepoint
	case *ast.SetStmt:
		return comSetOption
	case *ast.UseStmt:
		return comChangeDB
	case *ast.ShowStmt:
		return showCom[n.Tp]
	case *ast.CreateTableStmt:
		return comCreateTable
	case *ast.DropTableStmt:
		return comDropTable
	case *ast.CreateDatabaseStmt:
		return comCreateDB
	case *ast.DropDatabaseStmt:
		return comDropDB
	case *ast.TruncateTableStmt:
		return comTruncate
	case *ast.KillStmt:
		return comKill
	case *ast.DoStmt:
		return comDo
	case *ast.FlushStmt:
		return comFlush
	case *ast.AnalyzeTableStmt:
		return comAnalyze
	}
	return comOther
}

var showCom = map[ast.ShowStmtType]com{
	ast.ShowDatabases: comShowDatabases, ast.ShowTables: comShowTables, ast.ShowColumns: comShowFields,
	ast.ShowCreateTable: comShowCreateTable, ast.ShowIndex: comShowKeys, ast.ShowVariables: comShowVariables,
	ast.ShowStatus: comShowStatus, ast.ShowProcessList: comShowProcesslist, ast.ShowWarnings: comShowWarnings,
	ast.ShowErrors: comShowErrors, ast.ShowEngines: comShowEngines, ast.ShowCharset: comShowCharsets,
	ast.ShowCollation: comShowCollations, ast.ShowTableStatus: comShowTableStatus,
}

// Count notes one statement about to run; fromClient is false for the
// statements a procedure or function runs.
func (c *Counters) Count(p *parse.Stmt, fromClient bool) {
	c.queries.Add(1)
	if fromClient {
		c.questions.Add(1)
	}
	if k := comOf(p); k != comOther {
		c.com[k].Add(1)
	}
}

// Running counts a statement starting (+1) or ending (-1).
func (c *Counters) Running(delta int64) { c.running.Add(delta) }

// Slow counts a statement that ran longer than long_query_time.
func (c *Counters) Slow() { c.slow.Add(1) }

// SlowQueries is Slow_queries (COM_STATISTICS reports it too).
func (c *Counters) SlowQueries() uint64 { return c.slow.Load() }

// Rows are the counters as SHOW GLOBAL STATUS rows (unsorted).
func (c *Counters) Rows() [][2]string {
	u := func(v uint64) string { return strconv.FormatUint(v, 10) }
	rows := [][2]string{
		{"Questions", u(c.questions.Load())},
		{"Queries", u(c.queries.Load())},
		{"Slow_queries", u(c.slow.Load())},
		{"Threads_running", strconv.FormatInt(c.running.Load(), 10)},
	}
	for k := comOther + 1; k < numComs; k++ {
		rows = append(rows, [2]string{"Com_" + comNames[k], u(c.com[k].Load())})
	}
	return rows
}

// Snapshot is the counters at one moment, for the metrics endpoint.
type Snapshot struct {
	Questions, Queries, Slow uint64
	Running                  int64
	// Com is each Com_xxx counter by its name after "Com_" (select,
	// insert, call_procedure, ...), zeros included.
	Com map[string]uint64
}

// Snapshot reads the counters.
func (c *Counters) Snapshot() Snapshot {
	s := Snapshot{
		Questions: c.questions.Load(), Queries: c.queries.Load(), Slow: c.slow.Load(), Running: c.running.Load(),
		Com: make(map[string]uint64, numComs),
	}
	for k := comOther + 1; k < numComs; k++ {
		s.Com[comNames[k]] = c.com[k].Load()
	}
	return s
}
