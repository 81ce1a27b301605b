package infoschema

import (
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// sessionDef is def with its TIMESTAMP defaults in the session's
// time_zone, as COLUMNS.COLUMN_DEFAULT shows them (a TIMESTAMP default is
// an instant, stored in the table's zone: storage/timestamps.go).
func sessionDef(src Source, def *storage.TableDef) *storage.TableDef {
	store := def.TimestampStore()
	if store == nil {
		return def
	}
	var out *storage.TableDef
	for c := range def.Columns {
		col := &def.Columns[c]
		if col.Type.Base != types.TTimestamp || !col.HasDefault || col.Default.K != types.KindTime {
			continue
		}
		loc, err := sysvar.ParseTimeZone(src.SysVar(sysvar.Defs["time_zone"], false))
		if err != nil {
			return def
		}
		if out == nil {
			cp := *def
			cp.Columns = append([]storage.Column(nil), def.Columns...)
			out = &cp
		}
		out.Columns[c].Default = types.ShiftZone(col.Default, store, loc)
	}
	if out == nil {
		return def
	}
	return out
}
