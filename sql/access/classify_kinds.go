package access

import (
	"strings"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/privilege"
)

// kindNeeds classifies the statements plrun's own pre-scan parses.
func kindNeeds(p *parse.Stmt) []Need {
	switch p.Kind {
	case parse.KindLockTables:
		var out []Need
		for _, l := range p.Locks {
			if l.ViaView {
				continue // a view's table: the view's SELECT is checked
			}
			out = append(out, Need{Priv: privilege.Select, Scope: OnTable, DB: l.Schema, Name: l.Name},
				Need{Priv: privilege.LockTables, Scope: OnDatabase, DB: l.Schema})
		}
		return out
	case parse.KindCreateProc:
		def, _, err := procs.ParseCreate(p.Text)
		if err != nil {
			return none // the statement fails on its syntax first
		}
		return createRoutineNeeds(def.Name, def.Definer)
	case parse.KindCreateFunc:
		st, err := procs.ParseCreateFunction(p.Text)
		if err != nil || st.Def == nil {
			return none
		}
		return createRoutineNeeds(st.Def.Name, st.Def.Definer)
	case parse.KindDropProc, parse.KindDropFunc:
		db, name := splitName(p.Name)
		return []Need{{Priv: privilege.AlterRoutine, Scope: OnRoutine, DB: db, Name: name, Verb: "alter routine", Function: p.Kind == parse.KindDropFunc}}
	case parse.KindCreateTrigger:
		st, err := procs.ParseCreateTrigger(p.Text)
		if err != nil || st.Def == nil {
			return none
		}
		out := []Need{{Priv: privilege.Trigger, Scope: OnTable, DB: st.Def.TableDB, Name: st.Def.Table}}
		return append(out, definerNeeds(st.Definer)...)
	case parse.KindDropTrigger, parse.KindShowCreateTrigger:
		db, name := splitName(p.Name)
		return []Need{{Priv: privilege.Trigger, Scope: OnTriggerTable, DB: db, Name: name}}
	case parse.KindShowTriggers:
		return []Need{{Scope: AnyInDatabase, DB: p.Name}}
	case parse.KindShowProcStatus, parse.KindShowFuncStatus, parse.KindDoBlock:
		// the listings show what the account may see; a DO block's
		// statements are each checked as they run
		return none
	case parse.KindShowCreateProc:
		db, name := splitName(p.Name)
		return []Need{{Scope: SeeRoutine, DB: db, Name: name, Verb: "PROCEDURE"}}
	case parse.KindShowCreateFunc:
		db, name := splitName(p.Name)
		return []Need{{Scope: SeeRoutine, DB: db, Name: name, Verb: "FUNCTION", Function: true}}
	case parse.KindAlterSystem, parse.KindSetPersist, parse.KindResetPersist:
		return []Need{{Priv: privilege.Super, Scope: Global}}
	case parse.KindShowEngine:
		// SHOW ENGINE ... STATUS shows every session's lock waits and
		// statements: MySQL asks for PROCESS (1227)
		return []Need{{Priv: privilege.Process, Scope: Global}}
	case parse.KindCheckpoint:
		// a checkpoint flushes the tables to disk: FLUSH's privilege
		return []Need{{Priv: privilege.Reload, Scope: Global}}
	case parse.KindLoadProc:
		// reads server files and creates or replaces procedures in any
		// database the files name
		return []Need{{Priv: privilege.File, Scope: Global}, {Priv: privilege.CreateRoutine | privilege.AlterRoutine, Scope: Global}}
	}
	return unknown
}

// createRoutineNeeds: CREATE ROUTINE on the routine's database (1044);
// naming another account as DEFINER also needs SUPER.
func createRoutineNeeds(name, definer string) []Need {
	db, _ := splitName(name)
	return append([]Need{{Priv: privilege.CreateRoutine, Scope: OnDatabase, DB: db}}, definerNeeds(definer)...)
}

// definerNeeds: DEFINER = another account needs SUPER (MySQL's SET_USER_ID).
func definerNeeds(definer string) []Need {
	if definer == "" {
		return nil
	}
	user, host, current := SplitAccount(definer)
	if current {
		return nil
	}
	return []Need{{Priv: privilege.Super, Scope: Global, Name: selfCheck(user, host)}}
}

// SplitAccount takes a DEFINER's account apart ("`u`@`h`", "'u'@'%'",
// u@localhost, CURRENT_USER[()]); current is true for CURRENT_USER. A
// missing host is '%', as MySQL reads it.
func SplitAccount(s string) (user, host string, current bool) {
	s = strings.TrimSpace(s)
	if u := strings.ToUpper(s); u == "CURRENT_USER" || u == "CURRENT_USER()" {
		return "", "", true
	}
	user, host, found := strings.Cut(s, "@")
	if !found {
		host = "%"
	}
	return unquote(user), unquote(host), false
}

// splitName takes "[db.]name" (either part may be `quoted`) apart; db is
// "" when not named.
func splitName(s string) (db, name string) {
	if strings.HasPrefix(s, "`") {
		if end := strings.Index(s[1:], "`"); end >= 0 && len(s) > end+2 && s[end+2] == '.' {
			return unquote(s[:end+2]), unquote(s[end+3:])
		}
		return "", unquote(s)
	}
	if db, name, ok := strings.Cut(s, "."); ok {
		return unquote(db), unquote(name)
	}
	return "", unquote(s)
}

func unquote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '`' || s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}
