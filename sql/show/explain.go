package show

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/plan"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// explainRow is one line of EXPLAIN: a table as it is read, in order.
type explainRow struct {
	table, access  string
	possible       []string
	key            string
	keyCols        []int
	keyLen         int
	ref            []string
	rows           float64
	filtered       float64
	extra          []string
	def            *storage.TableDef
	noTable, where bool
}

// Explain describes how a statement finds its rows, as MariaDB's EXPLAIN
// prints it (tabular, or FORMAT=JSON).
func Explain(s *exec.State, n *ast.ExplainStmt) (*exec.Result, error) {
	if sh, ok := n.Stmt.(*ast.ShowStmt); ok && sh.Tp == ast.ShowColumns {
		t, err := s.ResolveTable(sh.Table)
		if err != nil {
			if vt, verr := s.ViewTable(sh.Table); verr != nil || vt != nil {
				t, err = vt, verr // a view's columns
			}
		}
		if err != nil {
			return nil, err
		}
		return describe(s.SessionDef(t.Def), func(string) bool { return true }), nil
	}
	format := strings.ToLower(n.Format)
	if format != "" && format != "row" && format != "traditional" && format != "json" {
		return nil, sqlerr.New(sqlerr.ErUnknown, "Unknown EXPLAIN format name: '%s'", n.Format)
	}
	var inner nested
	n.Stmt.Accept(&inner)
	if inner.found {
		// MariaDB gives each subquery, derived table and CTE rows of its
		// own (select_type SUBQUERY, DERIVED ...): not described yet.
		return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support EXPLAIN of subqueries, derived tables or WITH")
	}
	rows, err := explainRows(s, n.Stmt)
	if err != nil {
		return nil, err
	}
	if format == "json" {
		return explainJSON(rows)
	}
	return explainTable(rows), nil
}

func explainRows(s *exec.State, stmt ast.StmtNode) ([]explainRow, error) {
	var tn *ast.TableName
	var alias string
	var where ast.ExprNode
	var err error
	switch x := stmt.(type) {
	case *ast.SelectStmt:
		if x.Kind != ast.SelectStmtKindSelect {
			return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support EXPLAIN of this statement")
		}
		if plan.IsJoin(x.From) {
			sc := &expr.Scope{DB: s.DB, Funcs: s.Functions()}
			jp, err := plan.BuildJoin(sc, x.From, x.Where, s.ResolveSource)
			if err != nil {
				return nil, err
			}
			if x.SelectStmtOpts != nil && x.SelectStmtOpts.StraightJoin {
				jp.Straight()
			}
			rows := joinRows(jp)
			joinSort(sc, x, rows)
			return rows, nil
		}
		tn, alias, err = plan.SingleTable(x.From)
		where = x.Where
	case *ast.UpdateStmt:
		tn, alias, err = plan.SingleTable(x.TableRefs)
		where = x.Where
	case *ast.DeleteStmt:
		tn, alias, err = plan.SingleTable(x.TableRefs)
		where = x.Where
	default:
		return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support EXPLAIN of this statement")
	}
	if err != nil {
		return nil, err
	}
	if tn == nil {
		return []explainRow{{noTable: true, extra: []string{"No tables used"}}}, nil
	}
	t, err := s.ResolveTable(tn)
	if err != nil {
		return nil, err
	}
	a, err := plan.ChooseAccess(&expr.Scope{DB: s.DB, Funcs: s.Functions(), Table: t, Alias: alias}, t, where)
	if err != nil {
		return nil, err
	}
	sel, _ := stmt.(*ast.SelectStmt)
	served := sel != nil && serveOrder(t, sel, a)
	r := accessRow(t, alias, a)
	if served && r.access == "ALL" {
		// Read in the index's order, as many rows as the LIMIT asks.
		r.access, r.possible = "index", nil
		r.key, r.keyCols = a.OrderIndexName(), a.OrderIndexCols()
		r.rows = float64(limitRows(sel))
	}
	if sel != nil && !served {
		switch {
		case sel.GroupBy != nil:
			r.extra = append(r.extra, "Using temporary", "Using filesort")
		case sel.OrderBy != nil:
			r.extra = append(r.extra, "Using filesort")
		}
	}
	return []explainRow{r}, nil
}

