package parse

import (
	"regexp"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sqlerr"
)

// The TiDB parser knows ALGORITHM = DEFAULT | COPY | INPLACE | INSTANT and
// refuses any other word with a parse error that names the wrong word;
// MariaDB's answers are 1800 for an unknown algorithm and 1801 for an
// unknown LOCK type. MariaDB's fifth, NOCOPY (in place, without rebuilding
// the clustered index), is read here: scanNoCopy hands the parser INPLACE
// in its place and markNoCopy puts AlgorithmNoCopy in the tree.

// AlgorithmNoCopy is ALGORITHM=NOCOPY in an ALTER TABLE's or CREATE
// INDEX's tree (a value the TiDB parser never gives).
const AlgorithmNoCopy ast.AlgorithmType = 100

var reAlgorithm = regexp.MustCompile(`(?i)\balgorithm\s*=?\s*(\w+)`)

// algorithmError is MariaDB's error for the parse error err of s, when it
// is the parser's unknown ALGORITHM or LOCK (nil otherwise).
func algorithmError(s string, err error) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "[parser:1801]"):
		if i := strings.Index(msg, "Unknown LOCK type"); i >= 0 {
			return sqlerr.New(sqlerr.ErUnknownAlterLock, "%s", strings.TrimSpace(msg[i:]))
		}
	case strings.Contains(msg, "[parser:1800]"):
		for _, m := range reAlgorithm.FindAllStringSubmatch(s, -1) {
			switch strings.ToUpper(m[1]) {
			case "DEFAULT", "COPY", "INPLACE", "INSTANT":
				continue
			}
			return sqlerr.New(sqlerr.ErUnknownAlterAlgorithm, "Unknown ALGORITHM '%s'", m[1])
		}
	}
	return nil
}

// scanNoCopy returns s with each ALGORITHM [=] NOCOPY of an ALTER TABLE or
// CREATE INDEX written ALGORITHM [=] INPLACE, and whether the last
// ALGORITHM is NOCOPY. DROP INDEX takes no NOCOPY in MariaDB's grammar
// (1064).
func scanNoCopy(s string) (string, bool, error) {
	head := strings.ToLower(s[:min(len(s), 32)])
	if !strings.HasPrefix(head, "alter") && !strings.HasPrefix(head, "create") && !strings.HasPrefix(head, "drop") {
		return s, false, nil
	}
	if !strings.Contains(strings.ToLower(s), "nocopy") {
		return s, false, nil
	}
	toks, ok := sqlTokens(s)
	if !ok {
		return s, false, nil
	}
	var at []int  // byte offsets of the NOCOPY words
	last := false // the last ALGORITHM is NOCOPY (the last one given wins)
	for i, t := range toks {
		if !t.isWord("algorithm") || i+1 >= len(toks) {
			continue
		}
		v := i + 1
		if toks[v].text == "=" && v+1 < len(toks) {
			v++
		}
		last = toks[v].isWord("nocopy")
		if last {
			at = append(at, toks[v].start)
		}
	}
	if len(at) == 0 {
		return s, false, nil
	}
	if strings.HasPrefix(head, "drop") {
		return s, false, SyntaxError(s, s[strings.LastIndex(strings.ToUpper(s[:at[0]]), "ALGORITHM"):])
	}
	var b strings.Builder
	from := 0
	for _, i := range at {
		b.WriteString(s[from:i])
		b.WriteString("INPLACE")
		from = i + len("nocopy")
	}
	b.WriteString(s[from:])
	return b.String(), last, nil
}

// markNoCopy makes n's last ALGORITHM, which scanNoCopy found was NOCOPY
// and wrote INPLACE, AlgorithmNoCopy (the last one given is the one that
// counts, in MariaDB as in package alter).
func markNoCopy(n ast.StmtNode) {
	switch x := n.(type) {
	case *ast.AlterTableStmt:
		for i := len(x.Specs) - 1; i >= 0; i-- {
			if sp := x.Specs[i]; sp.Tp == ast.AlterTableAlgorithm {
				if sp.Algorithm == ast.AlgorithmTypeInplace {
					sp.Algorithm = AlgorithmNoCopy
				}
				break
			}
		}
	case *ast.CreateIndexStmt:
		if x.LockAlg != nil && x.LockAlg.AlgorithmTp == ast.AlgorithmTypeInplace {
			x.LockAlg.AlgorithmTp = AlgorithmNoCopy
		}
	}
}
