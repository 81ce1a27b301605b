package querylog

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/plrun/plrun/sql/parse"
)

// secret stands for a password in a logged statement, as in MySQL's logs.
const secret = "<secret>"

// HasSecret reports whether a statement carries a password or a
// password hash the logs must not show.
func HasSecret(n ast.StmtNode) bool {
	switch n := n.(type) {
	case *ast.SetPwdStmt:
		return true
	case *ast.CreateUserStmt:
		return specsHaveSecret(n.Specs)
	case *ast.AlterUserStmt:
		return n.CurrentAuth != nil || specsHaveSecret(n.Specs)
	case *ast.GrantStmt:
		return specsHaveSecret(n.Users)
	}
	return false
}

func specsHaveSecret(specs []*ast.UserSpec) bool {
	for _, s := range specs {
		if s.AuthOpt != nil && (s.AuthOpt.ByAuthString || s.AuthOpt.ByHashString) {
			return true
		}
	}
	return false
}

// Redact is the text the logs show for p: its own text, or, when it
// carries a password, the statement rewritten with each password (or
// hash) as <secret>: `CREATE USER 'u'@'%' IDENTIFIED BY <secret>`. The
// cached statement is never touched: the text is parsed again (these
// statements are rare) and the copy rewritten.
func Redact(p *parse.Stmt, mode mysql.SQLMode) string {
	if p == nil || p.Node == nil || !HasSecret(p.Node) {
		if p == nil {
			return ""
		}
		return p.Text
	}
	if text, ok := rewrite(p.Text, mode); ok {
		return text
	}
	return firstWords(p.Text) // never the original
}

func rewrite(text string, mode mysql.SQLMode) (string, bool) {
	q, err := parse.Parse(text, mode)
	if err != nil || q.Node == nil {
		return "", false
	}
	switch n := q.Node.(type) {
	case *ast.SetPwdStmt:
		n.Password = secret
	case *ast.CreateUserStmt:
		hideSpecs(n.Specs)
	case *ast.AlterUserStmt:
		hideAuth(n.CurrentAuth)
		hideSpecs(n.Specs)
	case *ast.GrantStmt:
		hideSpecs(n.Users)
	default:
		return "", false
	}
	var b strings.Builder
	if err := q.Node.Restore(format.NewRestoreCtx(format.DefaultRestoreFlags, &b)); err != nil {
		return "", false
	}
	// Restore quotes the marker as a string; MySQL's logs show it bare.
	return strings.ReplaceAll(b.String(), "'"+secret+"'", secret), true
}

func hideSpecs(specs []*ast.UserSpec) {
	for _, s := range specs {
		hideAuth(s.AuthOpt)
	}
}

func hideAuth(a *ast.AuthOption) {
	if a == nil {
		return
	}
	if a.ByAuthString {
		a.AuthString = secret
	}
	if a.ByHashString {
		a.HashString = secret
	}
}

// RedactText is Redact for statement text alone (PROCESSLIST Info, SHOW
// ENGINE's reports, the REPL's history). Text that names neither
// IDENTIFIED nor PASSWORD is returned as it is, without parsing; other
// text is parsed, and text that does not parse as one statement shows
// only its first words and the marker: never a literal that may be a
// password.
func RedactText(text string, mode mysql.SQLMode) string {
	u := strings.ToUpper(text)
	if !strings.Contains(u, "IDENTIFIED") && !strings.Contains(u, "PASSWORD") {
		return text
	}
	p, err := parse.Parse(text, mode)
	if err != nil || p.Node == nil {
		return firstWords(text)
	}
	return Redact(p, mode)
}

// firstWords is what a statement that could not be rewritten shows.
func firstWords(text string) string {
	words := strings.Fields(text)
	return strings.Join(words[:min(2, len(words))], " ") + " " + secret
}
