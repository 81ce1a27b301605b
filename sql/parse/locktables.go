package parse

import (
	"strings"
)

// LockSpec is one table of LOCK TABLES: the table, the alias statements
// must then use for it (empty: its name), and whether it is locked for
// writing.
type LockSpec struct {
	Schema, Name, Alias string
	Write               bool
	// ViaView: a table locked because a view over it was (sql/lockviews.go);
	// the session may use it by name too, as in MariaDB.
	ViaView bool
}

// scanLockTables recognizes LOCK TABLE[S] tbl [[AS] alias] {READ [LOCAL] |
// [LOW_PRIORITY] WRITE [CONCURRENT]}, ... itself: the TiDB parser knows
// neither aliases nor LOW_PRIORITY, and mysqldump sends
// "LOCK TABLES `t` READ /*!32311 LOCAL */". ok is false when s is no
// LOCK TABLES statement at all.
func scanLockTables(s string, p *Stmt) (ok bool, err error) {
	toks, lexOK := lockTokens(s)
	if !lexOK || len(toks) < 2 || !strings.EqualFold(toks[0], "lock") {
		return false, nil
	}
	if kw := strings.ToLower(toks[1]); kw != "table" && kw != "tables" {
		return false, nil
	}
	i := 2
	bad := func() error { return SyntaxError(s, strings.Join(toks[min(i, len(toks)):], " ")) }
	for {
		var spec LockSpec
		name, ok := identAt(toks, i)
		if !ok {
			return true, bad()
		}
		i++
		spec.Name = name
		if i < len(toks) && toks[i] == "." {
			n2, ok := identAt(toks, i+1)
			if !ok {
				i++
				return true, bad()
			}
			spec.Schema, spec.Name = name, n2
			i += 2
		}
		if i < len(toks) && strings.EqualFold(toks[i], "as") {
			i++
			a, ok := identAt(toks, i)
			if !ok {
				return true, bad()
			}
			spec.Alias = a
			i++
		} else if i < len(toks) && !isLockKeyword(toks[i]) {
			if a, ok := identAt(toks, i); ok {
				spec.Alias = a
				i++
			}
		}
		if i >= len(toks) {
			return true, bad()
		}
		switch strings.ToLower(toks[i]) {
		case "read":
			i++
			if i < len(toks) && strings.EqualFold(toks[i], "local") {
				i++
			}
		case "low_priority":
			i++
			if i >= len(toks) || !strings.EqualFold(toks[i], "write") {
				return true, bad()
			}
			spec.Write = true
			i++
		case "write":
			spec.Write = true
			i++
			if i < len(toks) && strings.EqualFold(toks[i], "concurrent") {
				i++
			}
		default:
			return true, bad()
		}
		p.Locks = append(p.Locks, spec)
		if i == len(toks) {
			p.Kind = KindLockTables
			return true, nil
		}
		if toks[i] != "," {
			return true, bad()
		}
		i++
	}
}

func isLockKeyword(t string) bool {
	switch strings.ToLower(t) {
	case "read", "write", "low_priority", "local":
		return true
	}
	return false
}

// identAt returns toks[i] as an identifier (a backquoted one unquoted).
func identAt(toks []string, i int) (string, bool) {
	if i >= len(toks) {
		return "", false
	}
	t := toks[i]
	if strings.HasPrefix(t, "`") {
		return strings.ReplaceAll(t[1:len(t)-1], "``", "`"), true
	}
	if t == "," || t == "." {
		return "", false
	}
	return t, true
}

// lockTokens splits a LOCK TABLES statement into words, backquoted
// identifiers, "." and ",". Executable comments (/*!NNNNN ... */ and
// MariaDB's /*M!NNNNNN ... */) are read as their content, as the server
// does; other comments are skipped. ok is false for anything else (a
// string literal, an unterminated quote): no LOCK TABLES holds one.
func lockTokens(s string) (toks []string, ok bool) {
	inExec := false
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ';':
			i++
		case strings.HasPrefix(s[i:], "/*!") || strings.HasPrefix(s[i:], "/*M!"):
			if s[i+2] == 'M' {
				i += 4
			} else {
				i += 3
			}
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
			inExec = true
		case inExec && strings.HasPrefix(s[i:], "*/"):
			inExec = false
			i += 2
		case strings.HasPrefix(s[i:], "/*"):
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				return nil, false
			}
			i += j + 4
		case strings.HasPrefix(s[i:], "-- ") || c == '#':
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				i = len(s)
			} else {
				i += j
			}
		case c == '`':
			j := i + 1
			for {
				k := strings.IndexByte(s[j:], '`')
				if k < 0 {
					return nil, false
				}
				j += k + 1
				if j < len(s) && s[j] == '`' {
					j++
					continue
				}
				break
			}
			toks = append(toks, s[i:j])
			i = j
		case c == ',' || c == '.':
			toks = append(toks, string(c))
			i++
		case isWordByte(c) || c == '$':
			j := i
			for j < len(s) && (isWordByte(s[j]) || s[j] == '$') {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		default:
			return nil, false
		}
	}
	return toks, !inExec
}
