package psm

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// expression is a compiled expression of the body (a condition, a SET
// value, a DEFAULT). native runs in the session's expr.Env with the
// locals as Ctx.Locals, without a round trip through the statement path;
// query is the same expression as "SELECT ..." with the locals as ?
// placeholders (slots), used when the host offers no Env or the
// expression needs what sql/expr cannot do alone (a subquery).
type expression struct {
	native *expr.Expr
	query  string
	slots  []int
	text   string
}

// compileExpr compiles the body text of tokens [from, to).
func (c *compiler) compileExpr(from, to int) (*expression, error) {
	if to <= from {
		return nil, c.syntaxErrorAt(c.toks[from])
	}
	text := c.textSpan(from, to)
	st, err := parse.ParseOne("SELECT " + text)
	if err != nil {
		return nil, c.syntaxErrorIn(err, from, len("SELECT "))
	}
	sel, ok := st.(*ast.SelectStmt)
	if !ok || sel.From != nil || len(sel.Fields.Fields) != 1 || sel.Fields.Fields[0].Expr == nil || sel.Fields.Fields[0].AsName.L != "" {
		return nil, c.syntaxErrorAt(c.toks[from])
	}
	e := &expression{text: text}
	sc := &expr.Scope{Locals: c}
	if ne, err := sc.Compile(sel.Fields.Fields[0].Expr); err == nil && !ne.HasAgg {
		e.native = ne
	}
	q, slots, err := c.substitute(st)
	if err != nil {
		return nil, err
	}
	e.query, e.slots = q, slots
	return e, nil
}

// sqlStmt is a statement of the body that the host runs (INSERT, UPDATE,
// CALL, DDL, a SELECT's query part...): text with each local variable it
// names replaced by a ? bound to the variable's slot, so the engine parses
// and plans it once (its plan cache) however often a loop runs it.
type sqlStmt struct {
	text   string
	slots  []int
	line   int
	isCall bool
	// callVars are the locals a CALL passes as bare arguments: each goes
	// as a user variable, so an OUT or INOUT parameter writes it back.
	callVars []callVar
}

// callVar is a local passed to a CALL as @name.
type callVar struct {
	name string
	slot int
}

// callVars rewrites each CALL argument that is a bare local to a user
// variable named for its slot.
func (c *compiler) callVars(call *ast.CallStmt) []callVar {
	var out []callVar
	for i, a := range call.Procedure.Args {
		x, ok := a.(*ast.ColumnNameExpr)
		if !ok || x.Name.Table.L != "" || x.Name.Schema.L != "" {
			continue
		}
		if slot, _, ok := c.Local(x.Name.Name.L); ok {
			name := callVarPrefix + strconv.Itoa(slot)
			call.Procedure.Args[i] = &ast.VariableExpr{Name: name}
			out = append(out, callVar{name: name, slot: slot})
		}
	}
	return out
}

const callVarPrefix = "__psm_arg_"

// compileSQL compiles the statement text of tokens [from, to).
func (c *compiler) compileSQL(from, to int) (*sqlStmt, error) {
	text := c.textSpan(from, to)
	p, err := parse.Parse(text, 0)
	if err != nil {
		return nil, c.syntaxErrorIn(err, from, 0)
	}
	s := &sqlStmt{text: text, line: c.line(c.toks[from])}
	if p.Node == nil {
		return s, nil // plrun's own statements (DO blocks, CHECKPOINT ...): no expressions to bind
	}
	if call, ok := p.Node.(*ast.CallStmt); ok {
		s.isCall = true
		s.callVars = c.callVars(call)
	}
	c.nameLocalFields(p.Node)
	if s.text, s.slots, err = c.substitute(p.Node); err != nil {
		return nil, err
	}
	if s.slots == nil && s.callVars == nil {
		s.text = text // nothing bound: the text as written
	}
	return s, nil
}

// reNear is the text a parser error says it stopped at: TiDB's
// `near "..."` or sql/parse's MySQL-style `near '...'`.
var reNear = regexp.MustCompile(`(?s)near (?:"(.*)"|'(.*)' at line \d+)\s*$`)

// syntaxErrorIn turns the parser's error for the text that starts at
// token from (after a prefix of skip bytes the compiler added) into
// MariaDB's 1064 near the token the parser stopped at, on the line of the
// CREATE statement. An error that is not a syntax error passes through.
func (c *compiler) syntaxErrorIn(err error, from, skip int) error {
	if e, ok := sqlerr.As(err); ok && e.Code != sqlerr.ErParse {
		return err
	}
	m := reNear.FindStringSubmatch(err.Error())
	if m == nil {
		return c.syntaxErrorAt(c.toks[from])
	}
	near := m[1] + m[2]
	rest := c.src[c.toks[from].pos:]
	off := len(rest)
	if near != "" {
		if i := strings.LastIndex(rest, near); i >= 0 {
			off = i
		} else if i := strings.Index(rest, near[:min(len(near), 20)]); i >= 0 {
			off = i
		}
	} else {
		// At the end of the text: the token after it.
		off = len(c.textSpan(from, c.i))
	}
	pos := c.toks[from].pos + off
	for i := from; i < len(c.toks); i++ {
		if c.toks[i].pos >= pos {
			return c.syntaxErrorAt(c.toks[i])
		}
	}
	return c.syntaxErrorAt(c.toks[len(c.toks)-1])
}

