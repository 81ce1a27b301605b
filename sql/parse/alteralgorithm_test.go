package parse

import (
	"testing"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sqlerr"
)

// TestNoCopy: ALGORITHM=NOCOPY reaches the tree as AlgorithmNoCopy (the last
// ALGORITHM given counts), and a NOCOPY inside a string is left alone.
func TestNoCopy(t *testing.T) {
	last := func(n ast.StmtNode) ast.AlgorithmType {
		alg := ast.AlgorithmTypeDefault
		for _, sp := range n.(*ast.AlterTableStmt).Specs {
			if sp.Tp == ast.AlterTableAlgorithm {
				alg = sp.Algorithm
			}
		}
		return alg
	}
	for _, c := range []struct {
		sql  string
		want ast.AlgorithmType
	}{
		{"ALTER TABLE t ALGORITHM=NOCOPY, ADD COLUMN c int", AlgorithmNoCopy},
		{"ALTER TABLE t ALGORITHM = nocopy, FORCE", AlgorithmNoCopy},
		{"ALTER TABLE t ALGORITHM=INPLACE, ALGORITHM=NOCOPY, FORCE", AlgorithmNoCopy},
		{"ALTER TABLE t ALGORITHM=NOCOPY, ALGORITHM=INSTANT, FORCE", ast.AlgorithmTypeInstant},
		{"ALTER TABLE t ALGORITHM=INPLACE, COMMENT='ALGORITHM=NOCOPY'", ast.AlgorithmTypeInplace},
	} {
		p, err := Parse(c.sql, 0)
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		if got := last(p.Node); got != c.want {
			t.Errorf("%s: algorithm %d, want %d", c.sql, got, c.want)
		}
	}
	p, err := Parse("ALTER TABLE t COMMENT='ALGORITHM=NOCOPY'", 0)
	if err != nil {
		t.Fatal(err)
	}
	if o := p.Node.(*ast.AlterTableStmt).Specs[0].Options[0]; o.StrValue != "ALGORITHM=NOCOPY" {
		t.Errorf("the comment became %q", o.StrValue)
	}
	p, err = Parse("CREATE INDEX i ON t (a) ALGORITHM=NOCOPY", 0)
	if err != nil || p.Node.(*ast.CreateIndexStmt).LockAlg.AlgorithmTp != AlgorithmNoCopy {
		t.Errorf("CREATE INDEX ... ALGORITHM=NOCOPY: %v", err)
	}
	for sql, code := range map[string]uint16{
		"DROP INDEX i ON t ALGORITHM=NOCOPY": 1064,
		"ALTER TABLE t ALGORITHM=FOO, FORCE": 1800,
		"ALTER TABLE t LOCK=FOO, FORCE":      1801,
	} {
		_, err := Parse(sql, 0)
		if e, ok := sqlerr.As(err); !ok || e.Code != code {
			t.Errorf("%s: %v, want %d", sql, err, code)
		}
	}
}
