package infoschema

import (
	"strings"

	"github.com/plrun/plrun/types"
)

// Visibility is a Source whose account sees only part of the catalog, as
// MySQL's information_schema shows an account only what it holds some
// privilege on: a row about a table needs a privilege on the table, one
// about a database (SCHEMATA, ROUTINES, TRIGGERS, ...) a privilege in it;
// PROCESSLIST lists other accounts' sessions and the PLRUN_ lock and
// transaction tables list anything only with PROCESS (the Source's
// Processlist is already cut to the account's own sessions).
type Visibility interface {
	SeesDB(db string) bool
	SeesTable(db, table string) bool
	SeesProcesses() bool
}

// visible keeps the rows v may see.
func (t *table) visible(v Visibility, rows [][]types.Value) [][]types.Value {
	if strings.HasPrefix(t.name, "PLRUN_") && t.schemaCol == "" {
		if v.SeesProcesses() {
			return rows
		}
		return nil
	}
	si, ni := t.colIndex(t.schemaCol), -1
	if t.nameCol == "TABLE_NAME" {
		ni = t.colIndex(t.nameCol)
	}
	if si < 0 {
		return rows
	}
	kept := rows[:0]
	for _, r := range rows {
		db := r[si].String()
		if ni >= 0 && !r[ni].IsNull() {
			if v.SeesTable(db, r[ni].String()) {
				kept = append(kept, r)
			}
		} else if v.SeesDB(db) {
			kept = append(kept, r)
		}
	}
	return kept
}

func (t *table) colIndex(name string) int {
	if name == "" {
		return -1
	}
	for i, c := range t.cols {
		if c.name == name {
			return i
		}
	}
	return -1
}
