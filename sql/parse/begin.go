package parse

import (
	"regexp"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// beginChars are START TRANSACTION's characteristics, in any order and
// comma-separated as MySQL allows (the TiDB parser takes only one).
type beginChars struct {
	ReadOnly, ReadWrite, Snapshot bool
}

var (
	reStartTxn = regexp.MustCompile(`(?is)^start\s+transaction\s+(.+)$`)
	reTxnChar  = regexp.MustCompile(`(?is)^\s*(read\s+only|read\s+write|with\s+consistent\s+snapshot)\s*$`)
)

// scanStartTransaction reads START TRANSACTION with a list of
// characteristics into p; ok false leaves the statement to the parser.
func scanStartTransaction(s string, p *Stmt) (ok bool, err error) {
	m := reStartTxn.FindStringSubmatch(s)
	if m == nil {
		return false, nil
	}
	var c beginChars
	for _, part := range strings.Split(m[1], ",") {
		cm := reTxnChar.FindStringSubmatch(part)
		if cm == nil {
			return false, nil
		}
		switch strings.ToLower(strings.Join(strings.Fields(cm[1]), " ")) {
		case "read only":
			c.ReadOnly = true
		case "read write":
			c.ReadWrite = true
		default:
			c.Snapshot = true
		}
	}
	if c.ReadOnly && c.ReadWrite {
		return false, SyntaxError(s, "")
	}
	p.Node, p.Begin = &ast.BeginStmt{ReadOnly: c.ReadOnly}, c
	return true, nil
}
