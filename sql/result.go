package sql

import "github.com/plrun/plrun/sql/exec"

// Result is the outcome of one statement (see exec.Result).
type Result = exec.Result

// Column describes one column of a result set.
type Column = exec.Column

// Note is one SHOW WARNINGS row.
type Note = exec.Note
