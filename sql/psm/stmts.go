package psm

import (
	"context"
	"strings"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/types"
)

var nullValue = types.Null

func equalValues(a, b types.Value) bool {
	return !a.IsNull() && !b.IsNull() && types.Compare(a, b) == 0
}

func upper(s string) string { return strings.ToUpper(s) }

func contextCause(r *runner) error { return context.Cause(r.ctx) }

// compileStatement reads one statement (without its ';'): a control
// statement, a label, or a statement the host runs.
func (c *compiler) compileStatement() (stmt, error) {
	t := c.peek()
	if (t.kind == tokWord || t.kind == tokQuoted) && c.peekAt(1).kind == tokPunct && c.peekAt(1).text == ":" {
		name := t.name()
		c.i += 2
		switch n := c.peek(); {
		case n.is("BEGIN"):
			return c.compileBlock(name)
		case n.is("WHILE"), n.is("REPEAT"), n.is("LOOP"):
			return c.compileLoop(name)
		}
		return nil, c.syntaxError()
	}
	if t.kind == tokPunct && t.text == "(" {
		return c.compileSelect() // (SELECT ...) UNION (SELECT ...)
	}
	if t.kind != tokWord {
		return nil, c.syntaxError()
	}
	switch upper(t.text) {
	case "BEGIN":
		return c.compileBlock("")
	case "IF":
		return c.compileIf()
	case "CASE":
		return c.compileCase()
	case "WHILE", "REPEAT", "LOOP":
		return c.compileLoop("")
	case "LEAVE", "ITERATE":
		return c.compileJump()
	case "SET":
		return c.compileSet()
	case "OPEN", "CLOSE":
		return c.compileOpenClose()
	case "FETCH":
		return c.compileFetch()
	case "SIGNAL", "RESIGNAL":
		return c.compileSignal()
	case "GET":
		return c.compileGetDiagnostics()
	case "RETURN":
		return c.compileReturn()
	case "START", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE":
		return c.compileTxn()
	case "SELECT", "WITH": // WITH ... SELECT ... INTO too
		return c.compileSelect()
	case "END", "ELSE", "ELSEIF", "WHEN", "UNTIL", "THEN", "DO":
		return nil, c.syntaxError()
	case "LOCK", "UNLOCK":
		// MariaDB refuses table locks in a routine when it is created.
		return nil, newErr(1314, "0A000", "%s is not allowed in stored procedures", upper(t.text))
	case "LOAD":
		if c.peekAt(1).is("DATA") {
			return nil, newErr(1314, "0A000", "LOAD DATA is not allowed in stored procedures")
		}
	}
	from := c.i
	c.scanUntil()
	return c.compileSQL(from, c.i)
}

// exec runs the statement through the host. A result set (a SELECT, a
// SHOW) goes to the client.
func (s *sqlStmt) exec(r *runner) error {
	if len(s.callVars) > 0 {
		return s.execCall(r)
	}
	res, err := r.host.Exec(r.ctx, s.text, r.args(s.slots))
	if err != nil {
		return err
	}
	if res.Columns != nil {
		if err := r.emit(res); err != nil {
			return err
		}
	}
	r.da.statementDone(int64(res.AffectedRows))
	return nil
}

// emit sends res to the CALL's caller as a result set (the host refuses
// with 1312 when the caller takes none, which a handler may catch).
func (r *runner) emit(res *procs.Result) error { return r.host.Emit(r.ctx, res) }

// setStmt is SET with one or more assignments, run left to right.
type setStmt struct{ items []setItem }

// setItem assigns to a local (slot >= 0), a user variable (user != "")
// or, through the host, a system variable (sys).
type setItem struct {
	slot int
	user string
	sys  *sqlStmt
	val  *expression
	t    types.ColType
	name string
	row  bool // a trigger's NEW.col: the row's column, converted when written (trigger.go)
}

func (s *setStmt) exec(r *runner) error {
	for _, it := range s.items {
		if it.sys != nil {
			if err := it.sys.exec(r); err != nil {
				return err
			}
			continue
		}
		v, err := r.eval(it.val)
		if err != nil {
			return err
		}
		if it.user != "" {
			if r.env != nil {
				r.env.UserVars[it.user] = v
			} else if _, err := r.host.Exec(r.ctx, "SET @`"+strings.ReplaceAll(it.user, "`", "``")+"` = ?", []any{hostArg(v)}); err != nil {
				return err
			}
			continue
		}
		if it.row {
			r.locals[it.slot] = rowValue(v, it.t)
			continue
		}
		if r.locals[it.slot], err = assign(v, it.t, it.name); err != nil {
			return err
		}
	}
	r.da.statementDone(0)
	return nil
}