// serveOrder asks the access path to read in the ORDER BY's order, as
// SELECT's own plan does (exec.serveOrderByIndex).
func serveOrder(t *storage.Table, sel *ast.SelectStmt, a *plan.Access) bool {
	if sel.OrderBy == nil || sel.Limit == nil || sel.GroupBy != nil || sel.Having != nil || sel.Distinct {
		return false
	}
	if sel.LockInfo != nil && sel.LockInfo.LockType != ast.SelectLockNone {
		return false
	}
	if sel.SelectStmtOpts != nil && sel.SelectStmtOpts.CalcFoundRows {
		return false
	}
	var cols []int
	desc := sel.OrderBy.Items[0].Desc
	for _, it := range sel.OrderBy.Items {
		cn, ok := it.Expr.(*ast.ColumnNameExpr)
		if !ok || it.Desc != desc {
			return false
		}
		c := t.Def.ColumnIndex(cn.Name.Name.O)
		if c < 0 {
			return false
		}
		cols = append(cols, c)
	}
	lim := expr.ConstExpr(types.IntValue(limitRows(sel)), expr.TBigInt)
	return a.ServeOrder(cols, desc, lim, nil)
}

// limitRows is LIMIT + OFFSET when they are literal numbers, else 1.
func limitRows(sel *ast.SelectStmt) int64 {
	n := int64(0)
	for _, e := range []ast.ExprNode{sel.Limit.Count, sel.Limit.Offset} {
		if v, ok := e.(ast.ValueExpr); ok && e != nil {
			if x, ok := v.GetValue().(int64); ok {
				n += x
			} else if x, ok := v.GetValue().(uint64); ok {
				n += int64(x)
			}
		}
	}
	return max(n, 1)
}

// joinSort notes how a join's ORDER BY or GROUP BY is done: a sort of the
// first table's rows when it names only that table's columns, else of the
// joined rows (MariaDB's temporary table).
func joinSort(sc *expr.Scope, sel *ast.SelectStmt, rows []explainRow) {
	if len(rows) == 0 {
		return
	}
	switch {
	case sel.GroupBy != nil:
		rows[0].extra = append(rows[0].extra, "Using temporary", "Using filesort")
	case sel.OrderBy != nil:
		first := true
		for _, it := range sel.OrderBy.Items {
			e := it.Expr
			if p, ok := e.(*ast.PositionExpr); ok && sel.Fields != nil && p.N >= 1 && p.N <= len(sel.Fields.Fields) {
				e = sel.Fields.Fields[p.N-1].Expr
			}
			cn, ok := e.(*ast.ColumnNameExpr)
			if !ok {
				first = false
				break
			}
			ce, err := sc.ResolveColumn(cn.Name)
			if err != nil || ce.Source == nil || ce.Source.Alias != rows[0].table {
				first = false
				break
			}
		}
		if first {
			rows[0].extra = append(rows[0].extra, "Using filesort")
		} else {
			rows[0].extra = append(rows[0].extra, "Using temporary", "Using filesort")
		}
	}
}

// accessRow describes a single-table statement's access path.
func accessRow(t *storage.Table, alias string, a *plan.Access) explainRow {
	def := t.Def
	r := explainRow{table: alias, def: def, access: "ALL", rows: float64(t.Len()), filtered: 100, where: a.Filter != nil && a.Residual}
	pk := def.PrimaryKey()
	for _, ix := range def.Indexes {
		if ix.Primary {
			if a.PK != nil || a.InList != nil || a.Lo != nil || a.Hi != nil {
				r.possible = append(r.possible, "PRIMARY")
			}
		} else if a.Uniq != nil && def.Indexes[a.UniqIdx].Name == ix.Name {
			r.possible = append(r.possible, ix.Name)
		}
	}
	ctx := context.Background()
	ec := &expr.Ctx{Context: ctx, Mem: expr.NewMemAccount(ctx)}
	switch {
	case a.IdxScan >= 0:
		ix := def.Indexes[a.IdxScan]
		k := len(a.IdxEq)
		r.possible = []string{ix.Name}
		r.key, r.keyCols = ix.Name, ix.Cols[:k]
		if a.IdxLo != nil || a.IdxHi != nil {
			r.access, r.keyCols, r.where = "range", ix.Cols[:k+1], true
		} else {
			r.access, r.ref, r.where = "ref", constRefs(k), a.Residual
		}
		if n := a.IndexRows(ec); n >= 0 {
			r.rows = float64(max(n, 1))
		}
	case a.PK != nil:
		r.access, r.key, r.keyCols, r.rows = "const", "PRIMARY", pk, 1
		r.ref = constRefs(len(pk))
	case a.InList != nil || a.Lo != nil || a.Hi != nil:
		r.access, r.key, r.keyCols, r.where = "range", "PRIMARY", pk[:1], true
		if n := a.RangeRows(ec); n >= 0 {
			r.rows = float64(max(n, 1))
		}
		if a.PKPrefix {
			r.access, r.ref, r.where = "ref", []string{"const"}, a.Residual
		}
	case a.Uniq != nil:
		ix := def.Indexes[a.UniqIdx]
		r.key, r.keyCols, r.ref = ix.Name, ix.Cols, constRefs(len(ix.Cols))
		if ix.Unique {
			r.access, r.rows = "const", 1
		} else {
			r.access = "ref"
			r.rows = math.Ceil(math.Max(float64(t.Len()), 1) / math.Max(float64(t.IndexSize(a.UniqIdx)), 1))
		}
	}
	if r.where {
		r.extra = append(r.extra, "Using where")
	}
	return r
}

