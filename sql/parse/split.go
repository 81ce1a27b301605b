package parse

import "strings"

// SplitStatements cuts a script into statements at every ';' that is not
// inside a quoted string ('...', "..."), a quoted identifier (`...`), a
// comment (-- to end of line, # to end of line, /* ... */) or a
// dollar-quoted procedure body ($$ ... $$, $tag$ ... $tag$).
//
// Each statement is returned without its ';', with surrounding whitespace
// and leading comments removed (optimizer hints /*+ ... */ and MySQL
// executable comments /*! ... */ are kept: they mean something). A
// statement that is empty or only comments is dropped.
//
// rest is the trailing text after the last ';' that still holds something
// other than whitespace and comments: an unterminated statement, string,
// comment or body. A REPL asks for more lines while rest != ""; a script
// runner at end of input executes rest as the last statement (as the mysql
// client does), so the parser reports what is wrong with it.
//
// SplitStatements never panics and never loses text: every byte of the
// input that is not a separator, a dropped comment or whitespace at a
// statement's edge is in exactly one statement or in rest.
func SplitStatements(script string) (stmts []string, rest string) {
	parts, rest := SplitScript(script, ScriptOptions{})
	for _, p := range parts {
		stmts = append(stmts, p.Text)
	}
	return stmts, rest
}

// ScriptOptions are a client's rules for ending statements.
type ScriptOptions struct {
	// Delimiter ends a statement; "" means ";". Any other delimiter (the
	// mysql client's DELIMITER //) is matched before quotes, comments and
	// $$ bodies are, so "$$" and "//" work as delimiters; ';' is then
	// ordinary text.
	Delimiter string
	// ClientTerminators makes \G (print vertically) and \g end a
	// statement too, as in the mysql client.
	ClientTerminators bool
}

// Statement is one statement of a script.
type Statement struct {
	Text     string
	Offset   int  // byte offset of Text in the script
	Vertical bool // it ended with \G
}

// SplitScript is SplitStatements with a client's delimiter and
// terminators, keeping each statement's offset.
func SplitScript(script string, opt ScriptOptions) (stmts []Statement, rest string) {
	delim := opt.Delimiter
	if delim == "" {
		delim = ";"
	}
	start := 0
	emit := func(end, next int, vertical bool) {
		text := trimLeading(script[start:end])
		if t := strings.TrimRightFunc(text, isSpace); t != "" {
			stmts = append(stmts, Statement{Text: t, Offset: end - len(text), Vertical: vertical})
		}
		start = next
	}
	for i := 0; i < len(script); {
		c := script[i]
		switch {
		case strings.HasPrefix(script[i:], delim) && !(delim == ";" && inCompound(script[start:i])):
			emit(i, i+len(delim), false)
			i += len(delim)
			continue
		case opt.ClientTerminators && c == '\\' && i+1 < len(script) && (script[i+1] == 'G' || script[i+1] == 'g'):
			emit(i, i+2, script[i+1] == 'G')
			i += 2
			continue
		case c == '\'' || c == '"':
			i = SkipQuoted(script, i, c, true)
		case c == '`':
			i = SkipQuoted(script, i, c, false)
		case c == '#':
			i = skipLineComment(script, i)
		case c == '-' && isDashComment(script, i):
			i = skipLineComment(script, i)
		case c == '/' && i+1 < len(script) && script[i+1] == '*':
			i = skipBlockComment(script, i)
		case c == '$' && (i == 0 || !isWordByte(script[i-1])):
			i = skipDollarQuoted(script, i)
		default:
			i++
		}
	}
	// rest keeps its trailing bytes: they may be inside an open string, and
	// the caller appends the next line to rest.
	rest = trimLeading(script[start:])
	if strings.TrimSpace(rest) == "" {
		rest = ""
	}
	return stmts, rest
}

func trimStatement(s string) string { return strings.TrimRightFunc(trimLeading(s), isSpace) }

