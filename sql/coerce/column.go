package coerce

import (
	"strings"

	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/jsondoc"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// Column stores v into column c, turning a CoerceError into the
// MySQL error that names the column and row. Without strict mode a value
// that does not fit is adjusted with a warning instead (nonstrict.go).
func Column(s *expr.Env, def *storage.TableDef, c int, v types.Value, rowNum int) (types.Value, error) {
	col := &def.Columns[c]
	if v.IsNull() {
		if col.NotNull {
			if d, ok := nullAsDefault(s, col); ok {
				return d, nil
			}
			return v, sqlerr.New(sqlerr.ErBadNull, "Column '%s' cannot be null", col.Name)
		}
		return v, nil
	}
	if err := checkJSON(def, col, v); err != nil {
		return v, err
	}
	var cv types.Value
	var err error
	if !Strict(s) {
		cv, err = coerceLoose(s, def, c, v, rowNum)
	} else {
		cv, err = coerceStrict(s, def, c, v, rowNum)
	}
	if err != nil {
		return cv, err
	}
	return storeTimestamp(s, def, c, v, cv, rowNum)
}

// storeTimestamp turns cv, the value given (v) converted to column c's
// type, into what the table stores: a TIMESTAMP is read in the session's
// time_zone and kept in the table's storage zone (storage/timestamps.go).
// Outside TIMESTAMP's range it is 1292, as in MariaDB's strict mode.
// MariaDB's non-strict mode stores the zero date with warning 1264;
// plrun cannot hold a zero date (sql/datetime), so it refuses the value
// with the same 1292 rather than store another.
func storeTimestamp(s *expr.Env, def *storage.TableDef, c int, v, cv types.Value, rowNum int) (types.Value, error) {
	out, ok := s.StoredTimestamp(def, c, cv)
	if ok {
		return out, nil
	}
	col := &def.Columns[c]
	return v, sqlerr.New(sqlerr.ErTruncatedWrongValue, "Incorrect datetime value: '%s' for column `%s`.`%s`.`%s` at row %d", v.String(), def.DB, def.Name, col.Name, rowNum)
}

// coerceStrict is Column's conversion of a non-NULL value in strict
// mode: a value that does not fit is an error naming the column and row.
func coerceStrict(s *expr.Env, def *storage.TableDef, c int, v types.Value, rowNum int) (types.Value, error) {
	col := &def.Columns[c]
	cv, err := types.Coerce(v, col.Type)
	if err == nil {
		return cv, nil
	}
	ce, ok := err.(*types.CoerceError)
	if !ok {
		return v, err
	}
	switch ce.Code {
	case sqlerr.ErDataTooLong:
		return v, sqlerr.New(sqlerr.ErDataTooLong, "Data too long for column '%s' at row %d", col.Name, rowNum)
	case sqlerr.ErWarnDataTruncated: // a value that is no ENUM or SET member
		return v, sqlerr.New(sqlerr.ErWarnDataTruncated, "Data truncated for column '%s' at row %d", col.Name, rowNum)
	case sqlerr.ErTruncatedWrongField:
		if v.K == types.KindString && hasNumericPrefix(v.S) {
			// '12abc' into a number column: MariaDB keeps the prefix and
			// reports the truncation (1265), not a wrong value (1366).
			return v, sqlerr.New(sqlerr.ErWarnDataTruncated, "Data truncated for column '%s' at row %d", col.Name, rowNum)
		}
		return v, sqlerr.New(sqlerr.ErTruncatedWrongField, "Incorrect %s value: '%s' for column `%s`.`%s`.`%s` at row %d", ce.What, ce.Value, def.DB, def.Name, col.Name, rowNum)
	case sqlerr.ErTruncatedWrongValue:
		return v, sqlerr.New(sqlerr.ErTruncatedWrongValue, "Incorrect %s value: '%s' for column `%s`.`%s`.`%s` at row %d", ce.What, ce.Value, def.DB, def.Name, col.Name, rowNum)
	}
	return v, sqlerr.New(sqlerr.ErWarnDataOutOfRange, "Out of range value for column '%s' at row %d", col.Name, rowNum)
}

// hasNumericPrefix reports whether s starts (after spaces and a sign) with
// a number, as '12abc' and '.5x' do and 'abc', ” and '+x' do not.
func hasNumericPrefix(s string) bool {
	t := strings.TrimLeft(s, " \t\n\r")
	if t != "" && (t[0] == '+' || t[0] == '-') {
		t = t[1:]
	}
	if t != "" && t[0] == '.' {
		t = t[1:]
	}
	return t != "" && t[0] >= '0' && t[0] <= '9'
}

// checkJSON is a JSON column's implicit CHECK (JSON_VALID(c)), as MariaDB
// declares it: text that is not JSON is error 4025 in every sql_mode.
func checkJSON(def *storage.TableDef, col *storage.Column, v types.Value) error {
	if !col.Type.JSON || v.IsNull() || jsondoc.Valid(v.String()) {
		return nil
	}
	return sqlerr.New(sqlerr.ErConstraintFailed, "CONSTRAINT `%s.%s` failed for `%s`.`%s`", def.Name, col.Name, def.DB, def.Name)
}
