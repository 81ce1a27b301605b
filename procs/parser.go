package procs

import (
	"strings"

	"github.com/plrun/plrun/sqlerr"
)

// parser is a hand-written scanner for the small grammar of CREATE
// PROCEDURE headers. It never panics on bad input: every read checks eof.
type parser struct {
	src string
	pos int
}

func (p *parser) eof() bool { return p.pos >= len(p.src) }

func (p *parser) peekByte() byte {
	if p.eof() {
		return 0
	}
	return p.src[p.pos]
}

func (p *parser) syntaxError() *sqlerr.Error { return syntaxErrorAt(p.src, p.pos) }

// skipSpace skips white space and SQL comments (-- , #, /* */).
func (p *parser) skipSpace() {
	for !p.eof() {
		c := p.src[p.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			p.pos++
		case c == '#':
			p.skipLine()
		case c == '-' && strings.HasPrefix(p.src[p.pos:], "--") &&
			(p.pos+2 == len(p.src) || isSpace(p.src[p.pos+2])):
			p.skipLine()
		case c == '/' && strings.HasPrefix(p.src[p.pos:], "/*"):
			end := strings.Index(p.src[p.pos+2:], "*/")
			if end < 0 {
				p.pos = len(p.src)
				return
			}
			p.pos += 2 + end + 2
		default:
			return
		}
	}
}

