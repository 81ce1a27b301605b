package alter

import (
	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/txn"
)

// TriggersFollow keeps a table's triggers with it after d is applied: a
// dropped table's go, a renamed table's move with it. DDL statements call
// it inside their log record's apply and replay calls it for the same
// record, so both leave the same triggers.
func TriggersFollow(pc *procs.Catalog, d *txn.DDLRecord) {
	if pc == nil {
		return
	}
	switch d.Op {
	case "drop_table":
		pc.DropTableTriggers(d.DB, d.Name)
	case "drop_tables":
		for _, t := range d.Tables {
			pc.DropTableTriggers(t.DB, t.Name)
		}
	case "rename_tables":
		for _, r := range d.Renames {
			pc.RenameTableTriggers(r.From.DB, r.From.Name, r.To.DB, r.To.Name)
		}
	case "alter_table":
		if d.Def != nil && (d.Def.DB != d.DB || d.Def.Name != d.Name) {
			pc.RenameTableTriggers(d.DB, d.Name, d.Def.DB, d.Def.Name)
		}
	}
}
