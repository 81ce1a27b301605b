package psm

import (
	"strings"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// compiler reads a body's tokens once, resolving every name against the
// scopes open at that point, and builds the tree of compiled statements.
// Control statements are read here; expressions and plain statements are
// cut out as text and handed to the TiDB parser (expression.go).
type compiler struct {
	src      string
	toks     []token
	i        int
	lineBase int // added to a token's body line to give the line of the CREATE statement or file
	proc     string

	scopes      []*scope
	slotTypes   []types.ColType
	slotNames   []string
	ncursors    int
	cursorDecls []*cursorDecl
	labels      []*label
	nlabels     int
	function    bool      // RETURN allowed
	trig        *trigMode // compiling a trigger body (trigger.go), else nil
}

// scope is one BEGIN ... END block's declarations (or the parameters).
type scope struct {
	vars    map[string]int
	conds   map[string]*condValue
	cursors map[string]int
}

// label is a labelled (or unlabelled, for EXIT handlers) statement being
// compiled; LEAVE and ITERATE name it.
type label struct {
	name   string
	id     int
	isLoop bool
}

func newCompiler(def *procs.Definition, function bool) *compiler {
	c := &compiler{src: def.Body, toks: lex(def.Body), lineBase: def.BodyLine, proc: def.Name, function: function}
	if c.lineBase < 1 {
		c.lineBase = 1
	}
	return c
}

func (c *compiler) peek() token { return c.toks[c.i] }
func (c *compiler) peekAt(n int) token {
	if c.i+n >= len(c.toks) {
		return c.toks[len(c.toks)-1]
	}
	return c.toks[c.i+n]
}
func (c *compiler) next() token {
	t := c.toks[c.i]
	if t.kind != tokEOF {
		c.i++
	}
	return t
}

// accept consumes the word kw if it is next.
func (c *compiler) accept(kw string) bool {
	if c.peek().is(kw) {
		c.i++
		return true
	}
	return false
}

func (c *compiler) acceptPunct(p string) bool {
	if t := c.peek(); t.kind == tokPunct && t.text == p {
		c.i++
		return true
	}
	return false
}

// expect consumes the words kws in order or fails with 1064 at the first
// that is missing.
func (c *compiler) expect(kws ...string) error {
	for _, kw := range kws {
		if !c.accept(kw) {
			return c.syntaxError()
		}
	}
	return nil
}

func (c *compiler) expectPunct(p string) error {
	if !c.acceptPunct(p) {
		return c.syntaxError()
	}
	return nil
}

// syntaxError is MariaDB's 1064 for the text at the next token, with the
// line counted in the CREATE statement (or file).
func (c *compiler) syntaxError() *sqlerr.Error { return c.syntaxErrorAt(c.peek()) }

func (c *compiler) syntaxErrorAt(t token) *sqlerr.Error {
	near := c.src[t.pos:]
	if len(near) > 80 {
		near = near[:80]
	}
	return newErr(sqlerr.ErParse, "42000",
		"You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server version for the right syntax to use near '%s' at line %d",
		near, c.line(t))
}

func (c *compiler) line(t token) int { return c.lineBase + t.line - 1 }

// ident reads a bare or backquoted identifier.
func (c *compiler) ident() (string, error) {
	t := c.peek()
	if t.kind != tokWord && t.kind != tokQuoted || t.kind == tokWord && reserved[strings.ToUpper(t.text)] {
		return "", c.syntaxError()
	}
	c.i++
	return t.name(), nil
}

// reserved words that cannot name a variable, label or cursor.
var reserved = map[string]bool{
	"BEGIN": false, "END": true, "IF": true, "ELSE": true, "ELSEIF": true, "THEN": true, "WHILE": true, "DO": true,
	"REPEAT": true, "UNTIL": true, "LOOP": true, "LEAVE": true, "ITERATE": true, "DECLARE": true, "CASE": true,
	"WHEN": true, "SELECT": true, "INSERT": true, "UPDATE": true, "DELETE": true, "SET": true, "CURSOR": true,
	"HANDLER": false, "FOR": true, "FROM": true, "INTO": true, "WHERE": true, "DEFAULT": true, "CALL": true,
	"FETCH": true, "OPEN": false, "CLOSE": false, "SIGNAL": true, "RESIGNAL": true, "RETURN": true, "GET": true,
}

func (c *compiler) pushScope() *scope {
	s := &scope{vars: map[string]int{}, conds: map[string]*condValue{}, cursors: map[string]int{}}
	c.scopes = append(c.scopes, s)
	return s
}

func (c *compiler) popScope() { c.scopes = c.scopes[:len(c.scopes)-1] }

// declareVar gives name a new slot in the innermost scope.
func (c *compiler) declareVar(name string, t types.ColType) (int, error) {
	s := c.scopes[len(c.scopes)-1]
	key := strings.ToLower(name)
	if _, dup := s.vars[key]; dup {
		return 0, newErr(erSPDupVar, "42000", "Duplicate variable: %s", name)
	}
	slot := len(c.slotTypes)
	s.vars[key] = slot
	c.slotTypes = append(c.slotTypes, t)
	c.slotNames = append(c.slotNames, name)
	return slot, nil
}

// Local resolves a local variable or parameter in scope (expr.LocalResolver).
func (c *compiler) Local(name string) (int, types.ColType, bool) {
	key := strings.ToLower(name)
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if slot, ok := c.scopes[i].vars[key]; ok {
			return slot, c.slotTypes[slot], true
		}
	}
	return 0, types.ColType{}, false
}

