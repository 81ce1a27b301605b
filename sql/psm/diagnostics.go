package psm

import (
	"strings"

	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// getDiagnostics is GET [CURRENT|STACKED] DIAGNOSTICS: statement items
// (ROW_COUNT, NUMBER) or CONDITION n items (MESSAGE_TEXT, MYSQL_ERRNO,
// RETURNED_SQLSTATE).
type getDiagnostics struct {
	stacked   bool
	condition *expression // nil: statement information
	targets   []target
	items     []string
}

func (s *getDiagnostics) exec(r *runner) error {
	conds := r.da.conds
	if s.stacked {
		if len(r.handling) == 0 {
			return newErr(erDiagStackedNoHandler, "0Z002", "GET STACKED DIAGNOSTICS when handler not active")
		}
		conds = []*sqlerr.Error{r.handling[len(r.handling)-1]}
	}
	var cond *sqlerr.Error
	if s.condition != nil {
		v, err := r.eval(s.condition)
		if err != nil {
			return err
		}
		n, ok := v.ToInt64()
		if !ok || n < 1 || int(n) > len(conds) {
			return newErr(erDiagCondNumber, "35000", "Invalid condition number")
		}
		cond = conds[n-1]
	}
	for i, item := range s.items {
		var v types.Value
		switch item {
		case "ROW_COUNT":
			v = types.IntValue(r.da.rowCount)
		case "NUMBER":
			v = types.IntValue(int64(len(conds)))
		case "MESSAGE_TEXT":
			v = types.StringValue(cond.Message)
		case "MYSQL_ERRNO":
			v = types.IntValue(int64(cond.Code))
		case "RETURNED_SQLSTATE":
			v = types.StringValue(cond.State)
		}
		if err := r.store(s.targets[i], v); err != nil {
			return err
		}
	}
	return nil
}

func (c *compiler) compileGetDiagnostics() (stmt, error) {
	c.i++ // GET
	s := &getDiagnostics{}
	if c.accept("STACKED") {
		s.stacked = true
	} else {
		c.accept("CURRENT")
	}
	if err := c.expect("DIAGNOSTICS"); err != nil {
		return nil, err
	}
	allowed := map[string]bool{"ROW_COUNT": true, "NUMBER": true}
	if c.accept("CONDITION") {
		from := c.i
		c.scanUntilTarget()
		e, err := c.compileExpr(from, c.i)
		if err != nil {
			return nil, err
		}
		s.condition = e
		allowed = map[string]bool{"MESSAGE_TEXT": true, "MYSQL_ERRNO": true, "RETURNED_SQLSTATE": true}
	}
	for {
		tgs, err := c.readOneTarget()
		if err != nil {
			return nil, err
		}
		if err := c.expectPunct("="); err != nil {
			return nil, err
		}
		item := c.next()
		name := upper(item.text)
		if item.kind != tokWord || !allowed[name] {
			if item.kind == tokWord && condItems[name] {
				return nil, notSupported("GET DIAGNOSTICS item " + name)
			}
			return nil, c.syntaxErrorAt(item)
		}
		s.targets, s.items = append(s.targets, tgs), append(s.items, name)
		if !c.acceptPunct(",") {
			return s, nil
		}
	}
}

// condItems are the condition information items plrun does not keep.
var condItems = map[string]bool{"CLASS_ORIGIN": true, "SUBCLASS_ORIGIN": true, "CONSTRAINT_CATALOG": true, "CONSTRAINT_SCHEMA": true,
	"CONSTRAINT_NAME": true, "CATALOG_NAME": true, "SCHEMA_NAME": true, "TABLE_NAME": true, "COLUMN_NAME": true, "CURSOR_NAME": true}

// scanUntilTarget skips the condition number: one token (a literal or a
// variable name), or @name.
func (c *compiler) scanUntilTarget() {
	if c.acceptPunct("@") {
		c.i++
		return
	}
	c.i++
}

func (c *compiler) readOneTarget() (target, error) {
	if c.acceptPunct("@") {
		n := c.next()
		if n.kind != tokWord && n.kind != tokQuoted {
			return target{}, c.syntaxErrorAt(n)
		}
		return target{slot: -1, user: strings.ToLower(n.name())}, nil
	}
	name, err := c.ident()
	if err != nil {
		return target{}, err
	}
	slot, t, ok := c.Local(name)
	if !ok {
		return target{}, newErr(erSPUndeclaredVar, "42000", "Undeclared variable: %s", name)
	}
	return target{slot: slot, t: t, name: name}, nil
}
