package query

import (
	"fmt"

	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// Column describes one column of a result set.
type Column struct {
	Name     string // the label the client sees (alias or expression text)
	OrgName  string // the table column it came from, if any
	Table    string // table alias, if any
	OrgTable string
	DB       string
	Type     types.ColType // TBigInt for COUNT(*), TDecimal for SUM(int), TVarchar for strings ...
	NotNull  bool
	Binary   bool // the value is binary, not text (BLOB-like); false for everything plrun has now
	// Expr: computed, not a table column read bare; MariaDB describes the
	// two apart (BINARY on numbers, decimals 39 on strings, lengths).
	Expr bool
	// Flags are a table column's key and default flags (exec.FlagPriKey ...).
	Flags uint16
	// FixedDecimals: a computed string MariaDB gives decimals 0, not 39.
	FixedDecimals bool
	// NullLiteral: SELECT NULL, which MariaDB describes as of type NULL.
	NullLiteral bool
}

// Result is the outcome of one statement.
//
// A statement that returns rows (SELECT, SHOW, DESCRIBE, CALL's result
// sets are separate Results) has Columns != nil, even with zero rows; an
// OK packet has Columns == nil.
type Result struct {
	Columns      []Column
	Rows         [][]types.Value
	AffectedRows uint64
	LastInsertID uint64
	Warnings     uint16
	// Notes are the statement's warnings and notes, what SHOW WARNINGS
	// lists next; Warnings is their count.
	Notes []Note
	// Info is MySQL's info string, e.g. "Rows matched: 1  Changed: 1  Warnings: 0"
	// for UPDATE or "Records: 3  Duplicates: 0  Warnings: 0" for multi-row INSERT.
	Info string
	// FoundRows is what FOUND_ROWS() reports after a SELECT (set by the
	// query that produced it).
	FoundRows int64
	// OutParams marks the result set of a prepared CALL's OUT and INOUT
	// parameters bound to ?: one row, a column per parameter (the binary
	// protocol's SERVER_PS_OUT_PARAMS result).
	OutParams bool
	// Sets are the result sets a CALL (or DO block) sent before its own
	// OK, in order: each set the procedure emitted (a SQL procedure's
	// SELECT without INTO, session.emit in Lua and JavaScript, and those of
	// the procedures it called), then, for a prepared CALL with OUT or
	// INOUT ? arguments, the OutParams set. The Result itself is the
	// CALL's final OK; Sets is nil for every other statement.
	Sets []*Result
}

// IsResultSet reports whether r carries rows (a result set) rather than an OK.
func (r *Result) IsResultSet() bool { return r != nil && r.Columns != nil }

// Note is one SHOW WARNINGS row.
type Note = sqlerr.Note

// Noted returns an OK result carrying one note.
func Noted(level string, code uint16, format string, args ...any) *Result {
	return &Result{Warnings: 1, Notes: []Note{{Level: level, Code: code, Message: fmt.Sprintf(format, args...)}}}
}
