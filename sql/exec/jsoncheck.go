package exec

import (
	"github.com/plrun/plrun/sql/jsondoc"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// checkJSON is a JSON column's implicit CHECK (JSON_VALID(c)), as MariaDB
// declares it: text that is not JSON is error 4025 in every sql_mode.
func checkJSON(def *storage.TableDef, col *storage.Column, v types.Value) error {
	if !col.Type.JSON || v.IsNull() || jsondoc.Valid(v.String()) {
		return nil
	}
	return sqlerr.New(sqlerr.ErConstraintFailed, "CONSTRAINT `%s.%s` failed for `%s`.`%s`", def.Name, col.Name, def.DB, def.Name)
}