func (c *compiler) compileSet() (stmt, error) {
	setTok := c.i
	c.i++ // SET
	n := c.peek()
	if n.is("NAMES") || n.is("CHARACTER") || n.is("CHARSET") || n.is("TRANSACTION") || n.is("PASSWORD") || n.is("ROLE") || n.is("DEFAULT") || n.is("STATEMENT") {
		c.scanUntil()
		return c.compileSQL(setTok, c.i)
	}
	s := &setStmt{}
	for {
		from := c.i
		it, err := c.setTarget()
		if err != nil {
			return nil, err
		}
		if !c.acceptPunct("=") {
			if !(c.acceptPunct(":") && c.acceptPunct("=")) {
				return nil, c.syntaxError()
			}
		}
		valFrom := c.i
		c.scanComma() // the value ends at a ',' at depth 0
		if it.slot < 0 && it.user == "" {
			// SET of a system variable: the host validates and applies it.
			text := "SET " + c.textSpan(from, c.i)
			q, err := c.compileSQLText(text, from)
			if err != nil {
				return nil, err
			}
			it.sys = q
		} else if it.val, err = c.compileExpr(valFrom, c.i); err != nil {
			return nil, err
		}
		s.items = append(s.items, it)
		if !c.acceptPunct(",") {
			return s, nil
		}
	}
}

// scanComma advances to the ',' or ';' at depth 0 that ends a SET value.
func (c *compiler) scanComma() {
	depth, cases := 0, 0
	for {
		t := c.peek()
		switch {
		case t.kind == tokEOF:
			return
		case t.kind == tokPunct && t.text == "(":
			depth++
		case t.kind == tokPunct && t.text == ")":
			depth--
		case t.kind == tokPunct && (t.text == ";" || t.text == ",") && depth <= 0:
			return
		case t.is("CASE"):
			cases++
		case t.is("END"):
			if cases == 0 {
				return
			}
			cases--
		}
		c.i++
	}
}

// setTarget reads what a SET item assigns to. slot is -1 for a user or
// system variable.
func (c *compiler) setTarget() (setItem, error) {
	it := setItem{slot: -1}
	t := c.peek()
	if t.kind == tokPunct && t.text == "@" {
		c.i++
		if n := c.peek(); n.kind == tokPunct && n.text == "@" {
			c.i++ // @@[scope.]name: a system variable
			if _, err := c.ident(); err != nil {
				return it, err
			}
			if c.acceptPunct(".") {
				if _, err := c.ident(); err != nil {
					return it, err
				}
			}
			return it, nil
		}
		n := c.next()
		switch n.kind {
		case tokWord, tokQuoted:
			it.user = strings.ToLower(n.name())
		case tokString:
			it.user = strings.ToLower(n.unquoted())
		default:
			return it, c.syntaxErrorAt(n)
		}
		return it, nil
	}
	if t.is("GLOBAL") || t.is("SESSION") || t.is("LOCAL") {
		c.i++
		name, err := c.ident()
		if err != nil {
			return it, err
		}
		if _, err := sysvar.Lookup(strings.ToLower(name)); err != nil {
			return it, err
		}
		return it, nil
	}
	name, err := c.ident()
	if err != nil {
		return it, err
	}
	if c.trig != nil && c.peek().kind == tokPunct && c.peek().text == "." && (strings.EqualFold(name, "NEW") || strings.EqualFold(name, "OLD")) {
		return c.setRowTarget(it, name)
	}
	if slot, typ, ok := c.Local(name); ok {
		it.slot, it.t, it.name = slot, typ, name
		return it, nil
	}
	if _, err := sysvar.Lookup(strings.ToLower(name)); err != nil {
		return it, newErr(erUnknownSystemVariable, "HY000", "Unknown system variable '%s'", name)
	}
	return it, nil
}

// compileSQLText compiles a statement built from body text (SET of a
// system variable); at is the token its text began at, for errors.
func (c *compiler) compileSQLText(text string, at int) (*sqlStmt, error) {
	sub := &compiler{src: text, toks: lex(text), lineBase: c.line(c.toks[at]), proc: c.proc, scopes: c.scopes, slotTypes: c.slotTypes, trig: c.trig}
	return sub.compileSQL(0, len(sub.toks)-1)
}

// execCall runs a CALL whose arguments include bare locals: each is lent
// to the callee as a user variable (its previous value, from a recursive
// CALL of the same procedure, is put back after), and what the callee
// left there (an OUT or INOUT parameter) is stored back into the local.
func (s *sqlStmt) execCall(r *runner) error {
	if r.env == nil {
		return notSupported("local variables as arguments of a CALL in this host")
	}
	type saved struct {
		v  types.Value
		ok bool
	}
	prev := make([]saved, len(s.callVars))
	for i, cv := range s.callVars {
		v, ok := r.env.UserVars[cv.name]
		prev[i] = saved{v, ok}
		r.env.UserVars[cv.name] = r.locals[cv.slot]
	}
	res, err := r.host.Exec(r.ctx, s.text, r.args(s.slots))
	for i, cv := range s.callVars {
		if err == nil {
			v := r.env.UserVars[cv.name]
			r.locals[cv.slot], err = assign(v, r.prog.slotType(cv.slot), r.prog.slotNames[cv.slot])
		}
		if prev[i].ok {
			r.env.UserVars[cv.name] = prev[i].v
		} else {
			delete(r.env.UserVars, cv.name)
		}
	}
	if err != nil {
		return err
	}
	if res.Columns != nil {
		if err := r.emit(res); err != nil {
			return err
		}
	}
	r.da.statementDone(int64(res.AffectedRows))
	return nil
}
