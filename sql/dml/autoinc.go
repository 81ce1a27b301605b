package dml

import (
	"math"

	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// givenAutoID is the AUTO_INCREMENT column's value of a filled row, or 0.
func givenAutoID(def *storage.TableDef, vals []types.Value) uint64 {
	for c := range def.Columns {
		if def.Columns[c].AutoIncrement && !vals[c].IsNull() {
			if vals[c].K == types.KindUint {
				return vals[c].Uint()
			}
			if n, ok := vals[c].ToInt64(); ok && n > 0 {
				return uint64(n)
			}
		}
	}
	return 0
}

// fillRow applies defaults and AUTO_INCREMENT and coerces every column.
// It returns the generated AUTO_INCREMENT value, if one was generated.
func (s *Session) fillRow(t *storage.Table, vals []types.Value, given []bool, rowNum int) (uint64, error) {
	def := t.Def
	var gen uint64
	autoCol := -1
	// Defaults first: a NOT NULL column left out is reported (1364) before
	// any value that does not fit, as MariaDB does.
	for c := range def.Columns {
		col := &def.Columns[c]
		if given[c] || col.AutoIncrement {
			continue
		}
		switch {
		case col.DefaultNow:
			vals[c] = types.TimeValue(col.Now(s.Now()))
		case col.HasDefault:
			vals[c] = s.SessionTimestamp(def, c, col.Default) // coerced back below
		case col.NotNull && col.Type.Base == types.TEnum:
			// a NOT NULL ENUM's default is its first member, in every mode
			vals[c], _ = types.ImplicitDefault(col.Type)
		case col.NotNull:
			d, ok := types.ImplicitDefault(col.Type)
			if !ok || s.strictWrites() {
				return 0, sqlerr.New(sqlerr.ErNoDefaultForField, "Field '%s' doesn't have a default value", col.Name)
			}
			// non-strict: the type's implicit default, with a warning
			s.Warn(sqlerr.ErNoDefaultForField, "Field '%s' doesn't have a default value", col.Name)
			vals[c] = d
		default:
			vals[c] = types.Null
		}
	}
	for c := range def.Columns {
		col := &def.Columns[c]
		if col.AutoIncrement {
			v := vals[c]
			zero := !given[c] || v.IsNull()
			if !zero && s.SQLMode()&sysvar.ModeNoAutoValueOnZero == 0 {
				// 0 generates a value too, unless NO_AUTO_VALUE_ON_ZERO
				if n, ok := v.ToInt64(); ok && n == 0 && v.K != types.KindString {
					zero = true
				}
			}
			if zero {
				// Generated after every other column is checked, so a
				// row that fails (1048, 1406 ...) consumes no value.
				autoCol = c
				continue
			}
		}
		v, err := s.coerceColumn(def, c, vals[c], rowNum)
		if err != nil {
			return 0, err
		}
		vals[c] = v
		if col.AutoIncrement && !v.IsNull() {
			if v.K == types.KindUint {
				t.SeenAutoInc(v.Uint()) // a BIGINT UNSIGNED past 2^63 too
			} else if n, ok := v.ToInt64(); ok && n > 0 {
				t.SeenAutoInc(uint64(n))
			}
		}
	}
	if autoCol >= 0 {
		if t.AutoInc() == math.MaxUint64 {
			return 0, sqlerr.New(sqlerr.ErAutoincReadFailed, "Failed to read auto-increment value from storage engine")
		}
		gen = t.NextAutoInc()
		v, err := s.coerceColumn(def, autoCol, types.UintValue(gen), rowNum)
		if e, ok := sqlerr.As(err); ok && e.Code == sqlerr.ErWarnDataOutOfRange {
			// The counter is past the column's range: MariaDB's 167.
			return 0, sqlerr.New(sqlerr.ErAutoincRange, "%s", e.Message)
		}
		if err != nil {
			return 0, err
		}
		vals[autoCol] = v
	}
	return gen, nil
}