func constRefs(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "const"
	}
	return out
}

// joinRows describes each step of a join.
func joinRows(jp *plan.Join) []explainRow {
	var out []explainRow
	for _, st := range jp.Steps() {
		r := explainRow{table: st.Alias, def: st.Table.Def, access: st.Access, possible: st.PossibleKeys, key: st.Key, keyCols: st.KeyCols,
			ref: st.Ref, rows: math.Max(math.Ceil(st.Rows), 1), filtered: math.Min(st.Filtered, 100), where: st.Filters > 0}
		if r.where {
			r.extra = append(r.extra, "Using where")
		}
		switch {
		case st.Access == "ALL" && !st.First:
			r.extra = append(r.extra, "Using join buffer (flat, BNL join)")
		case st.Access == "hash_ALL":
			r.extra = append(r.extra, "Using join buffer (flat, BNLH join)")
		}
		out = append(out, r)
	}
	return out
}

// keyLength is MySQL's key_len: the bytes of each key column, one more
// for a nullable one, two more for a VARCHAR's length.
func keyLength(def *storage.TableDef, cols []int) int {
	n := 0
	for _, c := range cols {
		col := def.Columns[c]
		switch col.Type.Base {
		case types.TTinyInt:
			n++
		case types.TSmallInt:
			n += 2
		case types.TMediumInt, types.TDate:
			n += 3
		case types.TInt, types.TFloat:
			n += 4
		case types.TBigInt, types.TDouble:
			n += 8
		case types.TYear:
			n++
		case types.TTime, types.TTimestamp, types.TDatetime:
			// 3, 4 and 5 bytes, and the fraction's (fsp+1)/2, as MariaDB packs them
			n += map[types.Base]int{types.TTime: 3, types.TTimestamp: 4, types.TDatetime: 5}[col.Type.Base] + (col.Type.Scale+1)/2
		case types.TDecimal:
			n += decimalBytes(col.Type.Length, col.Type.Scale)
		case types.TChar:
			n += col.Type.Length * charBytes(def)
		case types.TVarchar, types.TText:
			n += col.Type.Length*charBytes(def) + 2
		default:
			n += otherKeyLength(col.Type)
		}
		if !col.NotNull {
			n++
		}
	}
	return n
}

func charBytes(def *storage.TableDef) int {
	switch strings.ToLower(def.Charset) {
	case "latin1", "ascii", "binary":
		return 1
	case "utf8", "utf8mb3":
		return 3
	}
	return 4
}

// decimalBytes is the packed size of DECIMAL(p,s): 4 bytes per 9 digits.
func decimalBytes(p, s int) int {
	if p == 0 {
		p = 10
	}
	dig := []int{0, 1, 1, 2, 2, 3, 3, 4, 4, 4}
	i, f := p-s, s
	return i/9*4 + dig[i%9] + f/9*4 + dig[f%9]
}

func orNull(s string) types.Value {
	if s == "" {
		return types.Null
	}
	return types.StringValue(s)
}

