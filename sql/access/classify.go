package access

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/privilege"
)

// unknown is the need of a statement kind not classified here.
var unknown = []Need{{Scope: Unknown}}

// none is the need of a statement anyone may run (BEGIN, SET of a session
// variable): empty, not nil, so a test can tell it from a missing case.
var none = []Need{}

// needsOf classifies p: the parse kinds plrun scans itself first, then
// the TiDB parser's statement nodes.
func needsOf(p *parse.Stmt) []Need {
	if p.Kind != parse.KindAST {
		return kindNeeds(p)
	}
	if p.Node == nil {
		return unknown
	}
	out := nodeNeeds(p.Node)
	if sel, ok := p.Node.(*ast.SelectStmt); ok && sel != nil && p.Into != nil {
		// SELECT ... INTO OUTFILE / DUMPFILE writes a server file
		out = append(out, Need{Priv: privilege.File, Scope: Global})
	}
	return out
}

// nodeNeeds classifies one statement node (EXPLAIN's inner one too).
func nodeNeeds(n ast.StmtNode) []Need {
	switch x := n.(type) {
	case *ast.SelectStmt, *ast.SetOprStmt:
		return onRefs(none, parse.RefsOf(n), privilege.Select, privilege.Select)
	case *ast.InsertStmt:
		return insertNeeds(x)
	case *ast.UpdateStmt:
		return updateNeeds(x)
	case *ast.DeleteStmt:
		return deleteNeeds(x)
	case *ast.LoadDataStmt:
		return loadNeeds(x)
	case *ast.BeginStmt, *ast.CommitStmt, *ast.RollbackStmt, *ast.SavepointStmt, *ast.ReleaseSavepointStmt,
		*ast.UnlockTablesStmt:
		return none
	case *ast.SetStmt:
		return setNeeds(x)
	case *ast.UseStmt:
		return []Need{{Scope: AnyInDatabase, DB: x.DBName}}
	case *ast.ShowStmt:
		return showNeeds(x)
	case *ast.ExplainStmt:
		if x.Stmt == nil {
			return unknown
		}
		return nodeNeeds(x.Stmt)
	case *ast.DoStmt:
		var out []Need
		for _, e := range x.Exprs {
			if e != nil {
				out = onRefs(out, parse.ReadRefsOf(e), 0, privilege.Select)
			}
		}
		if out == nil {
			return none
		}
		return out
	case *ast.CallStmt:
		if x.Procedure == nil {
			return unknown
		}
		return []Need{{Priv: privilege.Execute, Scope: OnRoutine, DB: x.Procedure.Schema.O, Name: x.Procedure.FnName.O, Verb: "execute"}}
	case *ast.KillStmt:
		return none // another account's session needs SUPER: decided at the KILL (KillOwner)
	case *ast.FlushStmt:
		return []Need{{Priv: privilege.Reload, Scope: Global}}
	case *ast.AnalyzeTableStmt:
		var out []Need
		for _, t := range x.TableNames {
			out = append(out, Need{Priv: privilege.Select | privilege.Insert, Scope: OnTable, DB: t.Schema.O, Name: t.Name.O})
		}
		return out
	case *ast.ShutdownStmt:
		return []Need{{Priv: privilege.Shutdown, Scope: Global}}
	}
	if out, ok := ddlNeeds(n); ok {
		return out
	}
	if out, ok := accountNeeds(n); ok {
		return out
	}
	return unknown
}

// insertNeeds: INSERT on the target (REPLACE also DELETE, ON DUPLICATE
// KEY UPDATE also UPDATE), SELECT on what its SELECT reads, and SELECT
// on the target for a column the update reads (1143, as MariaDB).
func insertNeeds(x *ast.InsertStmt) []Need {
	write := privilege.Insert
	if x.IsReplace {
		write |= privilege.Delete
	}
	if len(x.OnDuplicate) > 0 {
		write |= privilege.Update
	}
	refs := parse.RefsOf(x)
	out := onRefs(nil, refs, write, privilege.Select)
	if len(x.OnDuplicate) > 0 {
		for _, r := range refs {
			if !r.Write {
				continue
			}
			out = readsColumn(out, r, assignedExprs(x.OnDuplicate)...)
		}
	}
	return out
}

