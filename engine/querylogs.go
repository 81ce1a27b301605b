package engine

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/plrun/plrun/sql/querylog"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
)

// The general and slow query logs (sql/querylog): the engine owns their
// writer, points them at the files the variables name, and checks a new
// file name before it is set, as mysqld does (1231 for a path it could
// not write).

// queryLogState is what applyQueryLogs last gave the writer.
type queryLogState struct {
	path [2]string
	on   [2]bool
}

// openQueryLogs starts the logs' writer; the files open with their first
// entry.
func (e *Engine) openQueryLogs() {
	program, err := os.Executable()
	if err != nil {
		program = "/plrun"
	}
	e.qlog = querylog.New(querylog.Server{Program: program, Version: e.globals.Get("version")})
}

// QueryLogs is the general and slow query log (the server names its port
// in their headers and writes its commands to them).
func (e *Engine) QueryLogs() *querylog.Logs { return e.qlog }

// logPath is a log variable's file: a relative name is in the data folder.
func (e *Engine) logPath(name string) string {
	if name == "" || filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(e.cfg.Dir, name)
}

// checkLogFile refuses a general_log_file / slow_query_log_file the logs
// could not write (a folder, a missing folder), before it is set.
func (e *Engine) checkLogFile(d *sysvar.Def, text string) error {
	switch d.Key() {
	case "general_log_file", "slow_query_log_file":
		if err := querylog.CheckPath(e.logPath(text)); err != nil {
			return sqlerr.New(sqlerr.ErWrongValueForVar, "Variable '%s' can't be set to the value of '%s'", d.Name, text)
		}
	}
	return nil
}

// applyQueryLogs gives the writer the files and switches the variables
// name, when they changed (syncSettings runs on every SET GLOBAL).
func (e *Engine) applyQueryLogs() {
	if e.qlog == nil {
		return
	}
	g := e.globals
	output := g.Get("log_output")
	toFile := strings.Contains(output, "FILE") && !strings.Contains(output, "NONE")
	want := queryLogState{
		path: [2]string{e.logPath(g.Get("general_log_file")), e.logPath(g.Get("slow_query_log_file"))},
		on:   [2]bool{toFile && g.Get("general_log") == "ON", toFile && g.Get("slow_query_log") == "ON"},
	}
	e.qlogMu.Lock()
	defer e.qlogMu.Unlock()
	if want == e.qlogState {
		return
	}
	for k, kind := range []querylog.Kind{querylog.General, querylog.Slow} {
		_ = e.qlog.SetFile(kind, want.path[k], want.on[k])
	}
	e.qlogState = want
}

// Dir is the data folder (a relative log file name is in it).
func (e *Engine) Dir() string { return e.cfg.Dir }