func (p *parser) skipLine() {
	for !p.eof() && p.src[p.pos] != '\n' {
		p.pos++
	}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// peekWord returns the bare word at the current position without consuming it.
func (p *parser) peekWord() string {
	p.skipSpace()
	end := p.pos
	for end < len(p.src) && isIdentByte(p.src[end]) {
		end++
	}
	return p.src[p.pos:end]
}

// keyword consumes kw (case-insensitive, whole word) if it is next.
func (p *parser) keyword(kw string) bool {
	w := p.peekWord()
	if len(w) == len(kw) && strings.EqualFold(w, kw) {
		p.pos += len(w)
		return true
	}
	return false
}

// ident reads a bare or `backquoted` identifier.
func (p *parser) ident() (string, error) {
	p.skipSpace()
	if p.peekByte() == '`' {
		var b strings.Builder
		i := p.pos + 1
		for {
			if i >= len(p.src) {
				return "", p.syntaxError()
			}
			if p.src[i] == '`' {
				if i+1 < len(p.src) && p.src[i+1] == '`' {
					b.WriteByte('`')
					i += 2
					continue
				}
				break
			}
			b.WriteByte(p.src[i])
			i++
		}
		if b.Len() == 0 {
			return "", p.syntaxError()
		}
		p.pos = i + 1
		return b.String(), nil
	}
	w := p.peekWord()
	if w == "" || w[0] >= '0' && w[0] <= '9' {
		return "", p.syntaxError()
	}
	p.pos += len(w)
	return w, nil
}

// quoted reads a '...' or "..." string with SQL (”) and backslash escapes.
func (p *parser) quoted() (string, error) {
	p.skipSpace()
	q := p.peekByte()
	if q != '\'' && q != '"' {
		return "", p.syntaxError()
	}
	var b strings.Builder
	i := p.pos + 1
	for {
		if i >= len(p.src) {
			return "", p.syntaxError()
		}
		c := p.src[i]
		switch {
		case c == '\\' && i+1 < len(p.src):
			b.WriteByte(p.src[i+1])
			i += 2
			continue
		case c == q && i+1 < len(p.src) && p.src[i+1] == q:
			b.WriteByte(q)
			i += 2
			continue
		case c == q:
			p.pos = i + 1
			return b.String(), nil
		}
		b.WriteByte(c)
		i++
	}
}

// skipDefiner skips "= user[@host]" after DEFINER.
func (p *parser) skipDefiner() error {
	p.skipSpace()
	if p.peekByte() != '=' {
		return p.syntaxError()
	}
	p.pos++
	if err := p.userPart(); err != nil {
		return err
	}
	p.skipSpace()
	if p.peekByte() == '@' {
		p.pos++
		return p.userPart()
	}
	return nil
}

func (p *parser) userPart() error {
	p.skipSpace()
	switch p.peekByte() {
	case '\'', '"':
		_, err := p.quoted()
		return err
	case '%':
		p.pos++
		return nil
	}
	if p.keyword("CURRENT_USER") {
		p.skipSpace()
		if strings.HasPrefix(p.src[p.pos:], "()") {
			p.pos += 2
		}
		return nil
	}
	_, err := p.ident()
	return err
}

// signature reads "name(params)" into def.
func (p *parser) signature(def *Definition) error {
	name, err := p.ident()
	if err != nil {
		return err
	}
	if p.peekByte() == '.' && def.Func != nil {
		// db.name: functions may be created in another database
		// (splitProcName takes the name apart again).
		p.pos++
		fn, err := p.ident()
		if err != nil {
			return err
		}
		name = quoteIdent(name) + "." + quoteIdent(fn)
	}
	def.Name = name
	p.skipSpace()
	if p.peekByte() != '(' {
		return p.syntaxError()
	}
	p.pos++
	p.skipSpace()
	if p.peekByte() == ')' {
		p.pos++
		return nil
	}
	seen := map[string]bool{}
	for {
		prm, err := p.param()
		if err != nil {
			return err
		}
		key := strings.ToLower(prm.Name)
		if seen[key] {
			return sqlerr.New(sqlerr.ErParse, "Duplicate parameter: %s", prm.Name)
		}
		seen[key] = true
		def.Params = append(def.Params, prm)
		p.skipSpace()
		switch p.peekByte() {
		case ',':
			p.pos++
			continue
		case ')':
			p.pos++
			return nil
		}
		return p.syntaxError()
	}
}

func (p *parser) param() (Param, error) {
	prm := Param{Mode: ModeIn}
	switch {
	case p.keyword("INOUT"):
		prm.Mode = ModeInOut
	case p.keyword("OUT"):
		prm.Mode = ModeOut
	case p.keyword("IN"):
	}
	name, err := p.ident()
	if err != nil {
		return prm, err
	}
	prm.Name = name
	typ, err := p.typeText()
	if err != nil {
		return prm, err
	}
	prm.Type = typ
	return prm, nil
}

// typeText reads a SQL type up to the ',' or ')' that ends the parameter and
// normalises it: upper case outside quotes, single spaces between words, no
// spaces around parentheses and commas ("decimal( 12 , 2 )" -> "DECIMAL(12,2)").
func (p *parser) typeText() (string, error) {
	var b strings.Builder
	depth := 0
	start := -1
	needSpace := false
	for {
		p.skipSpace()
		if p.eof() {
			return "", p.syntaxError()
		}
		c := p.src[p.pos]
		switch {
		case (c == ',' || c == ')') && depth == 0:
			if b.Len() == 0 {
				return "", p.syntaxError()
			}
			return b.String(), nil
		case c == '(':
			if b.Len() == 0 {
				return "", p.syntaxError()
			}
			depth++
			b.WriteByte(c)
			p.pos++
			needSpace = false
		case c == ')':
			depth--
			b.WriteByte(c)
			p.pos++
			needSpace = true
		case c == ',':
			b.WriteByte(c)
			p.pos++
			needSpace = false
		case c == '\'' || c == '"':
			start = p.pos
			if _, err := p.quoted(); err != nil {
				return "", err
			}
			if needSpace {
				b.WriteByte(' ')
			}
			b.WriteString(p.src[start:p.pos])
			needSpace = true
		case isIdentByte(c) || c == '.' || c == '-' || c == '+':
			start = p.pos
			for !p.eof() && (isIdentByte(p.src[p.pos]) || p.src[p.pos] == '.' || p.src[p.pos] == '-' || p.src[p.pos] == '+') {
				p.pos++
			}
			if needSpace {
				b.WriteByte(' ')
			}
			b.WriteString(strings.ToUpper(p.src[start:p.pos]))
			needSpace = true
		default:
			return "", p.syntaxError()
		}
	}
}

// characteristics reads the routine characteristics before AS. With
// allowLanguage false (file headers) a LANGUAGE clause is an error because
// the file extension decides it.
func (p *parser) characteristics(st *CreateStmt, allowLanguage bool) error {
	for {
		w := strings.ToUpper(p.peekWord())
		switch w {
		case "LANGUAGE":
			if !allowLanguage || st.Def.Language != "" {
				return p.syntaxError()
			}
			p.pos += len(w)
			lang, err := p.ident()
			if err != nil {
				return err
			}
			lang = strings.ToUpper(lang)
			if lang == "JS" {
				lang = LanguageJavaScript
			}
			st.Def.Language = lang
		case "COMMENT":
			p.pos += len(w)
			c, err := p.quoted()
			if err != nil {
				return err
			}
			st.Comment = c
			st.Characteristics = append(st.Characteristics, "COMMENT "+quoteString(c))
		case "NOT":
			p.pos += len(w)
			if !p.keyword("DETERMINISTIC") {
				return p.syntaxError()
			}
			st.Characteristics = append(st.Characteristics, "NOT DETERMINISTIC")
		case "DETERMINISTIC":
			p.pos += len(w)
			st.Characteristics = append(st.Characteristics, "DETERMINISTIC")
		case "CONTAINS":
			p.pos += len(w)
			if !p.keyword("SQL") {
				return p.syntaxError()
			}
			st.Characteristics = append(st.Characteristics, "CONTAINS SQL")
		case "NO":
			p.pos += len(w)
			if !p.keyword("SQL") {
				return p.syntaxError()
			}
			st.Characteristics = append(st.Characteristics, "NO SQL")
		case "READS", "MODIFIES":
			p.pos += len(w)
			if !p.keyword("SQL") || !p.keyword("DATA") {
				return p.syntaxError()
			}
			st.Characteristics = append(st.Characteristics, w+" SQL DATA")
		case "SQL":
			p.pos += len(w)
			if !p.keyword("SECURITY") {
				return p.syntaxError()
			}
			switch {
			case p.keyword("DEFINER"):
				st.Characteristics = append(st.Characteristics, "SQL SECURITY DEFINER")
			case p.keyword("INVOKER"):
				st.Characteristics = append(st.Characteristics, "SQL SECURITY INVOKER")
			default:
				return p.syntaxError()
			}
		default:
			return nil
		}
	}
}

// dollarBody reads $tag$ body $tag$.
func (p *parser) dollarBody(def *Definition) error {
	p.skipSpace()
	if p.peekByte() != '$' {
		return p.syntaxError()
	}
	end := p.pos + 1
	for end < len(p.src) && isIdentByte(p.src[end]) {
		end++
	}
	if end >= len(p.src) || p.src[end] != '$' {
		return p.syntaxError()
	}
	tag := p.src[p.pos : end+1]
	bodyStart := end + 1
	closeAt := strings.Index(p.src[bodyStart:], tag)
	if closeAt < 0 {
		return p.syntaxError()
	}
	def.Delimiter = tag
	def.Body = p.src[bodyStart : bodyStart+closeAt]
	p.pos = bodyStart + closeAt + len(tag)
	return nil
}

// createHead is what comes before a routine's or trigger's name: CREATE
// [OR REPLACE] [DEFINER = user] kind [IF NOT EXISTS].
type createHead struct {
	orReplace, ifNotExists bool
	definer                string // as written, without "="; "" when absent
}

// readCreateHead reads a createHead for kind (PROCEDURE, FUNCTION,
// TRIGGER); a mismatch is a syntax error at the place it occurs.
func (p *parser) readCreateHead(kind string) (createHead, error) {
	var h createHead
	if !p.keyword("CREATE") {
		return h, p.syntaxError()
	}
	if p.keyword("OR") {
		if !p.keyword("REPLACE") {
			return h, p.syntaxError()
		}
		h.orReplace = true
	}
	if p.keyword("DEFINER") {
		from := p.pos
		if err := p.skipDefiner(); err != nil {
			return h, err
		}
		h.definer = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(p.src[from:p.pos]), "="))
	}
	if !p.keyword(kind) {
		return h, p.syntaxError()
	}
	if p.keyword("IF") {
		if !p.keyword("NOT") || !p.keyword("EXISTS") {
			return h, p.syntaxError()
		}
		h.ifNotExists = true
	}
	return h, nil
}
