package procs

import (
	"strings"

	"github.com/plrun/plrun/sqlerr"
)

// ParseCreateFunction parses
//
//	CREATE [OR REPLACE] [DEFINER = user] FUNCTION [IF NOT EXISTS] name
//	    ([IN] p TYPE, ...) RETURNS TYPE characteristic...
//	    { LANGUAGE LUA|JAVASCRIPT AS $tag$ body $tag$ | RETURN expr | BEGIN ... END } [;]
//
// (MySQL 9's form for JavaScript, MariaDB's for SQL). A SQL body is kept as
// written ("RETURN a + 1", "BEGIN ... END") with Language LanguageSQL; the
// sql layer compiles it. Errors are *sqlerr.Error 1064, or 1235 for what
// plrun does not have (OUT parameters of functions).
func ParseCreateFunction(sql string) (*CreateStmt, error) {
	p := &parser{src: sql}
	h, err := p.readCreateHead("FUNCTION")
	if err != nil {
		return nil, err
	}
	st := &CreateStmt{Def: &Definition{Func: &FunctionDef{}}, OrReplace: h.orReplace, IfNotExists: h.ifNotExists}
	if err := p.signature(st.Def); err != nil {
		return nil, err
	}
	for _, prm := range st.Def.Params {
		if prm.Mode != ModeIn {
			return nil, sqlerr.New(sqlerr.ErNotSupportedYet,
				"This version of plrun doesn't yet support %s parameters of stored functions", prm.Mode)
		}
	}
	if !p.keyword("RETURNS") {
		return nil, p.syntaxError()
	}
	ret, err := p.returnsType()
	if err != nil {
		return nil, err
	}
	st.Def.Func.Returns = ret
	if err := p.characteristics(st, true); err != nil {
		return nil, err
	}
	st.Def.Func.Characteristics = st.Characteristics
	st.Def.Func.Comment = st.Comment
	if err := p.functionBody(st.Def); err != nil {
		return nil, err
	}
	return st, nil
}

// functionBody reads AS $tag$ ... $tag$ for a script language, or the SQL
// routine body (RETURN ... / BEGIN ...) to the end of the statement.
func (p *parser) functionBody(def *Definition) error {
	switch def.Language {
	case "", LanguageSQL:
		def.Language = LanguageSQL
		w := strings.ToUpper(p.peekWord())
		if w != "RETURN" && w != "BEGIN" {
			return p.syntaxError()
		}
		body := strings.TrimRight(p.src[p.pos:], " \t\r\n")
		body = strings.TrimRight(strings.TrimSuffix(body, ";"), " \t\r\n")
		if len(body) == len(w) {
			return p.syntaxError()
		}
		def.Body = body
		p.pos = len(p.src)
		return nil
	}
	if !p.keyword("AS") {
		return p.syntaxError()
	}
	if err := p.dollarBody(def); err != nil {
		return err
	}
	p.skipSpace()
	if p.peekByte() == ';' {
		p.pos++
		p.skipSpace()
	}
	if !p.eof() {
		return p.syntaxError()
	}
	return nil
}

// returnsType reads a RETURNS type: a name, an optional (...) and the
// attributes a return type may carry (UNSIGNED, ZEROFILL, SIGNED,
// CHARSET x, CHARACTER SET x, COLLATE x), normalised as typeText does.
func (p *parser) returnsType() (string, error) {
	word := p.peekWord()
	name := strings.ToUpper(word)
	if name == "" || name[0] >= '0' && name[0] <= '9' {
		return "", p.syntaxError()
	}
	// the word's own length: upper-casing bytes that are no UTF-8 makes
	// it longer (each becomes U+FFFD)
	p.pos += len(word)
	parts := []string{name}
	p.skipSpace()
	if p.peekByte() == '(' {
		end := strings.IndexByte(p.src[p.pos:], ')')
		if end < 0 {
			return "", p.syntaxError()
		}
		args := strings.Split(p.src[p.pos+1:p.pos+end], ",")
		for i := range args {
			args[i] = strings.ToUpper(strings.TrimSpace(args[i]))
		}
		parts[0] += "(" + strings.Join(args, ",") + ")"
		p.pos += end + 1
	}
	for {
		switch w := strings.ToUpper(p.peekWord()); w {
		case "UNSIGNED", "SIGNED", "ZEROFILL":
			p.pos += len(w)
			parts = append(parts, w)
		case "CHARSET", "COLLATE":
			p.pos += len(w)
			v, err := p.ident()
			if err != nil {
				return "", err
			}
			parts = append(parts, w, strings.ToUpper(v))
		case "CHARACTER":
			p.pos += len(w)
			if !p.keyword("SET") {
				return "", p.syntaxError()
			}
			v, err := p.ident()
			if err != nil {
				return "", err
			}
			parts = append(parts, "CHARSET", strings.ToUpper(v))
		default:
			return strings.Join(parts, " "), nil
		}
	}
}

// IsCreateFunction reports whether sql starts (after spaces and comments)
// with CREATE [OR REPLACE] [DEFINER = ...] FUNCTION.
func IsCreateFunction(sql string) bool { return isCreate(sql, "FUNCTION") }

// FormatCreateFunction prints def as MariaDB's SHOW CREATE FUNCTION does:
// the header, each characteristic on its own indented line, then the body
// (a SQL body as written, a script between dollar quotes). returns is the
// RETURNS type as MariaDB prints it ("int(11)"). ParseCreateFunction reads
// it back to an equal Definition.
func FormatCreateFunction(def *Definition, returns string) string {
	var b strings.Builder
	b.WriteString("CREATE DEFINER=`root`@`localhost` FUNCTION ")
	b.WriteString(quoteIdent(def.Name))
	b.WriteByte('(')
	for i, prm := range def.Params {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(paramName(prm.Name))
		b.WriteByte(' ')
		b.WriteString(prm.Type)
	}
	b.WriteString(") RETURNS ")
	b.WriteString(returns)
	if def.Language != LanguageSQL {
		b.WriteString("\n    LANGUAGE ")
		b.WriteString(def.Language)
	}
	for _, c := range def.Func.Characteristics {
		b.WriteString("\n    ")
		b.WriteString(c)
	}
	b.WriteByte('\n')
	if def.Language == LanguageSQL {
		b.WriteString(def.Body)
		return b.String()
	}
	b.WriteString("AS ")
	tag := safeDollarTag(def.Delimiter, def.Body)
	b.WriteString(tag)
	b.WriteString(def.Body)
	b.WriteString(tag)
	return b.String()
}

// paramName prints a parameter as MariaDB does, bare unless it needs quotes.
func paramName(name string) string {
	for i := 0; i < len(name); i++ {
		if !isIdentByte(name[i]) || name[i] >= 0x80 {
			return quoteIdent(name)
		}
	}
	if name == "" || name[0] >= '0' && name[0] <= '9' {
		return quoteIdent(name)
	}
	return name
}
