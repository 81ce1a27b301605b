package procs

import (
	"fmt"
	"strings"

	"github.com/plrun/plrun/sqlerr"
)

// CreateStmt is a parsed CREATE PROCEDURE statement.
type CreateStmt struct {
	Def         *Definition
	OrReplace   bool
	IfNotExists bool
	// Comment is the COMMENT characteristic, if any. Definition has no
	// field for it, so it is not stored by the catalog.
	Comment string
	// Characteristics are the characteristics other than LANGUAGE, in
	// order and normalised (a function stores them: FunctionDef).
	Characteristics []string
}

// Language names accepted in LANGUAGE clauses.
const (
	LanguageLua        = "LUA"
	LanguageJavaScript = "JAVASCRIPT"
)

// ParseCreate parses
//
//	CREATE [OR REPLACE] [DEFINER = user] PROCEDURE [IF NOT EXISTS] name
//	    ([IN|OUT|INOUT] p TYPE, ...) characteristic... AS $tag$ body $tag$ [;]
//
// where characteristic is LANGUAGE name, COMMENT 'text', [NOT] DETERMINISTIC,
// CONTAINS SQL, NO SQL, READS SQL DATA, MODIFIES SQL DATA or SQL SECURITY
// {DEFINER|INVOKER}. LANGUAGE is required. Errors are *sqlerr.Error 1064.
func ParseCreate(sql string) (def *Definition, orReplace bool, err error) {
	st, err := ParseCreateStmt(sql)
	if err != nil {
		return nil, false, err
	}
	return st.Def, st.OrReplace, nil
}

// ParseCreateStmt is ParseCreate that also reports IF NOT EXISTS and COMMENT.
func ParseCreateStmt(sql string) (*CreateStmt, error) {
	p := &parser{src: sql}
	h, err := p.readCreateHead("PROCEDURE")
	if err != nil {
		return nil, err
	}
	st := &CreateStmt{Def: &Definition{Definer: h.definer}, OrReplace: h.orReplace, IfNotExists: h.ifNotExists}
	if err := p.signature(st.Def); err != nil {
		return nil, err
	}
	charFrom := p.pos
	if err := p.characteristics(st, true); err != nil {
		return nil, err
	}
	if st.Def.Language == "" || st.Def.Language == LanguageSQL {
		if err := p.sqlBody(st.Def, charFrom); err != nil {
			return nil, err
		}
		return st, nil
	}
	if !p.keyword("AS") {
		return nil, p.syntaxError()
	}
	if err := p.dollarBody(st.Def); err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.peekByte() == ';' {
		p.pos++
		p.skipSpace()
	}
	if !p.eof() {
		return nil, p.syntaxError()
	}
	return st, nil
}

// sqlBody takes the rest of the statement as a SQL/PSM body (BEGIN ...
// END or one statement); sql/psm compiles it. The characteristics read
// since charFrom are kept as written for SHOW CREATE PROCEDURE.
func (p *parser) sqlBody(def *Definition, charFrom int) error {
	def.Language = LanguageSQL
	def.Characteristics = strings.Join(strings.Fields(p.src[charFrom:p.pos]), " ")
	p.skipSpace()
	if p.eof() || p.peekByte() == '$' || strings.EqualFold(p.peekWord(), "AS") {
		// AS $$ ... $$ needs a LANGUAGE: say which ones there are.
		return sqlerr.New(sqlerr.ErParse, "You have an error in your SQL syntax; a procedure body is BEGIN ... END (SQL), or LANGUAGE LUA / LANGUAGE JAVASCRIPT AS $$ ... $$; near '%s' at line %d",
			nearText(p.src[p.pos:]), 1+strings.Count(p.src[:p.pos], "\n"))
	}
	def.BodyLine = 1 + strings.Count(p.src[:p.pos], "\n")
	def.Body = strings.TrimRight(p.src[p.pos:], " \t\r\n;")
	def.Delimiter = ""
	if strings.TrimSpace(def.Body) == "" {
		// "CREATE PROCEDURE p();": no body at all.
		return sqlerr.New(sqlerr.ErParse, "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '' at line %d", def.BodyLine)
	}
	return nil
}

