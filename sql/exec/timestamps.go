package exec

import (
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// storeTimestamp turns cv, the value given (v) converted to column c's
// type, into what the table stores: a TIMESTAMP is read in the session's
// time_zone and kept in the table's storage zone (storage/timestamps.go).
// Outside TIMESTAMP's range it is 1292, as in MariaDB's strict mode.
// MariaDB's non-strict mode stores the zero date with warning 1264;
// plrun cannot hold a zero date (sql/datetime), so it refuses the value
// with the same 1292 rather than store another.
func (s *State) storeTimestamp(def *storage.TableDef, c int, v, cv types.Value, rowNum int) (types.Value, error) {
	out, ok := s.StoredTimestamp(def, c, cv)
	if ok {
		return out, nil
	}
	col := &def.Columns[c]
	return v, sqlerr.New(sqlerr.ErTruncatedWrongValue, "Incorrect datetime value: '%s' for column `%s`.`%s`.`%s` at row %d", v.String(), def.DB, def.Name, col.Name, rowNum)
}

// sessionRow is row, as a table stores it, as the session reads it: its
// TIMESTAMPs in the session's time_zone (what triggers' OLD and NEW see).
// row itself is not changed.
func (s *State) sessionRow(def *storage.TableDef, row []types.Value) []types.Value {
	if row == nil || def.TimestampStore() == nil {
		return row
	}
	var out []types.Value
	for c := range def.Columns {
		if def.Columns[c].Type.Base != types.TTimestamp || c >= len(row) {
			continue
		}
		if out == nil {
			out = append([]types.Value(nil), row...)
		}
		out[c] = s.SessionTimestamp(def, c, row[c])
	}
	if out == nil {
		return row
	}
	return out
}

// StoreTimestampDefault turns the DEFAULT of col, a column of a table
// keeping its TIMESTAMPs in zone store, from the session's time_zone into
// the stored zone, as MariaDB fixes a TIMESTAMP default's instant when the
// table is created; 1067 when it is outside TIMESTAMP's range.
func (s *State) StoreTimestampDefault(def *storage.TableDef, col *storage.Column) error {
	store := def.TimestampStore()
	if col.Type.Base != types.TTimestamp || store == nil || !col.HasDefault || col.Default.K != types.KindTime {
		return nil
	}
	loc := s.Location()
	if !types.TimestampFits(col.Default, loc) {
		return sqlerr.New(sqlerr.ErInvalidDefault, "Invalid default value for '%s'", col.Name)
	}
	col.Default = types.ShiftZone(col.Default, loc, store)
	return nil
}

// StoreTimestampDefaults is StoreTimestampDefault for every column of a
// new table's def.
func (s *State) StoreTimestampDefaults(def *storage.TableDef) error {
	for c := range def.Columns {
		if err := s.StoreTimestampDefault(def, &def.Columns[c]); err != nil {
			return err
		}
	}
	return nil
}

// SessionDef is def as SHOW prints it to this session: its TIMESTAMP
// defaults in the session's time_zone. def itself when it has none.
func (s *State) SessionDef(def *storage.TableDef) *storage.TableDef {
	var out *storage.TableDef
	for c := range def.Columns {
		col := &def.Columns[c]
		if col.Type.Base != types.TTimestamp || !col.HasDefault || col.Default.K != types.KindTime {
			continue
		}
		if out == nil {
			cp := *def
			cp.Columns = append([]storage.Column(nil), def.Columns...)
			out = &cp
		}
		out.Columns[c].Default = s.SessionTimestamp(def, c, col.Default)
	}
	if out == nil {
		return def
	}
	return out
}

// touchOnUpdate sets the ON UPDATE CURRENT_TIMESTAMP columns of a changed
// row that the assignments do not set (ON DUPLICATE KEY UPDATE's row, as
// UPDATE's: MariaDB refreshes them whenever the row changes).
func (s *State) touchOnUpdate(def *storage.TableDef, nv []types.Value, assigns []assignment) {
	for c := range def.Columns {
		col := &def.Columns[c]
		if !col.OnUpdateNow || assigned(assigns, c) {
			continue
		}
		nv[c], _ = s.StoredTimestamp(def, c, types.TimeValue(col.Now(s.Now())))
	}
}

func assigned(assigns []assignment, c int) bool {
	for _, a := range assigns {
		if a.col == c {
			return true
		}
	}
	return false
}
