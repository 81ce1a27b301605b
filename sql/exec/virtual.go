package exec

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	"github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// VirtualSchema are the read-only schemas whose tables are built afresh
// for each statement that reads them (information_schema,
// performance_schema).
type VirtualSchema interface {
	// Schema is the virtual schema db names, spelled as SHOW DATABASES
	// lists it; false if db is none.
	Schema(db string) (string, bool)
	// Table builds db's named table now; nil if there is none. eq are the
	// statement's WHERE equalities on it: the table may leave out rows
	// they reject (WHERE still filters the rows it builds).
	Table(db, name string, eq Equalities) *storage.Table
}

// VirtualName is the virtual schema db names, as SHOW DATABASES spells
// it; "" if db is none.
func (s *State) VirtualName(db string) string {
	if s.Virtual == nil {
		return ""
	}
	name, _ := s.Virtual.Schema(db)
	return name
}

// Equalities are the `column = 'string'` conjuncts of a single-table
// WHERE, by upper-case column name.
type Equalities = map[string]string

// IsVirtual reports whether db names a virtual schema.
func (s *State) IsVirtual(db string) bool { return s.VirtualName(db) != "" }

// equalities collects where's top-level AND-ed `col = 'text'` (or `col =
// ?` bound to a string) for the table tn (alias): such a row can only
// match if its column equals the text, as the column's collation
// compares (Match). Other comparisons are left to WHERE alone.
func (s *State) equalities(where ast.ExprNode, tn *ast.TableName, alias string) Equalities {
	eq := Equalities{}
	var walk func(e ast.ExprNode)
	walk = func(e ast.ExprNode) {
		switch x := e.(type) {
		case *ast.ParenthesesExpr:
			walk(x.Expr)
		case *ast.BinaryOperationExpr:
			switch x.Op {
			case opcode.LogicAnd:
				walk(x.L)
				walk(x.R)
			case opcode.EQ:
				col, val, ok := s.columnEqualsText(x.L, x.R, tn, alias)
				if !ok {
					col, val, ok = s.columnEqualsText(x.R, x.L, tn, alias)
				}
				if ok {
					if old, seen := eq[col]; seen && !Match(old, val) {
						val = "\x00" // two values: no row matches both
					}
					eq[col] = val
				}
			}
		}
	}
	if where != nil {
		walk(where)
	}
	return eq
}

func (s *State) columnEqualsText(l, r ast.ExprNode, tn *ast.TableName, alias string) (string, string, bool) {
	cn, ok := l.(*ast.ColumnNameExpr)
	if !ok {
		return "", "", false
	}
	if q := cn.Name.Table.O; q != "" && !strings.EqualFold(q, alias) && !strings.EqualFold(q, tn.Name.O) {
		return "", "", false
	}
	var v types.Value
	switch x := r.(type) {
	case *test_driver.ParamMarkerExpr:
		if x.Order >= len(s.buildArgs) {
			return "", "", false
		}
		v = s.buildArgs[x.Order]
	case *test_driver.ValueExpr:
		str, ok := x.GetValue().(string)
		if !ok {
			return "", "", false
		}
		v = types.StringValue(str)
	default:
		return "", "", false
	}
	// A number compared with a string column compares as numbers
	// ('test' = 0 is true): only a string narrows the rows.
	if v.K != types.KindString {
		return "", "", false
	}
	return strings.ToUpper(cn.Name.Name.O), v.S, true
}

// Match is whether a string column's value equals text as WHERE compares
// them (plrun's collation: types.CompareStrings).
func Match(value, text string) bool { return types.CompareStrings(value, text) == 0 }
