package psm

import (
	"strings"

	"github.com/plrun/plrun/types"
)

// blockStmt is BEGIN ... END: its variables are (re)initialised on every
// entry, its cursors closed and its handlers dropped on every exit.
type blockStmt struct {
	id       int
	inits    []varInit
	cursors  []int
	handlers []*handler
	body     []stmt
}

// varInit is one DECLARE'd variable: slot gets def (or NULL) on entry.
type varInit struct {
	slot int
	def  *expression
	t    types.ColType
	name string
}

func (b *blockStmt) exec(r *runner) error {
	for _, in := range b.inits {
		v := types.Null
		if in.def != nil {
			d, err := r.eval(in.def)
			if err != nil {
				return err
			}
			if v, err = assign(d, in.t, in.name); err != nil {
				return err
			}
		}
		r.locals[in.slot] = v
	}
	if len(b.handlers) > 0 {
		r.frames = append(r.frames, &handlerFrame{blockID: b.id, handlers: b.handlers})
	}
	depth := len(r.frames)
	err := r.runList(b.body)
	if len(b.handlers) > 0 {
		r.frames = r.frames[:depth-1]
	}
	for _, id := range b.cursors {
		r.cursors[id] = nil
	}
	if j, ok := err.(*jump); ok && j.id == b.id && !j.iterate {
		return nil
	}
	return err
}

// compileBlock reads BEGIN decls stmts END [label]; BEGIN is next.
func (c *compiler) compileBlock(labelName string) (stmt, error) {
	if err := c.expect("BEGIN"); err != nil {
		return nil, err
	}
	l, err := c.pushLabel(labelName, false)
	if err != nil {
		return nil, err
	}
	defer c.popLabel()
	c.pushScope()
	defer c.popScope()
	b := &blockStmt{id: l.id}
	// MySQL's order: variables and conditions, then cursors, then handlers.
	stage := 0
	for c.peek().is("DECLARE") {
		declTok := c.peek()
		kind, err := c.compileDeclare(b)
		if err != nil {
			return nil, err
		}
		switch {
		case kind < stage && kind == 0:
			return nil, newErr(erSPVarcondAfterCurshndlr, "42000", "Variable or condition declaration after cursor or handler declaration")
		case kind < stage && kind == 1:
			return nil, newErr(erSPCursorAfterHandler, "42000", "Cursor declaration after handler declaration")
		}
		_ = declTok
		stage = kind
		if err := c.endStatement(); err != nil {
			return nil, err
		}
	}
	body, err := c.compileList("END")
	if err != nil {
		return nil, err
	}
	b.body = body
	if err := c.expect("END"); err != nil {
		return nil, err
	}
	if err := c.endLabel(l); err != nil {
		return nil, err
	}
	return b, nil
}

// endStatement consumes the ';' that ends a statement of a list.
func (c *compiler) endStatement() error { return c.expectPunct(";") }

// compileList reads statements up to one of the words stop (not consumed).
func (c *compiler) compileList(stop ...string) ([]stmt, error) {
	var out []stmt
	for {
		t := c.peek()
		if t.kind == tokEOF {
			return nil, c.syntaxError()
		}
		for _, s := range stop {
			if t.is(s) && !(s == "END" && c.isEndOfStatementWord()) {
				return out, nil
			}
		}
		if t.is("DECLARE") {
			return nil, c.syntaxError()
		}
		s, err := c.compileStatement()
		if err != nil {
			return nil, err
		}
		if err := c.endStatement(); err != nil {
			return nil, err
		}
		if s != nil {
			out = append(out, s)
		}
	}
}

// isEndOfStatementWord is false: END at the start of a statement always
// closes the enclosing construct.
func (c *compiler) isEndOfStatementWord() bool { return false }

// compileDeclare reads one DECLARE and returns its stage: 0 variable or
// condition, 1 cursor, 2 handler.
func (c *compiler) compileDeclare(b *blockStmt) (int, error) {
	c.i++ // DECLARE
	switch {
	case c.peek().is("CONTINUE") || c.peek().is("EXIT") || c.peek().is("UNDO"):
		return 2, c.compileHandler(b)
	case c.peekAt(1).is("CONDITION"):
		return 0, c.compileCondition()
	case c.peekAt(1).is("CURSOR"):
		return 1, c.compileCursorDecl(b)
	}
	var names []string
	for {
		n, err := c.ident()
		if err != nil {
			return 0, err
		}
		names = append(names, n)
		if !c.acceptPunct(",") {
			break
		}
	}
	from := c.i
	c.scanUntil("DEFAULT")
	typeText := c.textSpan(from, c.i)
	t, err := varType(typeText)
	if err != nil {
		return 0, c.syntaxErrorAt(c.toks[from])
	}
	var def *expression
	if c.accept("DEFAULT") {
		from := c.i
		c.scanUntil()
		// DEFAULT is evaluated in the scope before these variables exist.
		if def, err = c.compileExpr(from, c.i); err != nil {
			return 0, err
		}
	}
	for _, n := range names {
		slot, err := c.declareVar(n, t)
		if err != nil {
			return 0, err
		}
		b.inits = append(b.inits, varInit{slot: slot, def: def, t: t, name: n})
	}
	return 0, nil
}

// compileCondition reads name CONDITION FOR value.
func (c *compiler) compileCondition() error {
	name, err := c.ident()
	if err != nil {
		return err
	}
	if err := c.expect("CONDITION", "FOR"); err != nil {
		return err
	}
	cv, err := c.readCondValue(false)
	if err != nil {
		return err
	}
	s := c.scopes[len(c.scopes)-1]
	key := strings.ToLower(name)
	if _, dup := s.conds[key]; dup {
		return newErr(erSPDupCond, "42000", "Duplicate condition: %s", name)
	}
	s.conds[key] = cv
	return nil
}

// compileHandler reads CONTINUE|EXIT HANDLER FOR value, ... statement.
func (c *compiler) compileHandler(b *blockStmt) error {
	kind := c.next()
	if kind.is("UNDO") {
		return notSupported("UNDO handlers")
	}
	if err := c.expect("HANDLER", "FOR"); err != nil {
		return err
	}
	h := &handler{exit: kind.is("EXIT")}
	for {
		cv, err := c.readCondValue(true)
		if err != nil {
			return err
		}
		if cv.kind == condWarning || cv.kind == condState && strings.HasPrefix(cv.state, "01") {
			return notSupported("SQLWARNING handlers (warnings do not raise conditions in SQL procedures yet)")
		}
		for _, prev := range b.handlers {
			for _, p := range prev.conds {
				if *p == *cv {
					return newErr(erSPDupHandler, "42000", "Duplicate handler declared in the same block")
				}
			}
		}
		for _, p := range h.conds {
			if *p == *cv {
				return newErr(erSPDupHandler, "42000", "Duplicate handler declared in the same block")
			}
		}
		h.conds = append(h.conds, cv)
		if !c.acceptPunct(",") {
			break
		}
	}
	body, err := c.compileStatement()
	if err != nil {
		return err
	}
	if body == nil {
		body = &blockStmt{}
	}
	h.body = body
	b.handlers = append(b.handlers, h)
	return nil
}
