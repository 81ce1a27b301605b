package exec

import (
	"context"
	"strings"

	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// coerceColumn stores v into column c, turning a CoerceError into the
// MySQL error that names the column and row. Without strict mode a value
// that does not fit is adjusted with a warning instead (nonstrict.go).
func (s *State) coerceColumn(def *storage.TableDef, c int, v types.Value, rowNum int) (types.Value, error) {
	col := &def.Columns[c]
	if v.IsNull() {
		if col.NotNull {
			if d, ok := s.nullAsDefault(col); ok {
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
	if !s.strictWrites() {
		cv, err = s.coerceLoose(def, c, v, rowNum)
	} else {
		cv, err = s.coerceStrict(def, c, v, rowNum)
	}
	if err != nil {
		return cv, err
	}
	return s.storeTimestamp(def, c, v, cv, rowNum)
}

// coerceStrict is coerceColumn's conversion of a non-NULL value in strict
// mode: a value that does not fit is an error naming the column and row.
func (s *State) coerceStrict(def *storage.TableDef, c int, v types.Value, rowNum int) (types.Value, error) {
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

func dupError(t *storage.Table, idx int, vals []types.Value) error {
	var parts []string
	var name string
	if idx < 0 || idx >= len(t.Def.Indexes) {
		name = "PRIMARY"
		for _, c := range t.Def.PrimaryKey() {
			parts = append(parts, vals[c].String())
		}
	} else {
		ix := t.Def.Indexes[idx]
		name = ix.Name
		if ix.Primary {
			name = "PRIMARY"
		}
		for _, c := range ix.Cols {
			parts = append(parts, vals[c].String())
		}
	}
	return sqlerr.New(sqlerr.ErDupEntry, "Duplicate entry '%s' for key '%s'", strings.Join(parts, "-"), name)
}

// pkOf extracts the primary-key values of a full row.
func pkOf(def *storage.TableDef, vals []types.Value) []types.Value {
	pk := def.PrimaryKey()
	out := make([]types.Value, len(pk))
	for i, c := range pk {
		out[i] = vals[c]
	}
	return out
}

// checkUnique verifies vals collide with no other row on any UNIQUE
// index, locking each unique value so concurrent inserts serialize.
func checkUnique(ctx context.Context, x *txn.Txn, t *storage.Table, self *storage.Row, vals []types.Value, only func(idx int) bool) error {
	for i, ix := range t.Def.Indexes {
		if !ix.Unique || ix.Primary || (only != nil && !only(i)) {
			continue
		}
		key, ok := t.IndexKey(i, vals)
		if !ok {
			continue
		}
		if err := x.LockKey(ctx, txn.UniqueLockKey(t, i, key)); err != nil {
			return err
		}
		for _, r := range t.IndexCandidates(i, key) {
			if r == self {
				continue
			}
			v := x.Read(t, r)
			if v.Vals == nil {
				continue
			}
			if k, ok := t.IndexKey(i, v.Vals); ok && k == key {
				return dupError(t, i, vals)
			}
		}
	}
	return nil
}

func rowsEqual(a, b []types.Value) bool {
	for i := range a {
		if a[i].IsNull() != b[i].IsNull() {
			return false
		}
		if !a[i].IsNull() && (a[i].K != b[i].K || types.Compare(a[i], b[i]) != 0 || a[i].String() != b[i].String()) {
			return false
		}
	}
	return true
}
