// Package sysvar is the registry of plrun's system variables: each one's
// name, type, range, scope and default (Defs), how a value given to SET is
// validated and written (Normalize, Check), the global values (Globals),
// and sql_mode as flags (SQLMode).
//
// It holds no session and no engine: the engine owns one Globals and
// applies changes to the running database; a session keeps its own
// values beside it and reads the global one where it has none.
// Invariant: a value stored in Globals or a session has passed Normalize
// and Check, so readers parse it without error handling.
package sysvar
