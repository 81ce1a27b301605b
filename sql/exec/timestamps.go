package exec

import (
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

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
