package ddl

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
)

// buildChecks adds CREATE TABLE's CHECK constraints to def as MariaDB
// names them: a column's check by its column, a table's by its
// CONSTRAINT name or CONSTRAINT_N (N counting the unnamed ones, moved on
// past names already taken). Each expression must compile
// against def's columns (1054 ... in 'CHECK').
func buildChecks(def *storage.TableDef, x *ast.CreateTableStmt) error {
	sc := &expr.Scope{Table: storage.NewTable(def), Alias: def.Name, DB: def.DB, Clause: "CHECK"}
	taken := map[string]bool{}
	add := func(ck storage.Check, e ast.ExprNode) error {
		if _, err := sc.Compile(e); err != nil {
			return err
		}
		if taken[strings.ToLower(ck.Name)] {
			return sqlerr.New(sqlerr.ErDupConstraintName, "Duplicate CHECK constraint name '%s'", ck.Name)
		}
		taken[strings.ToLower(ck.Name)] = true
		ck.Expr = CheckText(e)
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
// parser's charset introducer and <> for inequality.
func CheckText(e ast.ExprNode) string {
	s := expr.ExprText(e)
	s = strings.ReplaceAll(s, "_utf8mb4'", "'")
	s = strings.ReplaceAll(s, " != ", " <> ")
	return s
}
