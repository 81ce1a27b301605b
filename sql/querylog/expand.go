package querylog

import (
	"strings"

	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/types"
)

// Expand is a prepared statement's text with each ? placeholder replaced
// by its argument as a literal, as mysqld writes an Execute line. A ?
// inside a string, a quoted name or a comment is text, not a placeholder.
func Expand(text string, args []types.Value) string {
	if len(args) == 0 {
		return text
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			end := parse.SkipQuoted(text, i, c, c != '`')
			b.WriteString(text[i:end])
			i = end - 1
		case c == '#' || c == '-' && strings.HasPrefix(text[i:], "-- "):
			end := strings.IndexByte(text[i:], '\n')
			if end < 0 {
				end = len(text) - i
			}
			b.WriteString(text[i : i+end])
			i += end - 1
		case c == '/' && strings.HasPrefix(text[i:], "/*"):
			end := len(text)
			if j := strings.Index(text[i+2:], "*/"); j >= 0 {
				end = i + 2 + j + 2
			}
			b.WriteString(text[i:end])
			i = end - 1
		case c == '?' && n < len(args):
			b.WriteString(literal(args[n]))
			n++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// literal is v as SQL text: NULL, a number bare, anything else quoted.
func literal(v types.Value) string {
	switch v.K {
	case types.KindNull:
		return "NULL"
	case types.KindInt, types.KindUint, types.KindFloat, types.KindDecimal:
		return v.String()
	}
	return types.QuoteString(v.String())
}