// updateNeeds: UPDATE on the tables it writes, SELECT on those it only
// reads, and, for a single-table UPDATE, SELECT on the target when its
// SET values, WHERE or ORDER BY read a column (1143).
func updateNeeds(x *ast.UpdateStmt) []Need {
	refs := parse.RefsOf(x)
	joined := x.TableRefs != nil && x.TableRefs.TableRefs != nil && x.TableRefs.TableRefs.Right != nil
	if x.MultipleTable || joined {
		return readsFirst(nil, refs, privilege.Update, privilege.Select)
	}
	out := onRefs(nil, refs, privilege.Update, privilege.Select)
	if len(refs) == 0 {
		return out
	}
	return readsColumn(out, refs[0], append(assignedExprs(x.List), whereOrder(x.Where, x.Order)...)...)
}

// deleteNeeds: DELETE on the tables it deletes from, SELECT on those it
// only reads, and SELECT on a single-table DELETE's target when its WHERE
// or ORDER BY reads a column (1143).
func deleteNeeds(x *ast.DeleteStmt) []Need {
	refs := parse.RefsOf(x)
	if x.IsMultiTable {
		return readsFirst(nil, refs, privilege.Delete, privilege.Select)
	}
	out := onRefs(nil, refs, privilege.Delete, privilege.Select)
	if len(refs) == 0 {
		return out
	}
	return readsColumn(out, refs[0], whereOrder(x.Where, x.Order)...)
}

// loadNeeds: INSERT on the table (REPLACE also DELETE); a server file
// (not LOCAL) also needs FILE, denied as MariaDB does (1045).
func loadNeeds(x *ast.LoadDataStmt) []Need {
	if x.Table == nil {
		return unknown
	}
	write := privilege.Insert
	if x.OnDuplicate == ast.OnDuplicateKeyHandlingReplace {
		write |= privilege.Delete
	}
	var out []Need
	if x.FileLocRef != ast.FileLocClient {
		out = append(out, Need{Priv: privilege.File, Scope: OnServer})
	}
	return append(out, Need{Priv: write, Scope: OnTable, DB: x.Table.Schema.O, Name: x.Table.Name.O})
}

// columnFinder finds the first column a node names.
type columnFinder struct{ name string }

func (c *columnFinder) Enter(n ast.Node) (ast.Node, bool) {
	if c.name != "" {
		return n, true
	}
	switch x := n.(type) {
	case *ast.ColumnNameExpr:
		if x.Name != nil {
			c.name = x.Name.Name.O
		}
		return n, true
	case *ast.SubqueryExpr:
		return n, true // a subquery's columns are its own tables'
	}
	return n, false
}

func (c *columnFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// readsColumn appends SELECT on r's column that the first of nodes reads,
// if any: MariaDB's 1143 for a statement that reads its target's columns.
func readsColumn(out []Need, r parse.TableRef, nodes ...ast.Node) []Need {
	if col := firstColumn(nodes...); col != "" {
		out = append(out, Need{Priv: privilege.Select, Scope: OnColumn, DB: r.Schema, Name: r.Name, Column: col})
	}
	return out
}

// assignedExprs are the values of SET col = expr assignments.
func assignedExprs(list []*ast.Assignment) []ast.Node {
	nodes := make([]ast.Node, 0, len(list)+2)
	for _, a := range list {
		if a.Expr != nil {
			nodes = append(nodes, a.Expr)
		}
	}
	return nodes
}

// whereOrder are a WHERE and an ORDER BY that are there (a nil
// *OrderByClause must not become a non-nil ast.Node).
func whereOrder(where ast.ExprNode, order *ast.OrderByClause) []ast.Node {
	var nodes []ast.Node
	if where != nil {
		nodes = append(nodes, where)
	}
	if order != nil {
		nodes = append(nodes, order)
	}
	return nodes
}

// firstColumn is the first column the nodes read, "" if none.
func firstColumn(nodes ...ast.Node) string {
	c := &columnFinder{}
	for _, n := range nodes {
		if n != nil && c.name == "" {
			n.Accept(c)
		}
	}
	return c.name
}
