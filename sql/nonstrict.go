package sql

import (
	"fmt"

	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// maxStmtNotes bounds the warnings one statement keeps (MySQL's
// max_error_count default); the count goes on past it.
const maxStmtNotes = 64

// warn records a warning of the running statement; exec adds it to the
// statement's Result (SHOW WARNINGS, the OK packet's warning count).
func (s *Session) warn(code uint16, format string, args ...any) {
	s.stmtWarnings++
	if len(s.stmtNotes) < maxStmtNotes {
		s.stmtNotes = append(s.stmtNotes, Note{Level: "Warning", Code: code, Message: fmt.Sprintf(format, args...)})
	}
}

// coerceLoose is coerceColumn without strict mode: MariaDB's clamping and
// truncation, each with its warning.
func (s *Session) coerceLoose(def *storage.TableDef, c int, v types.Value, rowNum int) (types.Value, error) {
	col := &def.Columns[c]
	out, w, err := types.CoerceLoose(v, col.Type)
	if err != nil {
		return s.coerceStrictError(def, c, err, rowNum)
	}
	switch w {
	case types.WarnOutOfRange:
		s.warn(sqlerr.ErWarnDataOutOfRange, "Out of range value for column '%s' at row %d", col.Name, rowNum)
	case types.WarnTruncated:
		s.warn(sqlerr.WarnDataTruncated, "Data truncated for column '%s' at row %d", col.Name, rowNum)
	case types.WarnBadValue:
		s.warn(sqlerr.ErTruncatedWrongField, "Incorrect %s value: '%s' for column `%s`.`%s`.`%s` at row %d", typeWord(col.Type), v.String(), def.DB, def.Name, col.Name, rowNum)
	}
	return out, nil
}

// coerceStrictError is the error of a value even non-strict mode cannot
// store.
func (s *Session) coerceStrictError(def *storage.TableDef, c int, err error, rowNum int) (types.Value, error) {
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
	case t.IsInteger():
		return "integer"
	case t.Base == types.TDecimal:
		return "decimal"
	}
	return "double"
}

// divisionByZero is what x/0, x DIV 0 and x % 0 give besides their NULL,
// as in MariaDB: nothing without ERROR_FOR_DIVISION_BY_ZERO; with it,
// error 1365 in an INSERT or UPDATE under strict mode, else warning 1365.
func (c *evalCtx) divisionByZero() error {
	if c.s == nil || c.s.sqlMode()&sysvar.ModeErrorDivByZero == 0 {
		return nil
	}
	if c.strict {
		return sqlerr.New(sqlerr.ErDivisionByZero, "Division by 0")
	}
	c.s.warn(sqlerr.ErDivisionByZero, "Division by 0")
	return nil
}

// nullAsDefault is what non-strict mode does with a NULL for a NOT NULL
// column in an UPDATE or a multi-row INSERT (a single-row INSERT is error
// 1048 in every mode, as in MariaDB, unless IGNORE): the type's implicit
// default, with warning 1048.
func (s *Session) nullAsDefault(col *storage.Column) (types.Value, bool) {
	if !(s.multiRowWrite || s.ignoreErrors) || s.strictWrites() {
		return types.Null, false
	}
	d, ok := types.ImplicitDefault(col.Type)
	if ok {
		s.warn(sqlerr.ErBadNull, "Column '%s' cannot be null", col.Name)
	}
	return d, ok
}

// strictWrites reports whether the running INSERT or UPDATE converts
// values strictly: strict mode on, and no IGNORE (which turns conversion
// errors into warnings, as in MySQL).
func (s *Session) strictWrites() bool { return s.sqlMode().Strict() && !s.ignoreErrors }

// skipDuplicate is UPDATE IGNORE's answer to a row whose new values
// collide with another's key: the row is left as it was, without a
// warning, as in MariaDB 10.11 (MySQL warns 1062).
func (s *Session) skipDuplicate(err error) bool {
	e, ok := sqlerr.As(err)
	return ok && s.ignoreErrors && e.Code == sqlerr.ErDupEntry
}
