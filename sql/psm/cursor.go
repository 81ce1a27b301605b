package psm

import (
	"strings"

	"github.com/plrun/plrun/procs"
)

// cursorState is an open cursor: OPEN runs the query once and FETCH
// walks its rows (a materialised, insensitive cursor, as MySQL's).
type cursorState struct {
	res  *procs.Result
	next int
}

type cursorDecl struct {
	id    int
	name  string
	query *sqlStmt
}

func (c *compiler) compileCursorDecl(b *blockStmt) error {
	name, err := c.ident()
	if err != nil {
		return err
	}
	if err := c.expect("CURSOR", "FOR"); err != nil {
		return err
	}
	from := c.i
	if !c.peek().is("SELECT") && !c.peek().is("WITH") && !c.peek().is("(") {
		return c.syntaxError()
	}
	c.scanUntil()
	q, err := c.compileSQL(from, c.i)
	if err != nil {
		return err
	}
	s := c.scopes[len(c.scopes)-1]
	key := strings.ToLower(name)
	if _, dup := s.cursors[key]; dup {
		return newErr(erSPDupCurs, "42000", "Duplicate cursor: %s", name)
	}
	id := c.ncursors
	c.ncursors++
	s.cursors[key] = id
	c.cursorDecls = append(c.cursorDecls, &cursorDecl{id: id, name: name, query: q})
	b.cursors = append(b.cursors, id)
	return nil
}

// openClose is OPEN c or CLOSE c.
type openClose struct {
	decl *cursorDecl
	open bool
}

func (s *openClose) exec(r *runner) error {
	cur := r.cursors[s.decl.id]
	if !s.open {
		if cur == nil {
			return newErr(erSPCursorNotOpen, "24000", "Cursor is not open")
		}
		r.cursors[s.decl.id] = nil
		r.da.statementDone(0)
		return nil
	}
	if cur != nil {
		return newErr(erSPCursorAlreadyOpen, "24000", "Cursor is already open")
	}
	res, err := r.host.Exec(r.ctx, s.decl.query.text, r.args(s.decl.query.slots))
	if err != nil {
		return err
	}
	r.cursors[s.decl.id] = &cursorState{res: res}
	r.da.statementDone(0)
	return nil
}

func (c *compiler) cursorNamed() (*cursorDecl, error) {
	name, err := c.ident()
	if err != nil {
		return nil, err
	}
	id, ok := c.lookupCursor(name)
	if !ok {
		return nil, newErr(erSPCursorMismatch, "42000", "Undefined CURSOR: %s", name)
	}
	return c.cursorDecls[id], nil
}

func (c *compiler) compileOpenClose() (stmt, error) {
	open := c.next().is("OPEN")
	d, err := c.cursorNamed()
	if err != nil {
		return nil, err
	}
	return &openClose{decl: d, open: open}, nil
}

// fetch is FETCH [[NEXT] FROM] c INTO targets; past the last row it raises
// NOT FOUND (1329).
type fetch struct {
	decl    *cursorDecl
	targets []target
}

func (s *fetch) exec(r *runner) error {
	cur := r.cursors[s.decl.id]
	if cur == nil {
		return newErr(erSPCursorNotOpen, "24000", "Cursor is not open")
	}
	if cur.next >= len(cur.res.Rows) {
		return noData()
	}
	row := cur.res.Rows[cur.next]
	cur.next++
	if len(row) != len(s.targets) {
		return newErr(erSPWrongNoOfFetchArgs, "HY000", "Incorrect number of FETCH variables")
	}
	for i, tg := range s.targets {
		if err := r.store(tg, fromHost(row[i])); err != nil {
			return err
		}
	}
	r.da.statementDone(0)
	return nil
}

func (c *compiler) compileFetch() (stmt, error) {
	c.i++ // FETCH
	if c.accept("NEXT") {
		if err := c.expect("FROM"); err != nil {
			return nil, err
		}
	} else {
		c.accept("FROM")
	}
	d, err := c.cursorNamed()
	if err != nil {
		return nil, err
	}
	if err := c.expect("INTO"); err != nil {
		return nil, err
	}
	targets, err := c.readTargets()
	if err != nil {
		return nil, err
	}
	return &fetch{decl: d, targets: targets}, nil
}
