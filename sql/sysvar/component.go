package sysvar

import (
	"strings"

	"github.com/plrun/plrun/sqlerr"
)

// Persist scopes of a SET item: MySQL 8's `SET @@PERSIST.x = v` and
// `SET @@PERSIST_ONLY.x = v`, which the TiDB parser reads as a variable
// named "persist.x" (or "persist_only.x").
const (
	ScopeNone = iota
	ScopePersist
	ScopePersistOnly
)

// PersistScope splits a SET item's variable name into its persist scope
// and the variable's name; ScopeNone if it names none.
func PersistScope(name string) (scope int, variable string) {
	lower := strings.ToLower(name)
	if v, ok := strings.CutPrefix(lower, "persist."); ok {
		return ScopePersist, v
	}
	if v, ok := strings.CutPrefix(lower, "persist_only."); ok {
		return ScopePersistOnly, v
	}
	return ScopeNone, lower
}

// ComponentError is MySQL's answer to `@@a.b` (a structured variable's
// component, which plrun has none of): 1193 when b is no variable, else
// 1272. name is "a.b"; ok is false when name has no dot.
func ComponentError(name string) (err error, ok bool) {
	_, comp, dotted := strings.Cut(name, ".")
	if !dotted {
		return nil, false
	}
	if _, err := Lookup(comp); err != nil {
		return err, true
	}
	return sqlerr.New(sqlerr.ErVariableIsNotStruct, "Variable '%s' is not a variable component (can't be used as XXXX.variable_name)", strings.ToLower(comp)), true
}
