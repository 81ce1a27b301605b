package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
)

// setNames is SET NAMES cs [COLLATE co] (names true) and SET CHARACTER SET
// cs: MariaDB sets character_set_client, _results and, for NAMES,
// _connection and collation_connection (CHARACTER SET gives the
// connection the database's). A charset plrun cannot honour (anything
// but UTF-8: sysvar.Check) is refused before any variable changes.
func (s *Session) setNames(names bool, v *ast.VariableAssignment) error {
	cs, collation := "utf8mb4", ""
	if ve, ok := v.Value.(ast.ValueExpr); ok {
		cs = strings.ToLower(ve.GetString())
	}
	if ve, ok := v.ExtendValue.(ast.ValueExpr); ok && v.ExtendValue != nil {
		collation = strings.ToLower(ve.GetString())
	}
	if cs == "" {
		cs = "utf8mb4"
	}
	cs = sysvar.CanonicalCharset(cs)
	if collation == "" {
		collation = cs + "_general_ci"
	}
	set := map[string]string{"character_set_client": cs, "character_set_results": cs}
	if names {
		set["character_set_connection"] = cs
		set["collation_connection"] = sysvar.CanonicalCharset(collation)
		if !strings.HasPrefix(set["collation_connection"], cs+"_") {
			return sqlerr.New(sqlerr.ErCollationCharsetMismatch, "COLLATION '%s' is not valid for CHARACTER SET '%s'", collation, cs)
		}
	} else {
		set["character_set_connection"] = "utf8mb4"
		set["collation_connection"] = "utf8mb4_general_ci"
	}
	for _, name := range []string{"character_set_client", "character_set_results", "character_set_connection", "collation_connection"} {
		if err := sysvar.Check(sysvar.Defs[name], set[name]); err != nil {
			return err
		}
	}
	for name, text := range set {
		s.vars[name] = text
	}
	return nil
}
