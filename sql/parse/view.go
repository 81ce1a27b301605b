package parse

import (
	"regexp"
	"strings"
)

// The TiDB parser reads WITH CASCADED / LOCAL CHECK OPTION but not
// MariaDB's plain WITH CHECK OPTION, and records no check option the
// same as CASCADED. CREATE [OR REPLACE] ... VIEW is scanned first: its
// trailing check option is kept in Stmt.ViewCheck (NONE, CASCADED or
// LOCAL) and cut from the text the parser reads.
var (
	reAlterView  = regexp.MustCompile(`(?is)^ALTER(\s+(?:ALGORITHM\s*=\s*\w+\s+)?(?:DEFINER\s*=\s*\S+\s+)?(?:SQL\s+SECURITY\s+\w+\s+)?VIEW\s)`)
	reCreateView = regexp.MustCompile(`(?is)^CREATE\s+(?:OR\s+REPLACE\s+)?(?:ALGORITHM\s*=\s*\w+\s+)?(?:DEFINER\s*=\s*\S+\s+)?(?:SQL\s+SECURITY\s+\w+\s+)?VIEW\s`)
	reViewCheck  = regexp.MustCompile(`(?is)\s+WITH\s+(CASCADED\s+|LOCAL\s+)?CHECK\s+OPTION$`)
)

// scanViewCheck returns s without a CREATE VIEW's check option. ALTER
// VIEW, which the TiDB parser lacks, is read as CREATE OR REPLACE VIEW
// with Stmt.ViewAlter set (the view must exist).
func scanViewCheck(s string, p *Stmt) string {
	if m := reAlterView.FindStringSubmatchIndex(s); m != nil {
		p.ViewAlter = true
		s = "CREATE OR REPLACE" + s[m[2]:]
	}
	if !reCreateView.MatchString(s) {
		return s
	}
	p.ViewCheck = "NONE"
	m := reViewCheck.FindStringSubmatchIndex(s)
	if m == nil {
		return s
	}
	p.ViewCheck = "CASCADED"
	if m[2] >= 0 && strings.EqualFold(strings.TrimSpace(s[m[2]:m[3]]), "LOCAL") {
		p.ViewCheck = "LOCAL"
	}
	return s[:m[0]]
}
