package parse

import (
	"strings"

	"github.com/plrun/plrun/sqlerr"
)

// IntoFile is a SELECT's INTO OUTFILE / INTO DUMPFILE clause, which plrun
// reads itself: the TiDB parser knows neither DUMPFILE nor the clause
// before FROM (MySQL's preferred place). The clause is cut from the text
// the SQL parser sees.
type IntoFile struct {
	Path string
	Dump bool // INTO DUMPFILE: one row, raw, no separators
	// Trailing: the clause follows FROM ... (MariaDB warns 1287 that the
	// place is deprecated).
	Trailing bool
	Format   FileFormat
}

// FileFormat is the FIELDS and LINES options of INTO OUTFILE and LOAD
// DATA, with MySQL's defaults.
type FileFormat struct {
	FieldsTerminated string
	Enclosed         string // "" or one byte
	OptEnclosed      bool
	Escaped          string // "" or one byte
	LinesStarting    string
	LinesTerminated  string
}

// DefaultFileFormat is FIELDS TERMINATED BY '\t' ENCLOSED BY ”
// ESCAPED BY '\\' LINES TERMINATED BY '\n' STARTING BY ”.
func DefaultFileFormat() FileFormat {
	return FileFormat{FieldsTerminated: "\t", Escaped: `\`, LinesTerminated: "\n"}
}

// sqlToken is one token of a statement with its byte span.
type sqlToken struct {
	text       string // a word, a punctuation byte, or a string literal as written
	start, end int
	depth      int // parenthesis depth at the token
}

func (t sqlToken) isWord(w string) bool { return strings.EqualFold(t.text, w) }
func (t sqlToken) isString() bool {
	return len(t.text) >= 2 && (t.text[0] == '\'' || t.text[0] == '"')
}

// sqlTokens splits s into words, quoted strings and identifiers, and
// single punctuation bytes, skipping comments (executable comments are
// read as their content). ok is false for an unterminated quote.
func sqlTokens(s string) (toks []sqlToken, ok bool) {
	depth := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
		case strings.HasPrefix(s[i:], "/*!") || strings.HasPrefix(s[i:], "/*M!"):
			i += 3
			if s[i-1] == 'M' {
				i++
			}
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
		case strings.HasPrefix(s[i:], "*/"):
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
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			for {
				if j >= len(s) {
					return nil, false
				}
				if s[j] == '\\' && c != '`' {
					j += 2
					continue
				}
				if s[j] == c {
					if j+1 < len(s) && s[j+1] == c {
						j += 2
						continue
					}
					break
				}
				j++
			}
			toks = append(toks, sqlToken{s[i : j+1], i, j + 1, depth})
			i = j + 1
		case isWordByte(c) || c == '$' || c == '@':
			j := i
			for j < len(s) && (isWordByte(s[j]) || s[j] == '$' || s[j] == '@' || s[j] == '.') {
				j++
			}
			toks = append(toks, sqlToken{s[i:j], i, j, depth})
			i = j
		default:
			if c == '(' {
				depth++
			}
			toks = append(toks, sqlToken{string(c), i, i + 1, depth})
			if c == ')' {
				depth--
			}
			i++
		}
	}
	return toks, true
}

// UnquoteString decodes a MySQL string literal ('...' or "...") with
// its backslash escapes, as the server reads it (without
// NO_BACKSLASH_ESCAPES).
func UnquoteString(lit string) string {
	q := lit[0]
	body := lit[1 : len(lit)-1]
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c == q && i+1 < len(body) && body[i+1] == q {
			b.WriteByte(q)
			i++
			continue
		}
		if c != '\\' || i+1 == len(body) {
			b.WriteByte(c)
			continue
		}
		i++
		switch body[i] {
		case '0':
			b.WriteByte(0)
		case 'b':
			b.WriteByte('\b')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'Z':
			b.WriteByte(26)
		case '%', '_':
			b.WriteByte('\\')
			b.WriteByte(body[i])
		default:
			b.WriteByte(body[i])
		}
	}
	return b.String()
}

