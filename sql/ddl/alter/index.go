package alter

import (
	"context"
	"fmt"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/txn"
)

// createIndex runs CREATE [UNIQUE] INDEX i ON t (a, b DESC): ALTER TABLE t
// ADD [UNIQUE] INDEX i (a, b DESC), rebuilt online like any ALTER.
func createIndex(ctx context.Context, s *exec.State, txns *txn.Manager, x *ast.CreateIndexStmt) (*exec.Result, error) {
	t, err := s.ResolveTable(x.Table)
	if err != nil {
		return nil, err
	}
	p := newAlterPlan(s, t)
	p.rebuild = true
	if x.IfNotExists && p.keyIndex(x.IndexName) >= 0 {
		p.note(sqlerr.ErDupKeyName, "Duplicate key name '%s'", x.IndexName)
		return notesOnly(s), nil
	}
	using, err := indexOptions(x.IndexOption)
	if err != nil {
		return nil, err
	}
	switch x.KeyType {
	case ast.IndexKeyTypeNone, ast.IndexKeyTypeUnique:
	default:
		return nil, notYet("CREATE FULLTEXT/SPATIAL INDEX")
	}
	if err := p.addKeyParts(x.IndexName, x.IndexPartSpecifications, false, x.KeyType == ast.IndexKeyTypeUnique); err != nil {
		return nil, err
	}
	p.setUsing(using)
	if err := p.lockAndAlgorithm(x.LockAlg); err != nil {
		return nil, err
	}
	return rebuildOnline(ctx, s, txns, p)
}

// dropIndex runs DROP INDEX i ON t.
func dropIndex(ctx context.Context, s *exec.State, txns *txn.Manager, x *ast.DropIndexStmt) (*exec.Result, error) {
	t, err := s.ResolveTable(x.Table)
	if err != nil {
		return nil, err
	}
	p := newAlterPlan(s, t)
	p.rebuild = true
	n := len(p.keys)
	if err := p.dropKey(x.IndexName, x.IfExists); err != nil {
		return nil, err
	}
	if len(p.keys) == n {
		return notesOnly(s), nil // IF EXISTS of a missing index: its note only
	}
	if err := p.lockAndAlgorithm(x.LockAlg); err != nil {
		return nil, err
	}
	return rebuildOnline(ctx, s, txns, p)
}

func (p *alterPlan) lockAndAlgorithm(la *ast.IndexLockAndAlgorithm) error {
	if la == nil {
		return nil
	}
	p.algorithm = la.AlgorithmTp
	p.lockNone = la.LockTp == ast.LockTypeNone
	return nil // checked with the rest by rebuildOnline
}

// notesOnly is the reply of an index statement that changed nothing.
func notesOnly(s *exec.State) *exec.Result {
	return &exec.Result{Info: fmt.Sprintf("Records: 0  Duplicates: 0  Warnings: %d", s.StmtWarnings)}
}
