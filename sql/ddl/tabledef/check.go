package tabledef

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	"github.com/plrun/plrun/sql/constraint"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
)

// BuildChecks adds CREATE TABLE's CHECK constraints to def as MariaDB
// names them: a column's check by its column, a table's by its
// CONSTRAINT name or CONSTRAINT_N (N counting the unnamed ones, moved on
// past names already taken). Each expression must compile
// against def's columns (1054 ... in 'CHECK') and hold only what MariaDB
// allows there (checkrules.go).
func BuildChecks(def *storage.TableDef, x *ast.CreateTableStmt, funcs expr.FunctionHost) error {
	sc := &expr.Scope{Table: storage.NewTable(def), Alias: def.Name, DB: def.DB, Clause: "CHECK", Funcs: checkFuncs{funcs}}
	taken := map[string]bool{}
	for _, fk := range def.ForeignKeys {
		taken[strings.ToLower(fk.Name)] = true // one namespace, as MariaDB's
	}
	for _, ck := range def.Checks {
		if ck.Column == "" {
			taken[strings.ToLower(ck.Name)] = true // ALTER TABLE ... ADD CHECK: those the table has
		}
	}
	cascaded := cascadedColumns(def)
	add := func(ck storage.Check, e ast.ExprNode) error {
		if err := checkAllowed(e, ck.Name); err != nil {
			return err
		}
		if col := firstColumnIn(e, cascaded); col != "" {
			// a foreign key's action would change it without the check
			return sqlerr.New(sqlerr.ErCheckNotAllowed, "Function or expression '%s' cannot be used in the CHECK clause of `%s`", col, ck.Name)
		}
		if _, err := sc.Compile(e); err != nil {
			return err
		}
		if taken[strings.ToLower(ck.Name)] {
			return sqlerr.New(sqlerr.ErDupConstraintName, "Duplicate CHECK constraint name '%s'", ck.Name)
		}
		taken[strings.ToLower(ck.Name)] = true
		raw := expr.ExprText(e)
		ck.Expr = CheckText(e)
		// The text is what every later write compiles: it must read back
		// as the same check, else keep the parser's own spelling.
		if n, err := constraint.ParseCheck(ck.Expr); err != nil {
			ck.Expr = raw
		} else if _, err := sc.Compile(n); err != nil {
			ck.Expr = raw
		}
		if n, err := constraint.ParseCheck(ck.Expr); err != nil {
			return sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support this CHECK expression")
		} else if _, err := sc.Compile(n); err != nil {
			return err
		}
		def.Checks = append(def.Checks, ck)
		return nil
	}
	for _, cd := range x.Cols {
		for _, o := range cd.Options {
			if o.Tp == ast.ColumnOptionCheck {
				if !o.Enforced {
					return notEnforced()
				}
				if err := add(storage.Check{Name: cd.Name.Name.O, Column: cd.Name.Name.O}, o.Expr); err != nil {
					return err
				}
			}
		}
	}
	var named []string
	for _, c := range x.Constraints {
		if c.Tp == ast.ConstraintCheck && c.Name != "" {
			named = append(named, strings.ToLower(c.Name))
		}
	}
	n := 0
	for _, c := range x.Constraints {
		if c.Tp != ast.ConstraintCheck {
			continue
		}
		if !c.Enforced {
			return notEnforced()
		}
		name := c.Name
		if name == "" {
			// CONSTRAINT_N counts the unnamed checks, past names taken
			for n++; contains(named, fmt.Sprintf("constraint_%d", n)) || taken[fmt.Sprintf("constraint_%d", n)]; n++ {
			}
			name = fmt.Sprintf("CONSTRAINT_%d", n)
		}
		if err := add(storage.Check{Name: name}, c.Expr); err != nil {
			return err
		}
	}
	return nil
}

func contains(names []string, s string) bool {
	for _, n := range names {
		if n == s {
			return true
		}
	}
	return false
}

// notEnforced refuses MySQL 8's NOT ENFORCED: MariaDB has no such
// clause, and a check kept but not enforced would be accepted and ignored.
func notEnforced() error {
	return sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support NOT ENFORCED CHECK constraints")
}

// CheckText prints a CHECK expression close to MariaDB's own form:
// back-quoted names, lower-case keywords, string literals without the
// parser's charset introducer, <> for inequality, functions under
// MariaDB's names (ucase, lcase, octet_length) and NOT of a comparison as
// the opposite comparison, as MariaDB
// prints them. e itself (part of a parse other sessions share) is left
// alone: the rewrite is of a fresh parse of its text.
func CheckText(e ast.ExprNode) string {
	raw := expr.ExprText(e)
	n, err := constraint.ParseCheck(raw)
	if err != nil {
		return raw
	}
	if m, ok := n.Accept(mariadbPrint{}); ok {
		n = m.(ast.ExprNode)
	}
	return mariadbSpelling(expr.ExprText(n))
}

// mariadbSpelling respells the parser's restored text outside string
// literals and quoted names: no charset introducer, <> for !=, MOD and
// DIV in capitals, no space after a comma between arguments.
func mariadbSpelling(s string) string {
	repl := []struct{ from, to string }{{" != ", " <> "}, {" % ", " MOD "}, {" div ", " DIV "}, {", ", ","}}
	var b strings.Builder
	for i := 0; i < len(s); {
		if strings.HasPrefix(s[i:], "_utf8mb4'") {
			i += len("_utf8mb4") // the literal itself is copied next
			continue
		}
		if c := s[i]; c == '\'' || c == '`' || c == '"' {
			j := i + 1
			for j < len(s) && s[j] != c {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(s))
			b.WriteString(s[i:j])
			i = j
			continue
		}
		matched := false
		for _, r := range repl {
			if strings.HasPrefix(s[i:], r.from) {
				b.WriteString(r.to)
				i += len(r.from)
				matched = true
				break
			}
		}
		if !matched {
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String()
}

// mariadbNames are the functions MariaDB prints under another name.
var mariadbNames = map[string]string{"upper": "ucase", "lower": "lcase", "length": "octet_length"}

// mariadbPrint rewrites an expression into the form MariaDB prints.
type mariadbPrint struct{}

var negated = map[opcode.Op]opcode.Op{opcode.EQ: opcode.NE, opcode.NE: opcode.EQ, opcode.LT: opcode.GE,
	opcode.GE: opcode.LT, opcode.GT: opcode.LE, opcode.LE: opcode.GT}

func (mariadbPrint) Enter(n ast.Node) (ast.Node, bool) { return n, false }

func (mariadbPrint) Leave(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.FuncCallExpr:
		if name, ok := mariadbNames[x.FnName.L]; ok {
			x.FnName = ast.NewCIStr(name)
		}
	case *ast.UnaryOperationExpr:
		if x.Op != opcode.Not && x.Op != opcode.Not2 {
			break
		}
		v := x.V
		if p, ok := v.(*ast.ParenthesesExpr); ok {
			v = p.Expr
		}
		if b, ok := v.(*ast.BinaryOperationExpr); ok {
			if op, ok := negated[b.Op]; ok {
				return &ast.BinaryOperationExpr{Op: op, L: b.L, R: b.R}, true
			}
		}
	}
	return n, true
}
