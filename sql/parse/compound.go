package parse

import (
	"regexp"
	"strings"
)

// reCompoundHead is the start of a stored program whose body is SQL/PSM:
// CREATE [OR REPLACE] [DEFINER = ...] PROCEDURE|FUNCTION|TRIGGER. Its body's ';'
// end statements inside it, not the CREATE (MySQL's parser knows the
// compound statement; plrun's splitter counts its BEGIN ... END).
var reCompoundHead = regexp.MustCompile(`(?is)^create\s+(or\s+replace\s+)?(definer\s*=\s*\S+\s+)?(procedure|function|trigger)\b`)

// inCompound reports whether stmt (the text of a statement so far, up to
// a ';') is a SQL/PSM CREATE whose BEGIN ... END (or IF ... END IF, a
// loop ...) is still open, so the ';' belongs to its body.
func inCompound(stmt string) bool {
	stmt = trimLeading(stmt)
	if !reCompoundHead.MatchString(stmt) {
		return false
	}
	return compoundDepth(stmt) > 0
}

// compoundDepth counts the compound statements open at the end of s:
// BEGIN and CASE (statement or expression: both end in END) open one, and
// so do IF, WHILE, REPEAT and LOOP where a statement starts (after ';', a
// label's ':', or BEGIN, THEN, ELSE, DO, LOOP, REPEAT), which tells them
// from the IF() and REPEAT() functions and IF [NOT] EXISTS; END closes
// one (END IF, END WHILE ... name the one they close).
func compoundDepth(s string) int {
	depth := 0
	prev := ""
	stmtStart := false
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\'' || c == '"':
			i = SkipQuoted(s, i, c, true)
			prev, stmtStart = "", false
			continue
		case c == '`':
			i = SkipQuoted(s, i, c, false)
			prev, stmtStart = "", false
			continue
		case c == '#' || c == '-' && isDashComment(s, i):
			i = skipLineComment(s, i)
			continue
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			i = skipBlockComment(s, i)
			continue
		case c == '$' && (i == 0 || !isWordByte(s[i-1])):
			// A Lua or JavaScript $$ body: its words are not SQL's.
			i = skipDollarQuoted(s, i)
			prev, stmtStart = "", false
			continue
		case isWordByte(c) && (i == 0 || !isWordByte(s[i-1])):
			j := i
			for j < len(s) && isWordByte(s[j]) {
				j++
			}
			w := strings.ToUpper(s[i:j])
			next := false
			switch w {
			case "BEGIN", "CASE":
				if prev != "END" {
					depth++
				}
				next = w == "BEGIN"
			case "IF", "WHILE", "REPEAT", "LOOP":
				if prev != "END" && stmtStart {
					depth++
					next = w != "IF" && w != "WHILE"
				}
			case "END":
				depth--
			case "THEN", "ELSE", "DO":
				next = true
			}
			prev, stmtStart = w, next
			i = j
			continue
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		case c == ';' || c == ':':
			prev, stmtStart = "", true
		default:
			prev, stmtStart = "", false
		}
		i++
	}
	return depth
}
