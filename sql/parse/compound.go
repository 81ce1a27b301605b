package parse

import (
	"regexp"
	"strings"
)

// reCompoundHead is the start of a stored program whose body is SQL/PSM:
// CREATE [OR REPLACE] [DEFINER = ...] PROCEDURE|FUNCTION. Its body's ';'
// end statements inside it, not the CREATE (MySQL's parser knows the
// compound statement; plrun's splitter counts its BEGIN ... END).
var reCompoundHead = regexp.MustCompile(`(?is)^create\s+(or\s+replace\s+)?(definer\s*=\s*\S+\s+)?(procedure|function)\b`)

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
// BEGIN, CASE, and the statement words IF, WHILE, REPEAT, LOOP open one
// (not IF(...) or REPEAT(...), the functions, nor IF [NOT] EXISTS), END
// closes one (END IF, END WHILE ... name the one they close).
func compoundDepth(s string) int {
	depth := 0
	prev := ""
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\'' || c == '"':
			i = skipQuoted(s, i, c, true)
			prev = ""
			continue
		case c == '`':
			i = skipQuoted(s, i, c, false)
			prev = ""
			continue
		case c == '#' || c == '-' && isDashComment(s, i):
			i = skipLineComment(s, i)
			continue
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			i = skipBlockComment(s, i)
			continue
		case isWordByte(c) && (i == 0 || !isWordByte(s[i-1])):
			j := i
			for j < len(s) && isWordByte(s[j]) {
				j++
			}
			w := strings.ToUpper(s[i:j])
			switch w {
			case "BEGIN", "CASE":
				if prev != "END" {
					depth++
				}
			case "IF", "WHILE", "REPEAT", "LOOP":
				if prev != "END" && !followedBy(s, j, "(") && !followedByWord(s, j, "EXISTS") && !followedByWord(s, j, "NOT") {
					depth++
				}
			case "END":
				depth--
			}
			prev = w
			i = j
			continue
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			prev = ""
		}
		i++
	}
	return depth
}

func followedBy(s string, j int, p string) bool {
	return strings.HasPrefix(strings.TrimLeft(s[j:], " \t\r\n"), p)
}

func followedByWord(s string, j int, w string) bool {
	rest := strings.TrimLeft(s[j:], " \t\r\n")
	return len(rest) >= len(w) && strings.EqualFold(rest[:len(w)], w) && (len(rest) == len(w) || !isWordByte(rest[len(w)]))
}
