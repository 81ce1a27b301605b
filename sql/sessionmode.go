package sql

import (
	"strings"

	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
)

// CountParams is the number of ? placeholders in one statement, parsed as
// this session's sql_mode reads it.
func (s *Session) CountParams(query string) (int, error) {
	p, err := s.database.plans.Get(query, s.SQLMode().ParserMode())
	if err != nil {
		return 0, err
	}
	return p.Params, nil
}

// substituteEngine is NO_ENGINE_SUBSTITUTION: plrun's one engine is
// InnoDB (SHOW ENGINES), so ENGINE=MyISAM (or any other) is error 1286
// under the flag, and without it the table is InnoDB with warnings 1286
// and 1266, as MariaDB does for an engine it does not have. Never a table
// that claims an engine it is not.
func (s *Session) substituteEngine(def *storage.TableDef) error {
	if strings.EqualFold(def.Engine, "InnoDB") {
		def.Engine = "InnoDB"
		return nil
	}
	if s.SQLMode()&sysvar.ModeNoEngineSubst != 0 {
		return sqlerr.New(sqlerr.ErUnknownStorageEngine, "Unknown storage engine '%s'", def.Engine)
	}
	s.Warn(sqlerr.ErUnknownStorageEngine, "Unknown storage engine '%s'", def.Engine)
	s.Warn(sqlerr.WarnUsingOtherHandler, "Using storage engine InnoDB for table '%s'", def.Name)
	def.Engine = "InnoDB"
	return nil
}
