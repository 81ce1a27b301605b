package exec

import "github.com/plrun/plrun/sql/query"

// The result of a statement is sql/query's (the planned queries of
// sql/compose return it too); these are the names package sql and the
// faces know it by.
type (
	Column = query.Column
	Result = query.Result
	Note   = query.Note
)

// Noted returns an OK result carrying one note.
var Noted = query.Noted
