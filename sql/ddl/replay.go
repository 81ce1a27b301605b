package ddl

import (
	"encoding/json"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/ddl/alter"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
)

// Apply applies a DDL record to the catalogs: tables through txn,
// procedures here. Recovery replays the log with it; DDL statements apply
// their own record with it, so the two cannot differ.
func Apply(cat *storage.Catalog, pc *procs.Catalog, d *txn.DDLRecord) { _ = ApplyAt(cat, pc, d, 0) }

// ApplyAt is Apply of a record logged at lsn, which create_table_rows
// needs (its rows are installed at it). Its error is create_table_rows'
// (the statement failed the same way) or, as a *storage.StoreError, a
// failure to read or write the table store replaying an ALTER TABLE
// (txn.ApplyDDL): recovery must stop there.
func ApplyAt(cat *storage.Catalog, pc *procs.Catalog, d *txn.DDLRecord, lsn uint64) error {
	switch d.Op {
	case "create_table_rows":
		return txn.ApplyDDLAt(cat, d, lsn)
	case "create_proc":
		var def procs.Definition
		if json.Unmarshal(d.Proc, &def) == nil {
			_ = pc.CreateIn(d.DB, &def, true)
		}
	case "drop_proc":
		_ = pc.Drop(d.DB, d.Name, true)
	case "create_func":
		var def procs.Definition
		if json.Unmarshal(d.Proc, &def) == nil && def.Func != nil {
			_ = pc.CreateFunctionIn(d.DB, &def, true)
		}
	case "drop_func":
		_ = pc.DropFunction(d.DB, d.Name, true)
	case "create_trigger":
		var t procs.Trigger
		if json.Unmarshal(d.Proc, &t) == nil {
			_ = pc.CreateTrigger(&t, true)
		}
	case "drop_trigger":
		_ = pc.DropTrigger(d.DB, d.Name, true)
	case "drop_db":
		_ = txn.ApplyDDL(cat, d) // (never fails: only alter_table can)
		pc.DropDatabaseTriggers(d.DB)
		for _, p := range pc.ListIn(d.DB) {
			_ = pc.Drop(d.DB, p.Name, true)
		}
		for _, f := range pc.ListFunctionsIn(d.DB) {
			_ = pc.DropFunction(d.DB, f.Name, true)
		}
	default:
		if err := txn.ApplyDDL(cat, d); err != nil {
			return err
		}
		alter.TriggersFollow(pc, d)
	}
	return nil
}