// localMarker renames every bare column name that is a local variable in
// scope to a sentinel the restored text is scanned for.
type localMarker struct {
	c     *compiler
	found bool
	err   error // a trigger's NEW.col or OLD.col that is none (trigger.go)
}

const markerPrefix = "__psm_local_"

func (v *localMarker) Enter(n ast.Node) (ast.Node, bool) {
	x, ok := n.(*ast.ColumnNameExpr)
	if !ok || x.Name.Schema.L != "" {
		return n, false
	}
	name := x.Name.Name.L
	if x.Name.Table.L != "" {
		if v.c.trig == nil || (x.Name.Table.L != "new" && x.Name.Table.L != "old") {
			return n, false
		}
		// NEW.col / OLD.col of a trigger: the row's column, a local.
		name = x.Name.Table.L + "." + name
		if _, _, ok := v.c.Local(name); !ok && v.err == nil {
			v.err = v.c.trig.missing(x.Name.Table.L, x.Name.Name.O)
		}
		x.Name.Table = ast.NewCIStr("")
	}
	if slot, _, ok := v.c.Local(name); ok {
		x.Name.Name = ast.NewCIStr(markerPrefix + strconv.Itoa(slot))
		v.found = true
	}
	return n, true
}

func (v *localMarker) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// substitute restores node's text with its local variables as ?
// placeholders and returns their slots in placeholder order; slots is nil
// when the statement names none.
func (c *compiler) substitute(node ast.Node) (string, []int, error) {
	m := &localMarker{c: c}
	node.Accept(m)
	if m.err != nil {
		return "", nil, m.err
	}
	var sb strings.Builder
	if err := node.Restore(format.NewRestoreCtx(format.DefaultRestoreFlags, &sb)); err != nil {
		return "", nil, notSupported(fmt.Sprintf("this statement in a SQL procedure (%v)", err))
	}
	text := sb.String()
	if !m.found {
		return text, nil, nil
	}
	var out strings.Builder
	slots := []int{}
	last := 0
	for _, t := range lex(text) {
		if t.kind != tokQuoted && t.kind != tokWord {
			continue
		}
		name := t.name()
		if !strings.HasPrefix(name, markerPrefix) {
			continue
		}
		slot, err := strconv.Atoi(name[len(markerPrefix):])
		if err != nil {
			continue
		}
		out.WriteString(text[last:t.pos])
		out.WriteByte('?')
		last = t.end
		slots = append(slots, slot)
	}
	out.WriteString(text[last:])
	return out.String(), slots, nil
}

// args are the values of slots, as Host.Exec takes them.
func (r *runner) args(slots []int) []any {
	if len(slots) == 0 {
		return nil
	}
	out := make([]any, len(slots))
	for i, s := range slots {
		out[i] = hostArg(r.locals[s])
	}
	return out
}

// eval computes e: natively when the host lends its Env, else as a
// one-row SELECT through the host.
func (r *runner) eval(e *expression) (types.Value, error) {
	if e.native != nil && r.env != nil {
		r.ectx.Locals = r.locals
		return e.native.Fn(&r.ectx)
	}
	res, err := r.host.Exec(r.ctx, e.query, r.args(e.slots))
	if err != nil {
		return types.Null, err
	}
	if len(res.Rows) != 1 || len(res.Rows[0]) != 1 {
		return types.Null, newErr(sqlerr.ErUnknown, "HY000", "PROCEDURE %s: the expression %s gave no single value", r.prog.name, e.text)
	}
	return fromHost(res.Rows[0][0]), nil
}

// truth is a condition's value: NULL is false.
func (r *runner) truth(e *expression) (bool, error) {
	v, err := r.eval(e)
	if err != nil {
		return false, err
	}
	t, known := v.Truthy()
	return t && known, nil
}

// nameLocalFields gives each result column of a SELECT that reads a local
// variable, and has no alias, its text as written as its name: MariaDB
// names `SELECT e, e + 1` in a procedure "e" and "e + 1", where the
// restored statement would be named by its placeholders ("?", "?+1").
func (c *compiler) nameLocalFields(node ast.Node) {
	sel, ok := node.(*ast.SelectStmt)
	if so, isSetOp := node.(*ast.SetOprStmt); isSetOp && so.SelectList != nil && len(so.SelectList.Selects) > 0 {
		sel, ok = so.SelectList.Selects[0].(*ast.SelectStmt)
	}
	if !ok || sel.Fields == nil {
		return
	}
	for _, f := range sel.Fields.Fields {
		if f.WildCard != nil || f.AsName.L != "" || f.Text() == "" || f.Expr == nil {
			continue
		}
		r := &readsLocal{c: c}
		f.Expr.Accept(r)
		if r.found {
			f.AsName = ast.NewCIStr(f.Text())
		}
	}
}

// readsLocal finds a bare column name that is a local variable in scope.
type readsLocal struct {
	c     *compiler
	found bool
}

func (v *readsLocal) Enter(n ast.Node) (ast.Node, bool) {
	if x, ok := n.(*ast.ColumnNameExpr); ok && x.Name.Schema.L == "" && x.Name.Table.L == "" {
		if _, _, local := v.c.Local(x.Name.Name.L); local {
			v.found = true
		}
	}
	return n, v.found
}

func (v *readsLocal) Leave(n ast.Node) (ast.Node, bool) { return n, true }
