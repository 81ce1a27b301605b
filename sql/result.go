package sql

import (
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/show"
)

// Result is the outcome of one statement (see exec.Result).
type Result = exec.Result

// Column describes one column of a result set.
type Column = exec.Column

// Note is one SHOW WARNINGS row.
type Note = exec.Note

// SessionInfo is one SHOW PROCESSLIST row.
type SessionInfo = show.SessionInfo
