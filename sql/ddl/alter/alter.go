package alter

import (
	"context"
	"fmt"
	"strings"

	"github.com/plrun/plrun/procs"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// alterTable runs ALTER TABLE: its specs make a new definition (alterPlan),
// then the table is rebuilt online (rebuildOnline) and switched in one
// alter_table record. A rename alone is RENAME TABLE's record; DISABLE /
// ENABLE KEYS alone only notes that InnoDB has no such option. A temporary
// table is changed in its session instead (temporary.go).
func alterTable(ctx context.Context, s *exec.State, txns *txn.Manager, pc *procs.Catalog, x *ast.AlterTableStmt) (*exec.Result, error) {
	if err := refuseRedefinedReferences(x); err != nil {
		return nil, err
	}
	t, err := s.ResolveTable(x.Table)
	if err != nil {
		return nil, err
	}
	p := newAlterPlan(s, t)
	p.pc = pc
	for _, sp := range x.Specs {
		if err := p.apply(sp); err != nil {
			return nil, err
		}
	}
	if t.Def.Temporary && !p.rebuild {
		if p.renameTo == nil {
			return &exec.Result{}, nil
		}
		return renameTemporary(s, txns.Catalog(), t, p.renameTo)
	}
	if !p.rebuild {
		if p.renameTo == nil {
			return &exec.Result{}, nil
		}
		to, err := s.DBFor(p.renameTo.Schema.O)
		if err != nil {
			return nil, err
		}
		return renameTables(ctx, s, txns, pc, []storage.Rename{{
			From: storage.TableRef{DB: t.Def.DB, Name: t.Def.Name},
			To:   storage.TableRef{DB: to, Name: p.renameTo.Name.O},
		}})
	}
	if p.renameTo != nil && pc != nil && !t.Def.Temporary && pc.HasTriggers(t.Def.DB, t.Def.Name) {
		if to, err := s.DBFor(p.renameTo.Schema.O); err == nil && !strings.EqualFold(to, t.Def.DB) {
			return nil, sqlerr.New(sqlerr.ErTrgInWrongSchema, "Trigger in wrong schema")
		}
	}
	return rebuildOnline(ctx, s, txns, p)
}

// rebuildOnline builds the new table from a snapshot of the old one while
// its writers go on, then closes the old table's write gate (waiting for
// the transactions that wrote it, bounded by innodb_lock_wait_timeout),
// copies what changed meanwhile, checks UNIQUE keys, and switches the
// tables in one logged step. Readers of the old table are never stopped;
// writers of other tables wait only for the switch's moment under the
// commit latch.
func rebuildOnline(ctx context.Context, s *exec.State, txns *txn.Manager, p *alterPlan) (*exec.Result, error) {
	if p.old.Def.Temporary {
		return rebuildTemporary(ctx, s, txns, p)
	}
	cat := txns.Catalog()
	old := p.old
	def, shape, err := p.newDefinition(cat)
	if err != nil {
		return nil, err
	}
	p.rebuilds = p.rebuilds || rebuildsClustered(old.Def, def, shape)
	if err := p.checkAlgorithm(); err != nil {
		return nil, err
	}
	if err := checkTarget(cat, old, def); err != nil {
		return nil, err
	}
	if storage.SameLayout(old.Def, def) && p.copyWhy == "" && sameSources(shape) {
		return redefine(ctx, s, txns, p, def, shape)
	}
	def.ID = cat.AllocTableID()
	since := txns.AcquireSnapshot()
	defer txns.ReleaseSnapshot(since)
	b := storage.NewRebuild(old, def, shape, since)
	defer b.Close()
	b.Report = conversionReport(s, old.Def, def)
	if err := b.Copy(); err != nil {
		return nil, err
	}
	gate, err := txns.LockTables(ctx, p.gateIDs(cat)...)
	if err != nil {
		return nil, err
	}
	defer gate.Unlock()
	if old.Dropped() {
		return nil, txn.ErrTableChanged // another schema change got there first: run again
	}
	// Every commit to the old table is installed (its writers have left
	// the gate); once durable, none of its versions can be undone by a
	// crash, so the new table never holds what the log might lose.
	if err := txns.WaitAllDurable(ctx); err != nil {
		return nil, err
	}
	if err := b.CatchUp(); err != nil {
		return nil, err
	}
	b.Finish()
	if idx, vals, dup := b.Duplicate(); dup {
		return nil, dupEntry(def, idx, vals)
	}
	if err := p.checkRows(ctx, cat, b.New); err != nil {
		return nil, err
	}
	auto := b.SetAutoIncFrom(p.autoIncStart())
	rec := &txn.DDLRecord{Op: "alter_table", DB: old.Def.DB, Name: old.Def.Name, Def: def, Shape: shape, AutoInc: auto}
	err = txns.LogDDL(ctx, rec, func() error {
		b.Publish(txns.DDLLSN())
		if !cat.SwapAltered(old, b.New, shape) {
			return sqlerr.New(sqlerr.ErTableExists, "Table '%s' already exists", def.Name)
		}
		TriggersFollow(p.pc, rec)
		// Before the gate opens: a writer that waited at it re-plans
		// against the new table.
		s.SchemaChanged()
		return nil
	})
	if err != nil {
		return nil, err
	}
	res := &exec.Result{}
	records := 0
	if p.copyWhy != "" {
		records = b.Rows()
		res.AffectedRows = uint64(records)
	}
	res.Info = fmt.Sprintf("Records: %d  Duplicates: 0  Warnings: %d", records, s.StmtWarnings)
	return res, nil
}

// conversionReport is what a rebuild does with a value that does not fit
// its new column: an error in strict mode (or when nothing can stand in
// for it), else a warning and the adjusted value, as MariaDB's copy.
func conversionReport(s *exec.State, oldDef, def *storage.TableDef) func(int, storage.ConvertIssue) error {
	strict := s.SQLMode().Strict()
	return func(row int, c storage.ConvertIssue) error {
		e := convertError(oldDef, def, c, row, strict)
		if strict || c.Err != nil {
			return e
		}
		s.Warn(e.Code, "%s", e.Message)
		return nil
	}
}

// checkTarget refuses an ALTER TABLE ... RENAME onto another table or into
// a database that does not exist.
func checkTarget(cat *storage.Catalog, old *storage.Table, def *storage.TableDef) error {
	if !cat.HasDatabase(def.DB) {
		return sqlerr.New(sqlerr.ErBadDB, "Unknown database '%s'", def.DB)
	}
	def.DB = cat.DatabaseName(def.DB)
	if t := cat.Table(def.DB, def.Name); t != nil && t != old {
		if old.Dropped() {
			return txn.ErrTableChanged // another schema change replaced it: run again
		}
		return sqlerr.New(sqlerr.ErTableExists, "Table '%s' already exists", def.Name)
	}
	return nil
}

// convertError is MariaDB's error (strict mode) or warning for a value of
// row that did not fit its new column.
func convertError(oldDef, def *storage.TableDef, c storage.ConvertIssue, row int, strict bool) *sqlerr.Error {
	col := &def.Columns[c.Col]
	if c.Err != nil {
		if ce, ok := c.Err.(*types.CoerceError); ok {
			code := sqlerr.ErTruncatedWrongField
			if ce.What == "datetime" || ce.What == "date" || ce.What == "time" {
				code = sqlerr.ErTruncatedWrongValue
			}
			return sqlerr.New(code, "Incorrect %s value: '%s' for column `%s`.`%s`.`%s` at row %d", ce.What, ce.Value, oldDef.DB, oldDef.Name, col.Name, row)
		}
		return sqlerr.New(sqlerr.ErUnknown, "%v", c.Err)
	}
	switch {
	case c.Value.K == types.KindString && !c.Value.IsMember() && col.Type.IsNumeric() && c.Code != types.WarnOutOfRange:
		return sqlerr.New(sqlerr.ErTruncatedWrongValue, "Truncated incorrect %s value: '%s'", numberWord(col.Type), c.Value.S)
	case c.Code == types.WarnOutOfRange:
		return sqlerr.New(sqlerr.ErWarnDataOutOfRange, "Out of range value for column '%s' at row %d", col.Name, row)
	case strict && !c.Value.IsNull() && col.Type.IsString() && col.Type.Base != types.TEnum && col.Type.Base != types.TSet &&
		(c.Value.K != types.KindString || col.Type.Base == types.TChar || col.Type.IsBinary() || c.Value.P != 0):
		// MariaDB's words for a value cut to fit: 1406 into CHAR or a byte
		// string, or from a number, date, byte string, ENUM or SET; 1265
		// from a character string into VARCHAR or TEXT, and for anything
		// that is no member of a new ENUM or SET.
		return sqlerr.New(sqlerr.ErDataTooLong, "Data too long for column '%s' at row %d", col.Name, row)
	}
	return sqlerr.New(sqlerr.ErWarnDataTruncated, "Data truncated for column '%s' at row %d", col.Name, row)
}

// numberWord is the type's name in MariaDB's 1292 message.
func numberWord(t types.ColType) string {
	switch {
	case t.IsInteger():
		return "INTEGER"
	case t.Base == types.TDecimal:
		return "DECIMAL"
	}
	return "DOUBLE"
}

// dupEntry is 1062 for a key the rebuilt rows collide on.
func dupEntry(def *storage.TableDef, idx int, vals []types.Value) error {
	name, entry := def.KeyEntry(idx, vals)
	return sqlerr.New(sqlerr.ErDupEntry, "Duplicate entry '%s' for key '%s'", entry, name)
}

// sameSources reports a reshape that takes every column from the same
// place.
func sameSources(shape *storage.Reshape) bool {
	for i, src := range shape.Source {
		if src != i {
			return false
		}
	}
	return true
}

// redefine is a schema change that leaves every row as it is (a column or
// key renamed, a default or comment changed, AUTO_INCREMENT =, ENGINE =
// InnoDB): the table gets its new definition over the same rows, at once,
// as MariaDB's instant changes, with the write gate closed for the switch.
func redefine(ctx context.Context, s *exec.State, txns *txn.Manager, p *alterPlan, def *storage.TableDef, shape *storage.Reshape) (*exec.Result, error) {
	cat := txns.Catalog()
	old := p.old
	def.ID = old.Def.ID
	gate, err := txns.LockTables(ctx, p.gateIDs(cat)...)
	if err != nil {
		return nil, err
	}
	defer gate.Unlock()
	if old.Dropped() {
		return nil, txn.ErrTableChanged
	}
	auto := old.AutoInc()
	if p.autoInc > 0 {
		auto = p.autoInc - 1
		if ai := def.AutoIncColumn(); ai >= 0 {
			auto = max(auto, old.MaxValue(ai))
		}
	}
	rec := &txn.DDLRecord{Op: "alter_table", DB: old.Def.DB, Name: old.Def.Name, Def: def, Shape: shape, AutoInc: auto, Instant: true}
	err = txns.LogDDL(ctx, rec, func() error {
		nt := old.Redefined(def)
		nt.SetAutoInc(auto)
		if !cat.SwapAltered(old, nt, shape) {
			return sqlerr.New(sqlerr.ErTableExists, "Table '%s' already exists", def.Name)
		}
		TriggersFollow(p.pc, rec)
		s.SchemaChanged()
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &exec.Result{Info: fmt.Sprintf("Records: 0  Duplicates: 0  Warnings: %d", s.StmtWarnings)}, nil
}
