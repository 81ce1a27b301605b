package procs

import (
	"strings"
)

// TriggerDef is a CREATE TRIGGER as written: which table, when and on
// which event it fires, where it goes among the table's other triggers of
// that timing and event, and its SQL/PSM body kept as written (one
// statement or BEGIN ... END), for the sql layer to compile.
type TriggerDef struct {
	DB, Name   string // DB is "" when the name is unqualified
	Timing     string // BEFORE or AFTER
	Event      string // INSERT, UPDATE or DELETE
	TableDB    string // "" when the table is unqualified
	Table      string
	Order      string // "", FOLLOWS or PRECEDES
	OrderOther string // the trigger named by FOLLOWS / PRECEDES
	Body       string
}

// CreateTriggerStmt is a parsed CREATE TRIGGER with its options.
type CreateTriggerStmt struct {
	Def         *TriggerDef
	OrReplace   bool
	IfNotExists bool
	// Definer is DEFINER=... as written ("" when absent).
	Definer string
}

// IsCreateTrigger reports whether sql is CREATE [OR REPLACE] [DEFINER = ...] TRIGGER.
func IsCreateTrigger(sql string) bool { return isCreate(sql, "TRIGGER") }

// ParseCreateTrigger parses MariaDB's
//
//	CREATE [OR REPLACE] [DEFINER = user] TRIGGER [IF NOT EXISTS] [db.]name
//	    {BEFORE | AFTER} {INSERT | UPDATE | DELETE} ON [db.]table FOR EACH ROW
//	    [{FOLLOWS | PRECEDES} other] body [;]
//
// Errors are *sqlerr.Error 1064 at the place MariaDB would point to.
func ParseCreateTrigger(sql string) (*CreateTriggerStmt, error) {
	p := &parser{src: sql}
	h, err := p.readCreateHead("TRIGGER")
	if err != nil {
		return nil, err
	}
	st := &CreateTriggerStmt{Def: &TriggerDef{}, OrReplace: h.orReplace, IfNotExists: h.ifNotExists, Definer: h.definer}
	d := st.Def
	if d.DB, d.Name, err = p.qualifiedIdent(); err != nil {
		return nil, err
	}
	if d.Timing = p.oneOf("BEFORE", "AFTER"); d.Timing == "" {
		return nil, p.syntaxError()
	}
	if d.Event = p.oneOf("INSERT", "UPDATE", "DELETE"); d.Event == "" {
		return nil, p.syntaxError()
	}
	if !p.keyword("ON") {
		return nil, p.syntaxError()
	}
	if d.TableDB, d.Table, err = p.qualifiedIdent(); err != nil {
		return nil, err
	}
	if !p.keyword("FOR") || !p.keyword("EACH") || !p.keyword("ROW") {
		return nil, p.syntaxError()
	}
	if d.Order = p.oneOf("FOLLOWS", "PRECEDES"); d.Order != "" {
		if d.OrderOther, err = p.ident(); err != nil {
			return nil, err
		}
	}
	p.skipSpace()
	body := strings.TrimRight(p.src[p.pos:], " \t\r\n")
	body = strings.TrimRight(strings.TrimSuffix(body, ";"), " \t\r\n")
	if body == "" {
		return nil, p.syntaxError()
	}
	d.Body = body
	return st, nil
}

// oneOf consumes and returns (upper-cased) the first of kws that is next,
// or returns "".
func (p *parser) oneOf(kws ...string) string {
	for _, kw := range kws {
		if p.keyword(kw) {
			return kw
		}
	}
	return ""
}

// qualifiedIdent reads name or db.name (either part bare or backquoted).
func (p *parser) qualifiedIdent() (db, name string, err error) {
	first, err := p.ident()
	if err != nil {
		return "", "", err
	}
	if p.peekByte() != '.' {
		return "", first, nil
	}
	p.pos++
	second, err := p.ident()
	if err != nil {
		return "", "", err
	}
	return first, second, nil
}
