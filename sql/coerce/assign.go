package coerce

import (
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// Assign converts v to type t as MariaDB assigns a stored function's
// argument to its parameter, or its return value to the RETURNS type:
// like a value stored into a column named name of a table with no name
// (the messages say column “.“.`a`, 'f(1)'), at row rowNum, strictly
// or with non-strict mode's clamping and warnings.
func Assign(s *expr.Env, name string, t types.ColType, v types.Value, rowNum int, strict bool) (types.Value, error) {
	if v.IsNull() {
		return v, nil
	}
	if out, err := types.Coerce(v, t); err == nil {
		return out, nil // it fits: no message to build (the per-row path)
	}
	def := &storage.TableDef{Columns: []storage.Column{{Name: name, Type: t}}}
	if !strict {
		return coerceLoose(s, def, 0, v, rowNum)
	}
	saved := s.IgnoreErrors
	s.IgnoreErrors = false
	defer func() { s.IgnoreErrors = saved }()
	return coerceStrict(s, def, 0, v, rowNum)
}
