package ddl

import (
	"context"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/ddl/tabledef"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// CreateSelect is CREATE [TEMPORARY] TABLE t [(defs)] [IGNORE|REPLACE]
// [AS] SELECT ..., run in x (the session's transaction for TEMPORARY, a
// transaction of its own otherwise, begun after the implicit commit).
//
// The rows are written first into a private table nobody else can name
// (temporary, so its writes stay out of the log), with the keys, CHECKs
// and IGNORE/REPLACE of INSERT ... SELECT. Only when every row went in is
// the permanent table logged: one create_table_rows record holding its
// definition and those rows, applied under one commit-latch hold. A failure
// before it leaves no table and nothing in the log; a crash leaves the
// table with all of its rows or no table (see txn/ddlrows.go). A TEMPORARY
// table is never durable: it gets the rows the same way, with no record.
func CreateSelect(ctx context.Context, s *exec.State, txns *txn.Manager, x *txn.Txn, n *ast.CreateTableStmt, args []types.Value) (*exec.Result, error) {
	defer s.SchemaChanged()
	cat := txns.Catalog()
	temporary := n.TemporaryKeyword == ast.TemporaryLocal
	if n.TemporaryKeyword == ast.TemporaryGlobal {
		return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support CREATE GLOBAL TEMPORARY TABLE")
	}
	db, err := s.DBFor(n.Table.Schema.O)
	if err != nil {
		return nil, err
	}
	if !temporary && !cat.HasDatabase(db) {
		return nil, sqlerr.New(sqlerr.ErBadDB, "Unknown database '%s'", db)
	}
	db = cat.DatabaseName(db)
	name := n.Table.Name.O
	if (temporary && s.TempTable(db, name) != nil) || (!temporary && (cat.Table(db, name) != nil || cat.View(db, name) != nil)) {
		if n.IfNotExists {
			return exec.Noted("Note", sqlerr.ErTableExists, "Table '%s' already exists", name), nil
		}
		return nil, sqlerr.New(sqlerr.ErTableExists, "Table '%s' already exists", name)
	}
	// The SELECT (or UNION ..., WITH ...) is compiled before the new
	// table exists, so its names never resolve to it.
	src, err := s.BuildQuery(n.Select)
	if err != nil {
		return nil, err
	}
	var fields *ast.FieldList
	if sel, ok := n.Select.(*ast.SelectStmt); ok {
		fields = sel.Fields
	}
	selected, err := selectedColumns(s, cat, src.Columns(), fields)
	if err != nil {
		return nil, err
	}
	def, autoStart, err := tabledef.BuildTableDefWith(db, n, selected)
	if err != nil {
		return nil, err
	}
	if err := tabledef.BuildChecks(def, n, s.Functions()); err != nil {
		return nil, err
	}
	if err := tabledef.SubstituteEngine(s, def); err != nil {
		return nil, err
	}
	if err := tabledef.CheckForeignKeys(cat, def, s.ForeignKeyChecks()); err != nil {
		return nil, err
	}
	def.ID = cat.AllocTableID()
	cols := make([]int, len(src.Columns()))
	for i, c := range src.Columns() {
		cols[i] = def.ColumnIndex(c.Name)
	}
	ignore := n.OnDuplicate == ast.OnDuplicateKeyHandlingIgnore
	replace := n.OnDuplicate == ast.OnDuplicateKeyHandlingReplace
	private := *def
	private.Temporary = true // its writes stay out of the log
	t := storage.NewTable(&private)
	if autoStart > 1 {
		t.SetAutoInc(autoStart - 1)
	}
	mark := x.Mark()
	res, err := s.InsertSelect(ctx, x, t, cols, src, args, ignore, replace)
	var pks, rows [][]types.Value
	if err == nil {
		x.ScanEach(t, nil, nil, func(it storage.ScanItem) bool {
			if it.Vals != nil {
				pks, rows = append(pks, it.Row.PK), append(rows, it.Vals)
			}
			return true
		})
	}
	// The private table's writes are done with: only the rows go on.
	x.RollbackTo(mark)
	if err != nil {
		return nil, err
	}
	if temporary {
		// MariaDB's temporary table keeps these rows even if the
		// transaction it was created in rolls back.
		def.Temporary = true
		if _, err := createTemporary(s, def, autoStart, false); err != nil {
			return nil, err
		}
		installRows(s.TempTable(db, name), pks, rows)
		return res, nil
	}
	rec := &txn.DDLRecord{Op: "create_table_rows", DB: db, Name: def.Name, Def: def, Rows: txn.EncodeTableRows(pks, rows)}
	err = txns.LogDDLAt(ctx, rec, func(lsn uint64) error {
		if cat.Table(db, def.Name) != nil || cat.View(db, def.Name) != nil {
			// created meanwhile by another session; replay skips it too
			return sqlerr.New(sqlerr.ErTableExists, "Table '%s' already exists", def.Name)
		}
		if err := txn.ApplyDDLAt(cat, rec, lsn); err != nil {
			return err
		}
		if nt := cat.Table(db, def.Name); nt != nil && autoStart > 1 {
			nt.SeenAutoInc(autoStart - 1)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// installRows sets rows as committed (LSN 0: seen by every snapshot) in a
// new temporary table.
func installRows(t *storage.Table, pks, rows [][]types.Value) {
	ai := t.Def.AutoIncColumn()
	for i, vals := range rows {
		t.Apply(storage.KeyOf(pks[i]), pks[i], vals, 0)
		if ai >= 0 {
			if v, ok := vals[ai].ToInt64(); ok && v > 0 {
				t.SeenAutoInc(uint64(v))
			}
		}
	}
}

// selectedColumns are the columns a SELECT's result gives CREATE TABLE ...
// SELECT: its labels, result types and NULL-ability. A column read
// straight from a table keeps that column's definition (type, NOT NULL,
// DEFAULT, COMMENT) as MariaDB's does, except AUTO_INCREMENT, which becomes
// DEFAULT 0. Two of the same name are 1060, even where an explicit column
// has the name.
func selectedColumns(s *exec.State, cat *storage.Catalog, cols []exec.Column, fields *ast.FieldList) ([]storage.Column, error) {
	out := make([]storage.Column, len(cols))
	var exprs []ast.ExprNode // the select list's, when it has no *
	if fields != nil {
		for _, f := range fields.Fields {
			if f.WildCard != nil {
				exprs = nil
				break
			}
			exprs = append(exprs, f.Expr)
		}
	}
	if len(exprs) != len(cols) {
		exprs = nil
	}
	seen := map[string]bool{}
	for i, c := range cols {
		k := strings.ToLower(c.Name)
		if seen[k] {
			return nil, sqlerr.New(sqlerr.ErDupFieldName, "Duplicate column name '%s'", c.Name)
		}
		seen[k] = true
		out[i] = storage.Column{Name: c.Name, Type: c.Type, NotNull: c.NotNull}
		if exprs != nil {
			derive(&out[i], exprs[i])
		}
		if src := sourceColumn(s, cat, c); src != nil {
			col := *src
			col.Name, col.NotNull = c.Name, c.NotNull // the outer side of a LEFT JOIN is NULL-able
			if col.AutoIncrement {
				col.AutoIncrement = false
				col.HasDefault, col.Default = true, types.IntValue(0)
			}
			out[i] = col
		}
	}
	return out, nil
}

// sourceColumn is the table column a result column is, or nil.
func sourceColumn(s *exec.State, cat *storage.Catalog, c exec.Column) *storage.Column {
	if c.OrgName == "" || c.OrgTable == "" {
		return nil
	}
	t := s.TempTable(c.DB, c.OrgTable)
	if t == nil {
		t = cat.Table(c.DB, c.OrgTable)
	}
	if t == nil {
		return nil
	}
	i := t.Def.ColumnIndex(c.OrgName)
	if i < 0 || t.Def.Columns[i].Type != c.Type {
		return nil
	}
	return &t.Def.Columns[i]
}
