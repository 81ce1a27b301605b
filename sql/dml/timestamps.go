package dml

import (
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// sessionRow is row, as a table stores it, as the session reads it: its
// TIMESTAMPs in the session's time_zone (what triggers' OLD and NEW see).
// row itself is not changed.
func (s *Session) sessionRow(def *storage.TableDef, row []types.Value) []types.Value {
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

// touchOnUpdate sets the ON UPDATE CURRENT_TIMESTAMP columns of a changed
// row that the assignments do not set (ON DUPLICATE KEY UPDATE's row, as
// UPDATE's: MariaDB refreshes them whenever the row changes).
func (s *Session) touchOnUpdate(def *storage.TableDef, nv []types.Value, assigns []assignment) {
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
