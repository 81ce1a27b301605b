package parse

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// TableRef is one use of a table by a statement: the table, the name the
// statement calls it by (its alias, or empty), and whether the statement
// writes it. LOCK TABLES and FLUSH TABLES WITH READ LOCK are checked
// against these (sql/tablelocks.go). Schema is empty for the session's
// database.
type TableRef struct {
	Schema, Name, Alias string
	Write               bool
	tn                  *ast.TableName
}

// UseName is the name LOCK TABLES must have locked the table under.
func (r TableRef) UseName() string {
	if r.Alias != "" {
		return r.Alias
	}
	return r.Name
}

// TableRefs lists the tables the statement reads and writes, once per use
// (a self-join names the table twice). Computed once per parse; the
// statement's AST is never changed by it.
func (p *Stmt) TableRefs() []TableRef {
	p.refsOnce.Do(func() {
		if p.Node != nil {
			p.refs = tableRefsOf(p.Node)
		}
	})
	return p.refs
}

// IsWrite reports whether the statement changes data or schema: what a
// global read lock (FLUSH TABLES WITH READ LOCK) holds back.
func (p *Stmt) IsWrite() bool {
	switch p.Node.(type) {
	case *ast.InsertStmt, *ast.UpdateStmt, *ast.DeleteStmt, *ast.LoadDataStmt:
		return true
	case ast.DDLNode:
		_, lock := p.Node.(*ast.LockTablesStmt)
		_, unlock := p.Node.(*ast.UnlockTablesStmt)
		return !lock && !unlock
	}
	return p.Kind == KindCreateProc || p.Kind == KindDropProc || p.Kind == KindCreateFunc || p.Kind == KindDropFunc
}

type refCollector struct {
	refs []TableRef
	ctes map[string]bool
}

func (c *refCollector) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.WithClause:
		for _, cte := range x.CTEs {
			if c.ctes == nil {
				c.ctes = map[string]bool{}
			}
			c.ctes[strings.ToLower(cte.Name.L)] = true
		}
	case *ast.TableSource:
		if tn, ok := x.Source.(*ast.TableName); ok {
			c.add(tn, x.AsName.O)
			return n, true
		}
	case *ast.TableName:
		c.add(x, "")
		return n, true
	}
	return n, false
}

func (c *refCollector) Leave(n ast.Node) (ast.Node, bool) { return n, true }

func (c *refCollector) add(tn *ast.TableName, alias string) {
	if tn.Schema.O == "" && c.ctes[tn.Name.L] {
		return // a common table expression, not a table
	}
	switch tn.Schema.L {
	case "information_schema", "performance_schema":
		return // system views need no lock, as in MySQL
	}
	c.refs = append(c.refs, TableRef{Schema: tn.Schema.O, Name: tn.Name.O, Alias: alias, tn: tn})
}

func (c *refCollector) walk(nodes ...ast.Node) {
	for _, n := range nodes {
		if n != nil {
			n.Accept(c)
		}
	}
}

// markWrite marks the uses of target as written.
func (c *refCollector) markWrite(target *ast.TableName) {
	for i := range c.refs {
		if c.refs[i].tn == target {
			c.refs[i].Write = true
		}
	}
}

// drop forgets the uses of target.
func (c *refCollector) drop(target *ast.TableName) {
	kept := c.refs[:0]
	for _, r := range c.refs {
		if r.tn != target {
			kept = append(kept, r)
		}
	}
	c.refs = kept
}

// markWriteNamed marks the uses called name (alias or table name; an
// empty name marks them all) as written.
func (c *refCollector) markWriteNamed(name string) {
	for i := range c.refs {
		if name == "" || strings.EqualFold(c.refs[i].UseName(), name) {
			c.refs[i].Write = true
		}
	}
}

func tableRefsOf(n ast.StmtNode) []TableRef {
	c := &refCollector{}
	switch x := n.(type) {
	case *ast.InsertStmt:
		c.walk(x)
		if x.Table != nil && x.Table.TableRefs != nil {
			if ts, ok := x.Table.TableRefs.Left.(*ast.TableSource); ok {
				if tn, ok := ts.Source.(*ast.TableName); ok {
					c.markWrite(tn)
				}
			}
		}
	case *ast.UpdateStmt:
		c.walk(x)
		if !x.MultipleTable {
			if len(c.refs) > 0 {
				c.refs[0].Write = true
			}
			break
		}
		for _, a := range x.List {
			c.markWriteNamed(a.Column.Table.O)
		}
	case *ast.DeleteStmt:
		// The multi-table target list names tables of FROM: walk only
		// FROM and the conditions, so each use is counted once.
		if x.TableRefs != nil {
			c.walk(x.TableRefs)
		}
		c.walk(x.Where)
		if !x.IsMultiTable {
			if len(c.refs) > 0 {
				c.refs[0].Write = true
			}
			break
		}
		if x.Tables != nil {
			for _, t := range x.Tables.Tables {
				c.markWriteNamed(t.Name.O)
			}
		}
	case *ast.LoadDataStmt:
		c.walk(x)
		c.markWrite(x.Table)
	case *ast.CreateTableStmt:
		c.walk(x)
		if x.TemporaryKeyword != ast.TemporaryNone {
			c.drop(x.Table) // the session's own: no table lock covers it
		} else {
			c.markWrite(x.Table)
		}
	case *ast.DropTableStmt:
		if x.TemporaryKeyword != ast.TemporaryNone {
			return nil // DROP TEMPORARY TABLE names only the session's own
		}
		c.walk(x)
		c.markWriteNamed("")
	case *ast.TruncateTableStmt:
		c.walk(x)
		c.markWriteNamed("")
	case *ast.SelectStmt, *ast.SetOprStmt:
		c.walk(x)
	case *ast.AlterTableStmt:
		c.walk(x)
		for _, sp := range x.Specs {
			if sp.Tp == ast.AlterTableRenameTable && sp.NewTable != nil {
				// the new name is no use of a table: LOCK TABLES need not
				// have locked it (MariaDB renames a locked table)
				c.drop(sp.NewTable)
			}
		}
		c.markWriteNamed("")
	case ast.DDLNode:
		if _, ok := x.(*ast.LockTablesStmt); ok {
			return nil
		}
		c.walk(x)
		c.markWriteNamed("")
	default:
		return nil
	}
	return c.refs
}

// RefsOf lists the tables statement n reads and writes, as TableRefs
// does for a parsed statement (EXPLAIN's statement, a CREATE TABLE's
// SELECT): what sql/access checks privileges on.
func RefsOf(n ast.StmtNode) []TableRef { return tableRefsOf(n) }

// ReadRefsOf lists the tables the nodes name (a DO's subqueries, a
// CREATE VIEW's SELECT), none of them as written.
func ReadRefsOf(nodes ...ast.Node) []TableRef {
	c := &refCollector{}
	c.walk(nodes...)
	return c.refs
}
