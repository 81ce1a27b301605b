package alter

import (
	"context"
	"github.com/plrun/plrun/procs"
	"slices"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
)

// renameStmt runs RENAME TABLE a TO b [, c TO d]: every step or none, in
// one rename_tables record.
func renameStmt(ctx context.Context, s *exec.State, txns *txn.Manager, pc *procs.Catalog, x *ast.RenameTableStmt) (*exec.Result, error) {
	var steps []storage.Rename
	for _, tt := range x.TableToTables {
		from, err := s.DBFor(tt.OldTable.Schema.O)
		if err != nil {
			return nil, err
		}
		to, err := s.DBFor(tt.NewTable.Schema.O)
		if err != nil {
			return nil, err
		}
		steps = append(steps, storage.Rename{
			From: storage.TableRef{DB: from, Name: tt.OldTable.Name.O},
			To:   storage.TableRef{DB: to, Name: tt.NewTable.Name.O},
		})
	}
	return renameTables(ctx, s, txns, pc, steps)
}

// renameTables checks the steps, closes the write gates of the tables they
// rename (a writer waits for the switch, then re-plans against the new
// name), and renames them all in one catalog step. A renamed table keeps
// its rows and id, so nothing is copied.
func renameTables(ctx context.Context, s *exec.State, txns *txn.Manager, pc *procs.Catalog, steps []storage.Rename) (*exec.Result, error) {
	if temporary, err := renameTemporaries(s, txns.Catalog(), steps); temporary || err != nil {
		return &exec.Result{}, err
	}
	cat := txns.Catalog()
	if err := renameError(cat, steps); err != nil {
		return nil, err
	}
	for _, st := range steps {
		// a table's triggers live in its database: MariaDB refuses to
		// move a table that has any to another one
		if pc != nil && !strings.EqualFold(st.From.DB, st.To.DB) && pc.HasTriggers(st.From.DB, st.From.Name) {
			return nil, sqlerr.New(sqlerr.ErTrgInWrongSchema, "Trigger in wrong schema")
		}
	}
	var ids []uint64
	for _, st := range steps {
		if t := cat.Table(st.From.DB, st.From.Name); t != nil {
			ids = append(ids, t.Def.ID)
			// the children's keys are repointed in the same step
			for _, ch := range cat.ReferencingFKs(t.Def.DB, t.Def.Name) {
				if !slices.Contains(ids, ch.Child.Def.ID) {
					ids = append(ids, ch.Child.Def.ID)
				}
			}
		}
	}
	gate, err := txns.LockTables(ctx, ids...)
	if err != nil {
		return nil, err
	}
	defer gate.Unlock()
	if err := renameError(cat, steps); err != nil {
		return nil, err // another DDL got there while the gates closed
	}
	rec := &txn.DDLRecord{Op: "rename_tables", Renames: steps}
	err = txns.LogDDL(ctx, rec, func() error {
		if f := cat.RenameTables(steps, false); f != nil {
			return renameFailure(steps, f)
		}
		TriggersFollow(pc, rec)
		s.SchemaChanged()
		return nil
	})
	return &exec.Result{}, err
}

func renameError(cat *storage.Catalog, steps []storage.Rename) error {
	if f := cat.RenameTables(steps, true); f != nil {
		return renameFailure(steps, f)
	}
	return nil
}

func renameFailure(steps []storage.Rename, f *storage.RenameFailure) error {
	st := steps[f.At]
	if f.Missing {
		return sqlerr.New(sqlerr.ErNoSuchTable, "Table '%s.%s' doesn't exist", st.From.DB, st.From.Name)
	}
	return sqlerr.New(sqlerr.ErTableExists, "Table '%s' already exists", st.To.Name)
}
