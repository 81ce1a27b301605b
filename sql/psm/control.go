package psm

// Control-flow statements: IF, CASE, WHILE, REPEAT, LOOP, LEAVE, ITERATE.

type ifStmt struct {
	conds    []*expression
	branches [][]stmt
	els      []stmt
}

func (s *ifStmt) exec(r *runner) error {
	for i, cond := range s.conds {
		ok, err := r.truth(cond)
		if err != nil {
			return err
		}
		if ok {
			return r.runList(s.branches[i])
		}
	}
	return r.runList(s.els)
}

func (c *compiler) compileIf() (stmt, error) {
	c.i++ // IF
	s := &ifStmt{}
	for {
		from := c.i
		c.scanUntil("THEN")
		cond, err := c.compileExpr(from, c.i)
		if err != nil {
			return nil, err
		}
		if err := c.expect("THEN"); err != nil {
			return nil, err
		}
		body, err := c.compileList("ELSEIF", "ELSE", "END")
		if err != nil {
			return nil, err
		}
		s.conds, s.branches = append(s.conds, cond), append(s.branches, body)
		if !c.accept("ELSEIF") {
			break
		}
	}
	if c.accept("ELSE") {
		els, err := c.compileList("END")
		if err != nil {
			return nil, err
		}
		s.els = els
	}
	return s, c.expect("END", "IF")
}

// caseStmt is the CASE statement, simple (value set) or searched; no
// matching WHEN and no ELSE is error 1339.
type caseStmt struct {
	value    *expression
	whens    []*expression
	branches [][]stmt
	els      []stmt
	hasElse  bool
}

func (s *caseStmt) exec(r *runner) error {
	var v0 = nullValue
	if s.value != nil {
		v, err := r.eval(s.value)
		if err != nil {
			return err
		}
		v0 = v
	}
	for i, w := range s.whens {
		var hit bool
		if s.value != nil {
			v, err := r.eval(w)
			if err != nil {
				return err
			}
			hit = equalValues(v0, v)
		} else {
			ok, err := r.truth(w)
			if err != nil {
				return err
			}
			hit = ok
		}
		if hit {
			return r.runList(s.branches[i])
		}
	}
	if !s.hasElse {
		return newErr(erSPCaseNotFound, "20000", "Case not found for CASE statement")
	}
	return r.runList(s.els)
}

func (c *compiler) compileCase() (stmt, error) {
	c.i++ // CASE
	s := &caseStmt{}
	if !c.peek().is("WHEN") {
		from := c.i
		c.scanUntil("WHEN")
		v, err := c.compileExpr(from, c.i)
		if err != nil {
			return nil, err
		}
		s.value = v
	}
	for c.accept("WHEN") {
		from := c.i
		c.scanUntil("THEN")
		w, err := c.compileExpr(from, c.i)
		if err != nil {
			return nil, err
		}
		if err := c.expect("THEN"); err != nil {
			return nil, err
		}
		body, err := c.compileList("WHEN", "ELSE", "END")
		if err != nil {
			return nil, err
		}
		s.whens, s.branches = append(s.whens, w), append(s.branches, body)
	}
	if len(s.whens) == 0 {
		return nil, c.syntaxError()
	}
	if c.accept("ELSE") {
		els, err := c.compileList("END")
		if err != nil {
			return nil, err
		}
		s.els, s.hasElse = els, true
	}
	return s, c.expect("END", "CASE")
}

// loopStmt is WHILE, REPEAT and LOOP: pre is WHILE's condition, post
// REPEAT's UNTIL; LOOP has neither.
type loopStmt struct {
	id   int
	pre  *expression
	post *expression
	body []stmt
}

func (s *loopStmt) exec(r *runner) error {
	for {
		if err := r.ctx.Err(); err != nil {
			return &unhandled{contextCause(r)}
		}
		if s.pre != nil {
			ok, err := r.truth(s.pre)
			if err != nil || !ok {
				return err
			}
		}
		err := r.runList(s.body)
		if j, ok := err.(*jump); ok && j.id == s.id {
			if !j.iterate {
				return nil
			}
			err = nil
		}
		if err != nil {
			return err
		}
		if s.post != nil {
			ok, err := r.truth(s.post)
			if err != nil || ok {
				return err
			}
		}
	}
}

// compileLoop reads WHILE/REPEAT/LOOP, the next word.
func (c *compiler) compileLoop(labelName string) (stmt, error) {
	kw := c.next()
	l, err := c.pushLabel(labelName, true)
	if err != nil {
		return nil, err
	}
	defer c.popLabel()
	s := &loopStmt{id: l.id}
	switch {
	case kw.is("WHILE"):
		from := c.i
		c.scanUntil("DO")
		if s.pre, err = c.compileExpr(from, c.i); err != nil {
			return nil, err
		}
		if err := c.expect("DO"); err != nil {
			return nil, err
		}
		if s.body, err = c.compileList("END"); err != nil {
			return nil, err
		}
		err = c.expect("END", "WHILE")
	case kw.is("REPEAT"):
		if s.body, err = c.compileList("UNTIL"); err != nil {
			return nil, err
		}
		c.i++ // UNTIL
		from := c.i
		c.scanUntil("END")
		if s.post, err = c.compileExpr(from, c.i); err != nil {
			return nil, err
		}
		err = c.expect("END", "REPEAT")
	default:
		if s.body, err = c.compileList("END"); err != nil {
			return nil, err
		}
		err = c.expect("END", "LOOP")
	}
	if err != nil {
		return nil, err
	}
	return s, c.endLabel(l)
}

// jumpStmt is LEAVE or ITERATE.
type jumpStmt struct{ j jump }

func (s *jumpStmt) exec(*runner) error { j := s.j; return &j }

func (c *compiler) compileJump() (stmt, error) {
	kw := c.next()
	name, err := c.ident()
	if err != nil {
		return nil, err
	}
	l, ok := c.findLabel(name)
	iterate := kw.is("ITERATE")
	if !ok || iterate && !l.isLoop {
		return nil, newErr(erSPLilabelMismatch, "42000", "%s with no matching label: %s", upper(kw.text), name)
	}
	return &jumpStmt{j: jump{id: l.id, iterate: iterate}}, nil
}
