package psm

import "strings"

// tokKind is the class of a token of a procedure body.
type tokKind int

const (
	tokWord   tokKind = iota // bare word: keyword or identifier
	tokQuoted                // `identifier`
	tokString                // '...' or "..."
	tokNumber
	tokPunct // one byte: ; ( ) , = . @ and the rest
	tokEOF
)

// token is one lexeme of the body; pos is its byte offset, line its
// 1-based line in the body.
type token struct {
	kind tokKind
	text string // as written (quotes included)
	pos  int
	end  int
	line int
}

// is reports whether t is the bare word kw (case-insensitive).
func (t token) is(kw string) bool { return t.kind == tokWord && strings.EqualFold(t.text, kw) }

// name is the identifier t stands for: a bare word, or a backquoted one
// without its quotes.
func (t token) name() string {
	if t.kind == tokQuoted {
		return strings.ReplaceAll(t.unquoted(), "``", "`")
	}
	return t.text
}

// lex splits src into tokens, skipping white space and comments. It never
// fails: an unterminated quote runs to the end and the statement parser
// that reads it reports the error.
func lex(src string) []token {
	var toks []token
	line := 1
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '#' || c == '-' && strings.HasPrefix(src[i:], "--") && (i+2 == len(src) || isSpace(src[i+2])):
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '/' && strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			stop := len(src)
			if end >= 0 {
				stop = i + 2 + end + 2
			}
			line += strings.Count(src[i:stop], "\n")
			i = stop
			continue
		}
		start, startLine := i, line
		kind := tokPunct
		switch {
		case c == '\'' || c == '"' || c == '`':
			kind = tokString
			if c == '`' {
				kind = tokQuoted
			}
			i++
			for i < len(src) {
				if src[i] == '\\' && c != '`' && i+1 < len(src) {
					i += 2
					continue
				}
				if src[i] == c {
					if i+1 < len(src) && src[i+1] == c {
						i += 2
						continue
					}
					i++
					break
				}
				i++
			}
			if i > len(src) {
				i = len(src)
			}
		case c >= '0' && c <= '9':
			kind = tokNumber
			for i < len(src) && (isIdentByte(src[i]) || src[i] == '.') {
				i++
			}
		case isIdentByte(c):
			kind = tokWord
			for i < len(src) && isIdentByte(src[i]) {
				i++
			}
		default:
			i++
		}
		line += strings.Count(src[start:i], "\n")
		toks = append(toks, token{kind: kind, text: src[start:i], pos: start, end: i, line: startLine})
	}
	toks = append(toks, token{kind: tokEOF, pos: len(src), end: len(src), line: line})
	return toks
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// unquoted is a string token's text without its quotes (an unterminated
// one has only the opening quote).
func (t token) unquoted() string {
	s := t.text
	if len(s) > 0 {
		s = s[1:]
	}
	if len(s) > 0 && s[len(s)-1] == t.text[0] {
		s = s[:len(s)-1]
	}
	return s
}
