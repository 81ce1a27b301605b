package psm

import (
	"strings"

	"github.com/plrun/plrun/types"
)

// target is where a fetched value goes: a local slot or a user variable.
type target struct {
	slot int
	user string
	t    types.ColType
	name string
}

func (r *runner) store(tg target, v types.Value) error {
	if tg.user != "" {
		if r.env != nil {
			r.env.UserVars[tg.user] = v
			return nil
		}
		_, err := r.host.Exec(r.ctx, "SET @`"+strings.ReplaceAll(tg.user, "`", "``")+"` = ?", []any{hostArg(v)})
		return err
	}
	var err error
	r.locals[tg.slot], err = assign(v, tg.t, tg.name)
	return err
}

// readTargets reads var [, var ...] (locals or @user variables).
func (c *compiler) readTargets() ([]target, error) {
	var out []target
	for {
		if c.acceptPunct("@") {
			n := c.next()
			if n.kind != tokWord && n.kind != tokQuoted {
				return nil, c.syntaxErrorAt(n)
			}
			out = append(out, target{slot: -1, user: strings.ToLower(n.name())})
		} else {
			name, err := c.ident()
			if err != nil {
				return nil, err
			}
			slot, t, ok := c.Local(name)
			if !ok {
				return nil, newErr(erSPUndeclaredVar, "42000", "Undeclared variable: %s", name)
			}
			out = append(out, target{slot: slot, t: t, name: name})
		}
		if !c.acceptPunct(",") {
			return out, nil
		}
	}
}

// selectInto is SELECT ... INTO targets ...: exactly one row, else NOT
// FOUND (1329, a warning-class condition MySQL raises as "No data") or
// 1172 for more than one.
type selectInto struct {
	query   *sqlStmt
	targets []target
}

func (s *selectInto) exec(r *runner) error {
	res, err := r.host.Exec(r.ctx, s.query.text, r.args(s.query.slots))
	if err != nil {
		return err
	}
	switch {
	case len(res.Rows) == 0:
		return &completion{noData()}
	case len(res.Rows) > 1:
		return newErr(erTooManyRows, "42000", "Result consisted of more than one row")
	case len(res.Rows[0]) != len(s.targets):
		return newErr(1222, "21000", "The used SELECT statements have a different number of columns")
	}
	for i, tg := range s.targets {
		if err := r.store(tg, fromHost(res.Rows[0][i])); err != nil {
			return err
		}
	}
	r.da.statementDone(1)
	return nil
}

// compileSelect reads a SELECT; with an INTO at depth 0 (not OUTFILE or
// DUMPFILE) it is a selectInto, otherwise a statement whose rows go to
// the client.
func (c *compiler) compileSelect() (stmt, error) {
	from := c.i
	c.scanUntil("INTO")
	if !c.peek().is("INTO") || c.peekAt(1).is("OUTFILE") || c.peekAt(1).is("DUMPFILE") {
		if c.trig != nil {
			return nil, newErr(1415, "0A000", "Not allowed to return a result set from a trigger")
		}
		c.scanUntil()
		return c.compileSQL(from, c.i)
	}
	intoAt := c.i
	c.i++
	targets, err := c.readTargets()
	if err != nil {
		return nil, err
	}
	afterInto := c.i
	c.scanUntil()
	end := c.i
	text := c.textSpan(from, intoAt) + " " + c.textSpan(afterInto, end)
	q, err := c.compileSQLText(text, from)
	if err != nil {
		return nil, err
	}
	return &selectInto{query: q, targets: targets}, nil
}
