package coerce

import (
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// coerceLoose is Column without strict mode: MariaDB's clamping and
// truncation, each with its warning.
func coerceLoose(s *expr.Env, def *storage.TableDef, c int, v types.Value, rowNum int) (types.Value, error) {
	col := &def.Columns[c]
	out, w, err := types.CoerceLoose(v, col.Type)
	if err != nil {
		return coerceStrictError(s, def, c, err, rowNum)
	}
	switch w {
	case types.WarnOutOfRange:
		s.Warn(sqlerr.ErWarnDataOutOfRange, "Out of range value for column '%s' at row %d", col.Name, rowNum)
	case types.WarnTruncated:
		s.Warn(sqlerr.WarnDataTruncated, "Data truncated for column '%s' at row %d", col.Name, rowNum)
	case types.WarnBadValue:
		s.Warn(sqlerr.ErTruncatedWrongField, "Incorrect %s value: '%s' for column `%s`.`%s`.`%s` at row %d", typeWord(col.Type), v.String(), def.DB, def.Name, col.Name, rowNum)
	}
	return out, nil
}

// coerceStrictError is the error of a value even non-strict mode cannot
// store.
func coerceStrictError(s *expr.Env, def *storage.TableDef, c int, err error, rowNum int) (types.Value, error) {
	col := &def.Columns[c]
	ce, ok := err.(*types.CoerceError)
	if !ok {
		return types.Null, err
	}
	return types.Null, sqlerr.New(ce.Code, "Incorrect %s value: '%s' for column `%s`.`%s`.`%s` at row %d", ce.What, ce.Value, def.DB, def.Name, col.Name, rowNum)
}

// typeWord is the type's name in MariaDB's 1366 message.
func typeWord(t types.ColType) string {
	switch {
	case t.IsInteger(), t.Base == types.TYear:
		return "integer"
	case t.Base == types.TDecimal:
		return "decimal"
	}
	return "double"
}

// nullAsDefault is what non-strict mode does with a NULL for a NOT NULL
// column in an UPDATE or a multi-row INSERT (a single-row INSERT is error
// 1048 in every mode, as in MariaDB, unless IGNORE): the type's implicit
// default, with warning 1048.
func nullAsDefault(s *expr.Env, col *storage.Column) (types.Value, bool) {
	if !(s.MultiRowWrite || s.IgnoreErrors) || Strict(s) {
		return types.Null, false
	}
	d, ok := types.ImplicitDefault(col.Type)
	if ok {
		s.Warn(sqlerr.ErBadNull, "Column '%s' cannot be null", col.Name)
	}
	return d, ok
}

// Strict reports whether the running INSERT or UPDATE converts
// values strictly: strict mode on, and no IGNORE (which turns conversion
// errors into warnings, as in MySQL).
func Strict(s *expr.Env) bool { return s.SQLMode().Strict() && !s.IgnoreErrors }
