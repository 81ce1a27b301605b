package alter

import (
	"context"
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
)

// A temporary table is the session's own (exec.State's, never the
// catalog's): ALTER TABLE, CREATE/DROP INDEX and RENAME TABLE of it change
// it there and nowhere else. No log record and no write gate: no other
// session can reach it, and an ALTER commits the session's transaction
// before it runs (as MariaDB's does), so every row is committed and
// nothing writes the table while it is copied. Like MariaDB, every change
// but a rename copies the rows (Records: N), and only ALGORITHM=INPLACE
// is refused.

// rebuildTemporary is rebuildOnline for a temporary table.
func rebuildTemporary(ctx context.Context, s *exec.State, txns *txn.Manager, p *alterPlan) (*exec.Result, error) {
	cat := txns.Catalog()
	old := p.old
	def, shape, err := p.newDefinition(cat)
	if err != nil {
		return nil, err
	}
	if p.algorithm == ast.AlgorithmTypeInplace {
		return nil, sqlerr.New(sqlerr.ErAlterOperationNotSup, "ALGORITHM=INPLACE is not supported for this operation. Try ALGORITHM=COPY")
	}
	if err := checkTempTarget(s, cat, old, def); err != nil {
		return nil, err
	}
	def.ID = cat.AllocTableID()
	b := storage.NewRebuild(old, def, shape, 0)
	defer b.Close()
	b.Report = conversionReport(s, old.Def, def)
	if err := b.Copy(); err != nil {
		return nil, err
	}
	b.Finish()
	if idx, vals, dup := b.Duplicate(); dup {
		return nil, dupEntry(def, idx, vals)
	}
	if err := p.checkRows(ctx, cat, b.New); err != nil {
		return nil, err
	}
	b.SetAutoIncFrom(p.autoIncStart())
	if !s.SwapTempTable(old, b.New) {
		return nil, sqlerr.New(sqlerr.ErTableExists, "Table '%s' already exists", def.Name)
	}
	n := b.Rows()
	return &exec.Result{AffectedRows: uint64(n), Info: fmt.Sprintf("Records: %d  Duplicates: 0  Warnings: %d", n, s.StmtWarnings)}, nil
}

// checkTempTarget refuses a new name another of the session's temporary
// tables has (1050). A permanent table's name is free: the temporary
// table shadows it, as one created under that name would.
func checkTempTarget(s *exec.State, cat *storage.Catalog, old *storage.Table, def *storage.TableDef) error {
	def.DB = cat.DatabaseName(def.DB)
	if t := s.TempTable(def.DB, def.Name); t != nil && t != old {
		return sqlerr.New(sqlerr.ErTableExists, "Table '%s' already exists", def.Name)
	}
	return nil
}

// renameTemporary is ALTER TABLE ... RENAME (and nothing else) of a
// temporary table: its rows under the new name.
func renameTemporary(s *exec.State, cat *storage.Catalog, t *storage.Table, to *ast.TableName) (*exec.Result, error) {
	db, err := s.DBFor(to.Schema.O)
	if err != nil {
		return nil, err
	}
	def := *t.Def
	def.DB, def.Name = db, to.Name.O
	if err := checkTempTarget(s, cat, t, &def); err != nil {
		return nil, err
	}
	if !s.SwapTempTable(t, t.Redefined(&def)) {
		return nil, sqlerr.New(sqlerr.ErTableExists, "Table '%s' already exists", def.Name)
	}
	return &exec.Result{}, nil
}

// renameTemporaries runs RENAME TABLE when its steps rename the session's
// temporary tables (temporary reports so): every step or none, each
// seeing the names the steps before it left. A statement that renames
// both temporary and permanent tables is refused (1235): its steps could
// not be one log record and all-or-nothing at once.
func renameTemporaries(s *exec.State, cat *storage.Catalog, steps []storage.Rename) (temporary bool, err error) {
	key := func(r storage.TableRef) string { return strings.ToLower(r.DB) + "\x00" + strings.ToLower(r.Name) }
	moved := map[string]*storage.Table{} // the names as the steps so far leave them (nil: gone)
	find := func(r storage.TableRef) *storage.Table {
		if t, ok := moved[key(r)]; ok {
			return t
		}
		return s.TempTable(r.DB, r.Name)
	}
	temps := 0
	for _, st := range steps {
		t := find(st.From)
		if t == nil {
			continue
		}
		temps++
		if find(st.To) != nil {
			return true, sqlerr.New(sqlerr.ErTableExists, "Table '%s' already exists", st.To.Name)
		}
		moved[key(st.From)], moved[key(st.To)] = nil, t
	}
	if temps == 0 {
		return false, nil
	}
	if temps < len(steps) {
		return true, notYet("RENAME TABLE of temporary and permanent tables in one statement")
	}
	for _, st := range steps {
		t := s.TempTable(st.From.DB, st.From.Name)
		def := *t.Def
		def.DB, def.Name = cat.DatabaseName(st.To.DB), st.To.Name
		if !s.SwapTempTable(t, t.Redefined(&def)) {
			return true, sqlerr.New(sqlerr.ErTableExists, "Table '%s' already exists", st.To.Name) // checked above
		}
	}
	return true, nil
}
