package sql

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/querylog"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// The session's side of the general and slow query logs (sql/querylog):
// what a top-level statement hands them. A log that is off costs one
// atomic load per statement; nothing here waits for the disk.

// LogCommand writes a protocol command to the general log (Connect,
// Quit, Init DB, Prepare: the server's, which the engine does not see).
func (s *Session) LogCommand(command, arg string) {
	s.database.QueryLog.General(s.id, command, arg)
}

// ExecUnlogged runs a statement a server makes up to answer a protocol
// command (COM_FIELD_LIST's SELECT): the command is in the logs under its
// own name, so the statement is in neither query log.
func (s *Session) ExecUnlogged(ctx context.Context, query string) (*exec.Result, error) {
	s.unlogged = true
	defer func() { s.unlogged = false }()
	return s.exec(ctx, query, nil)
}

// logGeneral writes a statement as it starts: Query, or Execute (the
// text with its arguments) for one run with arguments. A statement that
// does not parse is not written: it could not be known to hold no
// password (MySQL does the same).
func (s *Session) logGeneral(p *parse.Stmt, args []types.Value) {
	ql := s.database.QueryLog
	if !ql.Enabled(querylog.General) || s.unlogged || s.scriptLogged {
		return
	}
	text := querylog.Redact(p, s.SQLMode().ParserMode())
	if args != nil {
		ql.General(s.id, querylog.CmdExecute, querylog.Expand(text, args))
		return
	}
	ql.General(s.id, querylog.CmdQuery, text)
}

// logGeneralScript writes a multi-statement text as one Query line, as
// MariaDB does (the slow log still has each statement). When a statement
// of it carries a password, or does not parse (and so could), the line
// is the redacted statements up to that one, joined. It reports whether
// it wrote the line.
func (s *Session) logGeneralScript(script string, stmts []string) bool {
	ql := s.database.QueryLog
	if !ql.Enabled(querylog.General) || s.unlogged || s.callDepth > 0 {
		return false
	}
	mode := s.SQLMode().ParserMode()
	parts := make([]string, 0, len(stmts))
	verbatim := true
	for _, q := range stmts {
		p, err := s.database.plans.Get(q, mode)
		if err != nil {
			verbatim = false
			break
		}
		text := querylog.Redact(p, mode)
		verbatim = verbatim && text == p.Text
		parts = append(parts, strings.TrimRight(text, " \t\r\n;"))
	}
	if verbatim {
		ql.General(s.id, querylog.CmdQuery, script)
	} else if len(parts) > 0 {
		ql.General(s.id, querylog.CmdQuery, strings.Join(parts, ";"))
	}
	return true
}

var (
	slowQueryLog     = sysvar.Defs["slow_query_log"]
	notUsingIndexes  = sysvar.Defs["log_queries_not_using_indexes"]
	minExaminedRows  = sysvar.Defs["min_examined_row_limit"]
	slowAdminLogging = sysvar.Defs["log_slow_admin_statements"]
)

// logSlow writes the statement that just ended to the slow query log when
// MariaDB would: the log on globally and for the session, and the
// statement longer than long_query_time or, under
// log_queries_not_using_indexes, a scan of a whole table; at least
// min_examined_row_limit rows examined; an admin statement (ALTER TABLE,
// CREATE/DROP INDEX, ANALYZE) only under log_slow_admin_statements.
func (s *Session) logSlow(p *parse.Stmt, args []types.Value, res *exec.Result) {
	ql := s.database.QueryLog
	if !ql.Enabled(querylog.Slow) || s.unlogged || s.getVar(slowQueryLog, false) != "ON" {
		return
	}
	end := time.Now()
	took := end.Sub(s.StmtStart)
	if took <= s.longQueryTime() && !(s.Env.FullScan && s.getVar(notUsingIndexes, false) == "ON") {
		return
	}
	if s.RowsExamined < uintVar(s.getVar(minExaminedRows, false)) {
		return
	}
	if isAdminStatement(p.Node) && s.getVar(slowAdminLogging, false) != "ON" {
		return
	}
	user, host := s.Client()
	text := strings.TrimRight(querylog.Redact(p, s.SQLMode().ParserMode()), " \t\r\n;")
	if args != nil {
		text = querylog.Expand(text, args)
	}
	e := &querylog.SlowEntry{Start: s.StmtStart, End: end, User: user, Host: host, ThreadID: s.id, DB: s.DB,
		QueryTime: took, LockTime: s.lockWait.Total(), RowsExamined: s.RowsExamined, Query: text}
	if res != nil {
		e.RowsAffected = res.AffectedRows
		if res.IsResultSet() {
			e.RowsSent = uint64(len(res.Rows))
		}
		for _, set := range res.Sets {
			e.RowsSent += uint64(len(set.Rows))
		}
	}
	ql.Slow(e)
}

// isAdminStatement: MySQL's administrative statements, which the slow
// log leaves out unless log_slow_admin_statements is on.
func isAdminStatement(n ast.StmtNode) bool {
	switch n.(type) {
	case *ast.AlterTableStmt, *ast.CreateIndexStmt, *ast.DropIndexStmt, *ast.AnalyzeTableStmt:
		return true
	}
	return false
}

func uintVar(text string) uint64 {
	n, _ := strconv.ParseUint(text, 10, 64)
	return n
}

// flushLogs is FLUSH [ERROR | GENERAL | SLOW] LOGS: the named log files
// (all of them without a name) are closed and opened again, so a
// rotation tool that renamed them gets new ones. Binary and engine logs
// have nothing to reopen: plrun's own log is not a file a tool rotates.
func (s *Session) flushLogs(t ast.LogType) error {
	db := s.database
	var kinds []querylog.Kind
	switch t {
	case ast.LogTypeDefault:
		kinds = []querylog.Kind{querylog.General, querylog.Slow}
	case ast.LogTypeGeneral:
		kinds = []querylog.Kind{querylog.General}
	case ast.LogTypeSlow:
		kinds = []querylog.Kind{querylog.Slow}
	}
	if db.QueryLog != nil && len(kinds) > 0 {
		if err := db.QueryLog.Reopen(kinds...); err != nil {
			return sqlerr.New(sqlerr.ErUnknown, "FLUSH LOGS: %v", err)
		}
	}
	if (t == ast.LogTypeDefault || t == ast.LogTypeError) && db.ReopenErrorLog != nil {
		if err := db.ReopenErrorLog(); err != nil {
			return sqlerr.New(sqlerr.ErUnknown, "FLUSH ERROR LOGS: %v", err)
		}
	}
	return nil
}