// scanIntoFile finds a SELECT's INTO OUTFILE / DUMPFILE clause at the top
// level, reads it into p.Into, and returns the text without it. s is
// returned unchanged when there is none.
func scanIntoFile(s string, p *Stmt) (string, error) {
	head := strings.ToLower(s[:min(len(s), 8)])
	if !strings.HasPrefix(head, "select") && !strings.HasPrefix(head, "with") && !strings.HasPrefix(head, "(") {
		return s, nil
	}
	lower := strings.ToLower(s)
	if !strings.Contains(lower, "outfile") && !strings.Contains(lower, "dumpfile") {
		return s, nil
	}
	toks, ok := sqlTokens(s)
	if !ok {
		return s, nil
	}
	sawFrom := false
	for i := 0; i+1 < len(toks); i++ {
		t := toks[i]
		if t.depth == 0 && t.isWord("from") {
			sawFrom = true
		}
		if t.depth != 0 || !t.isWord("into") || !(toks[i+1].isWord("outfile") || toks[i+1].isWord("dumpfile")) {
			continue
		}
		into := &IntoFile{Dump: toks[i+1].isWord("dumpfile"), Trailing: sawFrom, Format: DefaultFileFormat()}
		j, err := readIntoClause(s, toks, i+2, into)
		if err != nil {
			return s, err
		}
		p.Into = into
		end := len(s)
		if j < len(toks) {
			end = toks[j].start
		}
		return s[:t.start] + " " + s[end:], nil
	}
	return s, nil
}

// readIntoClause reads 'file' [CHARACTER SET cs] [FIELDS ...] [LINES ...]
// from toks[i:], returning the index of the first token after it.
func readIntoClause(s string, toks []sqlToken, i int, into *IntoFile) (int, error) {
	wrongTerm := sqlerr.New(sqlerr.ErWrongFieldTerminators, "Field separator argument is not what is expected; check the manual")
	bad := func(at int) error {
		if at >= len(toks) {
			return SyntaxError(s, "")
		}
		return SyntaxError(s, s[toks[at].start:])
	}
	str := func(at int) (string, bool) {
		if at < len(toks) && toks[at].isString() {
			return UnquoteString(toks[at].text), true
		}
		return "", false
	}
	path, ok := str(i)
	if !ok {
		return i, bad(i)
	}
	into.Path = path
	i++
	if i+2 < len(toks) && toks[i].isWord("character") && toks[i+1].isWord("set") {
		if !strings.HasPrefix(strings.ToLower(toks[i+2].text), "utf8") && !toks[i+2].isWord("binary") {
			return i, bad(i + 2)
		}
		i += 3
	} else if i+1 < len(toks) && toks[i].isWord("charset") {
		i += 2
	}
	if into.Dump {
		return i, nil
	}
	f := &into.Format
	if i < len(toks) && (toks[i].isWord("fields") || toks[i].isWord("columns")) {
		i++
		n := 0
		for {
			switch {
			case i+2 < len(toks) && toks[i].isWord("terminated") && toks[i+1].isWord("by"):
				v, ok := str(i + 2)
				if !ok {
					return i, bad(i + 2)
				}
				f.FieldsTerminated, i = v, i+3
			case i+3 < len(toks) && toks[i].isWord("optionally") && toks[i+1].isWord("enclosed") && toks[i+2].isWord("by"):
				v, ok := str(i + 3)
				if !ok {
					return i, bad(i + 3)
				}
				if len(v) > 1 {
					return i, wrongTerm
				}
				f.Enclosed, f.OptEnclosed, i = v, true, i+4
			case i+2 < len(toks) && toks[i].isWord("enclosed") && toks[i+1].isWord("by"):
				v, ok := str(i + 2)
				if !ok {
					return i, bad(i + 2)
				}
				if len(v) > 1 {
					return i, wrongTerm
				}
				f.Enclosed, i = v, i+3
			case i+2 < len(toks) && toks[i].isWord("escaped") && toks[i+1].isWord("by"):
				v, ok := str(i + 2)
				if !ok {
					return i, bad(i + 2)
				}
				if len(v) > 1 {
					return i, wrongTerm
				}
				f.Escaped, i = v, i+3
			default:
				if n == 0 {
					return i, bad(i)
				}
				goto lines
			}
			n++
		}
	}
lines:
	if i < len(toks) && toks[i].isWord("lines") {
		i++
		n := 0
		for {
			switch {
			case i+2 < len(toks) && toks[i].isWord("starting") && toks[i+1].isWord("by"):
				v, ok := str(i + 2)
				if !ok {
					return i, bad(i + 2)
				}
				f.LinesStarting, i = v, i+3
			case i+2 < len(toks) && toks[i].isWord("terminated") && toks[i+1].isWord("by"):
				v, ok := str(i + 2)
				if !ok {
					return i, bad(i + 2)
				}
				f.LinesTerminated, i = v, i+3
			default:
				if n == 0 {
					return i, bad(i)
				}
				return i, nil
			}
			n++
		}
	}
	return i, nil
}
