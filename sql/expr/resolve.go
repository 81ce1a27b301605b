package expr

import (
	"errors"
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// resolveJoined finds a column among the joined tables.
func (sc *Scope) resolveJoined(cn *ast.ColumnName) (*Expr, error) {
	var found *Source
	idx := -1
	for _, jt := range sc.Joined {
		if cn.Table.L != "" && !strings.EqualFold(cn.Table.O, jt.Alias) {
			continue
		}
		if cn.Schema.L != "" && !strings.EqualFold(cn.Schema.O, jt.Table.Def.DB) {
			continue
		}
		if cn.Table.L == "" && jt.Merged[cn.Name.L] {
			continue
		}
		if i := jt.Table.Def.ColumnIndex(cn.Name.O); i >= 0 {
			if found != nil {
				return nil, sqlerr.New(sqlerr.ErNonUniq, "Column '%s' in %s is ambiguous", Qualified(cn), sc.ClauseName())
			}
			found, idx = jt, i
		}
	}
	if found == nil {
		return nil, sqlerr.New(sqlerr.ErBadField, "Unknown column '%s' in '%s'", Qualified(cn), sc.ClauseName())
	}
	return ColumnExpr(found.Table.Def, idx, found.Off+idx, found), nil
}

// ExprText restores an expression as MySQL prints it in messages.
func ExprText(n ast.Node) string {
	var sb strings.Builder
	ctx := format.NewRestoreCtx(format.RestoreStringSingleQuotes|format.RestoreKeyWordLowercase|format.RestoreNameBackQuotes|format.RestoreSpacesAroundBinaryOperation|format.RestoreStringWithoutCharset, &sb)
	if err := n.Restore(ctx); err != nil {
		return "?"
	}
	return sb.String()
}

// ColumnLabel is the name a select-list expression gets without an alias:
// the expression as written (MySQL uses the original text).
func ColumnLabel(n ast.ExprNode) string {
	if c, ok := n.(*ast.ColumnNameExpr); ok {
		return c.Name.Name.O
	}
	if t := n.OriginalText(); t != "" {
		return t
	}
	return ExprText(n)
}

func (sc *Scope) ResolveColumn(cn *ast.ColumnName) (*Expr, error) {
	e, err := sc.resolveLocal(cn)
	if err == nil && sc.ImplicitGroup && e.NotNull {
		nullable := *e
		nullable.NotNull = false
		return &nullable, nil
	}
	if err == nil || sc.Outer == nil || !isUnknownColumn(err) {
		return e, err
	}
	// The nearest enclosing query that has the column, any number of
	// levels out. Every subquery between here and there depends on its
	// row, so each is correlated (runs again for each of its rows).
	levels := 0
	for o := sc.Outer; o != nil; o = o.Outer {
		levels++
		oe, oerr := o.resolveLocal(cn)
		if oerr != nil {
			if isUnknownColumn(oerr) {
				continue
			}
			return nil, oerr
		}
		for s := sc; s != o; s = s.Outer {
			if s.Correlated != nil {
				*s.Correlated = true
			}
		}
		return outerColumn(oe, levels), nil
	}
	return nil, err
}

func isUnknownColumn(err error) bool {
	var se *sqlerr.Error
	return errors.As(err, &se) && se.Code == sqlerr.ErBadField
}

// outerColumn reads oe, a column of the query levels out, from that
// query's current row: Ctx.Outer one level out, Ctx.Up's Outer two
// levels out, and so on. It is a constant while the subquery runs.
func outerColumn(oe *Expr, levels int) *Expr {
	return &Expr{Fn: func(c *Ctx) (types.Value, error) {
		at := c
		for i := 1; i < levels && at != nil; i++ {
			at = at.Up
		}
		if at == nil || at.Outer == nil {
			return types.Null, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support this correlated subquery")
		}
		saved, savedOuter := c.Row, c.Outer
		c.Row, c.Outer = at.Outer, nil
		v, err := oe.Fn(c)
		c.Row, c.Outer = saved, savedOuter
		return v, err
	}, Type: oe.Type, Col: -1, IsConst: true, param: -1, text: oe.text, NotNull: oe.NotNull}
}

// resolveLocal finds a column among the scope's own table(s).
func (sc *Scope) resolveLocal(cn *ast.ColumnName) (*Expr, error) {
	name := cn.Name.O
	if v := sc.View; v != nil && cn.Schema.L == "" && (cn.Table.L == "" || strings.EqualFold(cn.Table.O, v.Name)) {
		if e := v.Cols[strings.ToLower(name)]; e != nil {
			return e, nil
		}
		return nil, sqlerr.New(sqlerr.ErBadField, "Unknown column '%s' in '%s'", Qualified(cn), sc.ClauseName())
	}
	if sc.Joined != nil {
		return sc.resolveJoined(cn)
	}
	if sc.Table == nil {
		return nil, sqlerr.New(sqlerr.ErBadField, "Unknown column '%s' in '%s'", Qualified(cn), sc.ClauseName())
	}
	if cn.Table.L != "" && !strings.EqualFold(cn.Table.O, sc.Alias) {
		return nil, sqlerr.New(sqlerr.ErBadField, "Unknown column '%s' in '%s'", Qualified(cn), sc.ClauseName())
	}
	if cn.Schema.L != "" && !strings.EqualFold(cn.Schema.O, sc.Table.Def.DB) {
		return nil, sqlerr.New(sqlerr.ErBadField, "Unknown column '%s' in '%s'", Qualified(cn), sc.ClauseName())
	}
	i := sc.Table.Def.ColumnIndex(name)
	if i < 0 {
		return nil, sqlerr.New(sqlerr.ErBadField, "Unknown column '%s' in '%s'", Qualified(cn), sc.ClauseName())
	}
	return ColumnExpr(sc.Table.Def, i, i, nil), nil
}

// ColumnExpr reads column idx of def from position pos of the current row
// (pos differs from idx in a joined row, whose table jt then is).
func ColumnExpr(def *storage.TableDef, idx, pos int, jt *Source) *Expr {
	col := def.Columns[idx]
	fn := func(c *Ctx) (types.Value, error) { return c.Row[pos], nil }
	if ts := timestampColumn(def, idx, pos); ts != nil {
		fn = ts
	} else if col.Type.Base == types.TYear {
		fn = func(c *Ctx) (types.Value, error) {
			v := c.Row[pos]
			if v.K == types.KindInt {
				v.P = types.PYear // prints 0000
			}
			return v, nil
		}
	} else if p, ok := timePrecision(col.Type); ok {
		// Stored times do not keep how they print: the column's type says.
		fn = func(c *Ctx) (types.Value, error) {
			v := c.Row[pos]
			if v.K == types.KindTime || v.K == types.KindDuration {
				v.P = p
			}
			return v, nil
		}
	}
	return &Expr{
		Fn:      fn,
		Type:    col.Type,
		NotNull: col.NotNull && (jt == nil || !jt.Left),
		Col:     idx,
		param:   -1,
		Source:  jt,
		text:    fmt.Sprintf("`%s`.`%s`.`%s`", def.DB, def.Name, col.Name),
	}
}

func Qualified(cn *ast.ColumnName) string {
	s := cn.Name.O
	if cn.Table.O != "" {
		s = cn.Table.O + "." + s
	}
	if cn.Schema.O != "" {
		s = cn.Schema.O + "." + s
	}
	return s
}

// timePrecision is Value.P for a DATE, DATETIME(fsp) or TIME(fsp)
// column's values.
func timePrecision(t types.ColType) (uint8, bool) {
	switch t.Base {
	case types.TDate:
		return types.PDate, true
	case types.TDatetime, types.TTimestamp, types.TTime:
		return uint8(t.Scale), t.Scale > 0
	}
	return 0, false
}