// explainTable is the tabular EXPLAIN.
func explainTable(rows []explainRow) *exec.Result {
	r := &exec.Result{}
	for _, c := range []string{"id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "Extra"} {
		col := exec.Column{Name: c, Type: expr.TVarchar}
		if c == "id" || c == "rows" {
			col.Type = expr.TBigInt
		}
		r.Columns = append(r.Columns, col)
	}
	for _, e := range rows {
		row := []types.Value{types.IntValue(1), types.StringValue("SIMPLE")}
		if e.noTable {
			row = append(row, types.Null, types.Null, types.Null, types.Null, types.Null, types.Null, types.Null)
		} else {
			keyLen := ""
			if e.key != "" {
				keyLen = fmt.Sprint(keyLength(e.def, e.keyCols))
			}
			row = append(row, types.StringValue(e.table), types.StringValue(e.access), orNull(strings.Join(e.possible, ",")),
				orNull(e.key), orNull(keyLen), orNull(strings.Join(e.ref, ",")), types.IntValue(int64(e.rows)))
		}
		row = append(row, types.StringValue(strings.Join(e.extra, "; ")))
		r.Rows = append(r.Rows, row)
	}
	return r
}

// explainJSON is EXPLAIN FORMAT=JSON: one row, one column, laid out
// as MariaDB lays it out (members one per line, arrays of names inline).
func explainJSON(rows []explainRow) (*exec.Result, error) {
	qb := jsonObject{{"select_id", 1}}
	if len(rows) == 1 && rows[0].noTable {
		qb = append(qb, jsonField{"table", jsonObject{{"message", "No tables used"}}})
	} else {
		var tables []any
		for _, e := range rows {
			t := jsonObject{{"table_name", e.table}, {"access_type", e.access}}
			if len(e.possible) > 0 {
				t = append(t, jsonField{"possible_keys", e.possible})
			}
			if e.key != "" {
				var parts []string
				for _, c := range e.keyCols {
					parts = append(parts, e.def.Columns[c].Name)
				}
				t = append(t, jsonField{"key", e.key}, jsonField{"key_length", fmt.Sprint(keyLength(e.def, e.keyCols))}, jsonField{"used_key_parts", parts})
			}
			if len(e.ref) > 0 {
				t = append(t, jsonField{"ref", e.ref})
			}
			t = append(t, jsonField{"rows", int64(e.rows)}, jsonField{"filtered", math.Round(e.filtered*100) / 100})
			tables = append(tables, jsonObject{{"table", t}})
		}
		qb = append(qb, jsonField{"nested_loop", tables})
	}
	var b strings.Builder
	writeJSON(&b, jsonObject{{"query_block", qb}}, "")
	return &exec.Result{Columns: []exec.Column{{Name: "EXPLAIN", Type: expr.TVarchar}}, Rows: [][]types.Value{{types.StringValue(b.String())}}}, nil
}

// jsonObject keeps its fields in order, as MariaDB prints them.
type jsonObject []jsonField

type jsonField struct {
	k string
	v any
}

func writeJSON(b *strings.Builder, v any, indent string) {
	in := indent + "  "
	switch x := v.(type) {
	case jsonObject:
		b.WriteString("{\n")
		for i, f := range x {
			k, _ := json.Marshal(f.k)
			b.WriteString(in)
			b.Write(k)
			b.WriteString(": ")
			writeJSON(b, f.v, in)
			if i < len(x)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "}")
	case []any:
		b.WriteString("[\n")
		for i, e := range x {
			b.WriteString(in)
			writeJSON(b, e, in)
			if i < len(x)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "]")
	case []string:
		b.WriteByte('[')
		for i, s := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			q, _ := json.Marshal(s)
			b.Write(q)
		}
		b.WriteByte(']')
	default:
		q, _ := json.Marshal(x)
		b.Write(q)
	}
}

// nested finds a subquery, derived table or WITH in a statement.
type nested struct{ found bool }

func (v *nested) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.SubqueryExpr, *ast.ExistsSubqueryExpr, *ast.WithClause:
		v.found = true
	case *ast.TableSource:
		if _, ok := x.Source.(*ast.TableName); !ok {
			if _, join := x.Source.(*ast.Join); !join {
				v.found = true
			}
		}
	}
	return n, v.found
}

func (v *nested) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// otherKeyLength is key_len's part for the byte-string, ENUM, SET and BIT
// columns, as MariaDB counts it: bytes (VARBINARY with its 2-byte length),
// an ENUM's or SET's stored number, BIT(n)'s (n+7)/8 bytes.
func otherKeyLength(t types.ColType) int {
	switch t.Base {
	case types.TBinary:
		return t.Length
	case types.TVarbinary:
		return t.Length + 2
	case types.TEnum:
		if len(t.Elems()) > 255 {
			return 2
		}
		return 1
	case types.TSet:
		return (len(t.Elems()) + 7) / 8
	case types.TBit:
		return (t.Length + 7) / 8
	}
	return 0
}
