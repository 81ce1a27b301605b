package sql

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/types"
)

// setPersistItem is one `@@a.b = v` item of a SET: MySQL 8's
// `@@PERSIST.x` (set the global value and keep it in plrun-auto.cnf, as
// SET PERSIST x does) and `@@PERSIST_ONLY.x` (keep it for the next start
// only). The TiDB parser names the variable "persist.x": its tokenizer
// has already told strings, comments and identifiers apart, so nothing
// but a real @@ name reaches here. Any other `@@a.b`, and a persist scope
// with another scope before it (`@@GLOBAL.persist.x`), is MySQL's 1272
// (or 1193 for an unknown variable).
func (s *Session) setPersistItem(p *parse.Stmt, v *ast.VariableAssignment, name string, isDefault bool, val types.Value) (*exec.Note, error) {
	scope, varName := sysvar.PersistScope(name)
	if scope == sysvar.ScopeNone || v.IsGlobal || v.IsInstance || parse.ScopedPersist(p.Text) {
		err, _ := sysvar.ComponentError(name)
		return nil, err
	}
	d, err := sysvar.Lookup(varName)
	if err != nil {
		return nil, err
	}
	if isDefault {
		val = sysvar.Literal(d.Def) // SET @@PERSIST.x = DEFAULT persists the default
	}
	only := scope == sysvar.ScopePersistOnly
	warn, err := s.database.Engine.PersistSetting(varName, val, only)
	if err != nil {
		return nil, err
	}
	if !only {
		s.setDynamically(varName)
	}
	return warn, nil
}