// trimLeading strips leading whitespace and the comments that carry no
// meaning. An unterminated block comment is kept, so rest shows it.
func trimLeading(s string) string {
	for {
		s = strings.TrimLeftFunc(s, isSpace)
		var end int
		switch {
		case strings.HasPrefix(s, "#"), isDashComment(s, 0):
			end = skipLineComment(s, 0)
		case strings.HasPrefix(s, "/*") && !strings.HasPrefix(s, "/*!") && !strings.HasPrefix(s, "/*+"):
			if !strings.Contains(s[2:], "*/") {
				return s // unterminated: the caller needs more input
			}
			end = skipBlockComment(s, 0)
		default:
			return s
		}
		s = s[end:]
	}
}

func isSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v'
}

// SkipQuoted returns the index just past the quote that closes the one at
// open, or len(s) if it is unterminated. A doubled quote stands for one
// quote character; in strings (not identifiers) a backslash escapes the
// next byte, as MySQL does without NO_BACKSLASH_ESCAPES.
func SkipQuoted(s string, open int, quote byte, backslash bool) int {
	for i := open + 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if backslash {
				i++
			}
		case quote:
			if i+1 < len(s) && s[i+1] == quote {
				i++
				continue
			}
			return i + 1
		}
	}
	return len(s)
}

// isDashComment reports whether "--" at i starts a comment: MySQL requires
// the second dash to be followed by whitespace, a control character or the
// end of input, so that k=k--1 stays arithmetic.
func isDashComment(s string, i int) bool {
	if i+1 >= len(s) || s[i] != '-' || s[i+1] != '-' {
		return false
	}
	return i+2 == len(s) || s[i+2] <= ' '
}

// skipLineComment returns the index of the newline ending the comment at i
// (the newline itself is whitespace), or len(s).
func skipLineComment(s string, i int) int {
	if nl := strings.IndexByte(s[i:], '\n'); nl >= 0 {
		return i + nl
	}
	return len(s)
}

// skipBlockComment returns the index just past the "*/" closing the comment
// opened at i, or len(s). MySQL block comments do not nest.
func skipBlockComment(s string, i int) int {
	if end := strings.Index(s[i+2:], "*/"); end >= 0 {
		return i + 2 + end + 2
	}
	return len(s)
}

// skipDollarQuoted returns the index just past the body opened by the tag
// at i ($$ or $name$), or len(s) if it is unterminated. A '$' that does not
// open a tag (e.g. "$1", or "$abc" with no closing '$') is one ordinary byte.
func skipDollarQuoted(s string, i int) int {
	end := i + 1
	for end < len(s) && isWordByte(s[end]) {
		end++
	}
	if end >= len(s) || s[end] != '$' {
		return i + 1
	}
	tag := s[i : end+1]
	if len(tag) > 2 && s[i+1] >= '0' && s[i+1] <= '9' {
		return i + 1 // $1$ is not a tag
	}
	bodyStart := end + 1
	if closeAt := strings.Index(s[bodyStart:], tag); closeAt >= 0 {
		return bodyStart + closeAt + len(tag)
	}
	return len(s)
}

// isWordByte matches identifier bytes (the procs parser's tag alphabet):
// a '$' right after one belongs to an identifier such as a$b, not a tag.
func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// OpenQuote reports the construct an unterminated statement text ends
// inside, for a REPL's continuation prompt as mysql shows it: "'", "\"",
// "`" or "/*"; "" when none is open.
func OpenQuote(s string) string {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			j, closed := i+1, false
			for j < len(s) {
				if c != '`' && s[j] == '\\' {
					j += 2
					continue
				}
				if s[j] == c {
					if j+1 < len(s) && s[j+1] == c {
						j += 2 // a doubled quote stands for itself
						continue
					}
					closed = true
					j++
					break
				}
				j++
			}
			if !closed {
				return string(c)
			}
			i = j
		case c == '#', c == '-' && isDashComment(s, i):
			i = skipLineComment(s, i)
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			if !strings.Contains(s[i+2:], "*/") {
				return "/*"
			}
			i = skipBlockComment(s, i)
		case c == '$' && (i == 0 || !isWordByte(s[i-1])):
			i = skipDollarQuoted(s, i)
		default:
			i++
		}
	}
	return ""
}