func nearText(s string) string {
	if len(s) > 80 {
		return s[:80]
	}
	return s
}

// IsCreateProcedure reports whether sql starts (after spaces and comments)
// with CREATE [OR REPLACE] [DEFINER = ...] PROCEDURE. It does not validate the
// rest of the statement.
func IsCreateProcedure(sql string) bool { return isCreate(sql, "PROCEDURE") }

// isCreate reports whether sql is CREATE [OR REPLACE] [DEFINER = ...] kind.
func isCreate(sql, kind string) bool {
	p := &parser{src: sql}
	if !p.keyword("CREATE") {
		return false
	}
	if p.keyword("OR") && !p.keyword("REPLACE") {
		return false
	}
	if p.keyword("DEFINER") && p.skipDefiner() != nil {
		return false
	}
	return p.keyword(kind)
}

// FormatCreate prints def as a CREATE PROCEDURE statement that ParseCreate
// reads back to an equal Definition (Created/Modified aside).
func FormatCreate(def *Definition) string {
	var b strings.Builder
	b.WriteString("CREATE ")
	if def.Definer != "" {
		b.WriteString("DEFINER=")
		b.WriteString(def.Definer)
		b.WriteByte(' ')
	}
	b.WriteString("PROCEDURE ")
	b.WriteString(quoteIdent(def.Name))
	b.WriteByte('(')
	for i, prm := range def.Params {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(prm.Mode.String())
		b.WriteByte(' ')
		b.WriteString(quoteIdent(prm.Name))
		b.WriteByte(' ')
		b.WriteString(prm.Type)
	}
	if def.Language == LanguageSQL {
		b.WriteString(")\n")
		if def.Characteristics != "" {
			b.WriteString(def.Characteristics)
			b.WriteByte('\n')
		}
		b.WriteString(def.Body)
		return b.String()
	}
	b.WriteString(")\nLANGUAGE ")
	b.WriteString(def.Language)
	b.WriteString("\nAS ")
	tag := safeDollarTag(def.Delimiter, def.Body)
	b.WriteString(tag)
	b.WriteString(def.Body)
	b.WriteString(tag)
	return b.String()
}

// safeDollarTag returns want if it is a well-formed tag that does not occur
// in body, else the first of $$, $proc$, $proc1$, ... that does not.
func safeDollarTag(want, body string) string {
	if validDollarTag(want) && !strings.Contains(body, want) && !strings.HasSuffix(body, want[:len(want)-1]) {
		return want
	}
	for i := 0; ; i++ {
		tag := "$$"
		switch {
		case i == 1:
			tag = "$proc$"
		case i > 1:
			tag = fmt.Sprintf("$proc%d$", i)
		}
		// A body ending in "$" or "$proc" would fuse with the closing tag.
		if !strings.Contains(body, tag) && !strings.HasSuffix(body, tag[:len(tag)-1]) {
			return tag
		}
	}
}

func validDollarTag(tag string) bool {
	if len(tag) < 2 || tag[0] != '$' || tag[len(tag)-1] != '$' {
		return false
	}
	for i := 1; i < len(tag)-1; i++ {
		if !isIdentByte(tag[i]) {
			return false
		}
	}
	return true
}

func quoteString(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\\`, `\\\\`), "'", "''") + "'"
}

func quoteIdent(name string) string {
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

// syntaxErrorAt builds MySQL's 1064 message for the text at pos of src.
func syntaxErrorAt(src string, pos int) *sqlerr.Error {
	if pos > len(src) {
		pos = len(src)
	}
	line := 1 + strings.Count(src[:pos], "\n")
	near := src[pos:]
	if len(near) > 80 {
		near = near[:80]
	}
	return sqlerr.New(sqlerr.ErParse,
		"You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '%s' at line %d",
		near, line)
}
