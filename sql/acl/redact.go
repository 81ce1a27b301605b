package acl

import (
	"regexp"
	"strings"
)

// A string literal, single- or double-quoted, with \ escapes and doubled quotes.
const literal = `(?:'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*")`

// secretAt finds the literals of a statement that are passwords:
// IDENTIFIED [WITH plugin] BY 'pw', PASSWORD('pw') / OLD_PASSWORD('pw'),
// and SET PASSWORD [FOR u] = 'pw'.
var secretAt = regexp.MustCompile(`(?is)(\bIDENTIFIED\s+(?:WITH\s+\S+\s+)?BY\s+|\bPASSWORD\s*\(\s*|\bSET\s+PASSWORD\b[^=]*=\s*)` + literal)

// RedactSecrets is statement text with its passwords replaced by
// <secret>, as MySQL shows an account statement in PROCESSLIST and its
// logs. Text without IDENTIFIED or PASSWORD is returned as it is.
func RedactSecrets(text string) string {
	if !mayHoldSecret(text) {
		return text
	}
	return secretAt.ReplaceAllString(text, "${1}<secret>")
}

func mayHoldSecret(text string) bool {
	u := strings.ToUpper(text)
	return strings.Contains(u, "IDENTIFIED") || strings.Contains(u, "PASSWORD")
}