func (c *compiler) lookupCond(name string) (*condValue, bool) {
	key := strings.ToLower(name)
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if cv, ok := c.scopes[i].conds[key]; ok {
			return cv, true
		}
	}
	return nil, false
}

func (c *compiler) lookupCursor(name string) (int, bool) {
	key := strings.ToLower(name)
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if id, ok := c.scopes[i].cursors[key]; ok {
			return id, true
		}
	}
	return 0, false
}

func (c *compiler) pushLabel(name string, isLoop bool) (*label, error) {
	if name != "" {
		for _, l := range c.labels {
			if strings.EqualFold(l.name, name) {
				return nil, newErr(erSPLabelRedefine, "42000", "Redefining label %s", name)
			}
		}
	}
	c.nlabels++
	l := &label{name: name, id: c.nlabels, isLoop: isLoop}
	c.labels = append(c.labels, l)
	return l, nil
}

func (c *compiler) popLabel() { c.labels = c.labels[:len(c.labels)-1] }

func (c *compiler) findLabel(name string) (*label, bool) {
	for i := len(c.labels) - 1; i >= 0; i-- {
		if c.labels[i].name != "" && strings.EqualFold(c.labels[i].name, name) {
			return c.labels[i], true
		}
	}
	return nil, false
}

// endLabel reads the optional label after END WHILE / END LOOP / END:
// it must repeat the begin label.
func (c *compiler) endLabel(l *label) error {
	t := c.peek()
	if t.kind != tokWord && t.kind != tokQuoted || t.is("END") {
		return nil
	}
	if t.kind == tokWord && (t.is("ELSE") || t.is("ELSEIF") || t.is("WHEN") || t.is("UNTIL")) {
		return nil
	}
	if l.name == "" || !strings.EqualFold(t.name(), l.name) {
		return newErr(erSPLabelMismatch, "42000", "End-label %s without match", t.name())
	}
	c.i++
	return nil
}

// textSpan is the body text from token from up to (not including) token to.
func (c *compiler) textSpan(from, to int) string {
	if to <= from {
		return ""
	}
	return c.src[c.toks[from].pos:c.toks[to-1].end]
}

// scanUntil advances to the first token at nesting depth 0 (parentheses,
// CASE ... END of expressions) that is one of the words stop or the
// punctuation ';', and returns the index where the scan began.
func (c *compiler) scanUntil(stop ...string) int {
	start := c.i
	depth, cases := 0, 0
	for {
		t := c.peek()
		switch {
		case t.kind == tokEOF:
			return start
		case t.kind == tokPunct && t.text == "(":
			depth++
		case t.kind == tokPunct && t.text == ")":
			depth--
		case t.kind == tokPunct && t.text == ";" && depth <= 0:
			return start
		case t.is("CASE"):
			cases++
		case t.is("END") && cases > 0:
			cases--
		case depth <= 0 && cases == 0 && t.kind == tokWord:
			for _, s := range stop {
				if t.is(s) {
					return start
				}
			}
		}
		c.i++
	}
}
