package alter

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
)

// ALGORITHM= and LOCK= ask MariaDB for one of its ways to make a change:
// INSTANT (metadata only), NOCOPY (in place, the clustered index kept),
// INPLACE (in place, perhaps rebuilding it), COPY (rows copied under a
// shared lock). plrun rebuilds every change online, its writers waiting
// only for the switch, so it does what each asks for; what it refuses is
// what MariaDB refuses, with MariaDB's errors: 1845 (no reason) or 1846
// (a reason), checked in MariaDB's order.

// algorithmName is ALGORITHM='s word as MariaDB's messages print it.
func algorithmName(a ast.AlgorithmType) string {
	if a == parse.AlgorithmNoCopy {
		return "NOCOPY"
	}
	return a.String()
}

// checkAlgorithm refuses an ALGORITHM= or LOCK= the change cannot honour.
func (p *alterPlan) checkAlgorithm() error {
	alg := p.algorithm
	name := algorithmName(alg)
	notCopy := alg == ast.AlgorithmTypeInplace || alg == ast.AlgorithmTypeInstant || alg == parse.AlgorithmNoCopy
	if p.orderBy != nil {
		// a copy whatever ALGORITHM= says, but for INPLACE (MariaDB's answers)
		switch {
		case alg == ast.AlgorithmTypeInplace:
			return sqlerr.New(sqlerr.ErAlterOperationNotSup, "ALGORITHM=INPLACE is not supported for this operation. Try ALGORITHM=COPY")
		case p.lockNone:
			return sqlerr.New(sqlerr.ErAlterOperationNotSupp, "LOCK=NONE is not supported. Reason: COPY algorithm requires a lock. Try LOCK=SHARED")
		}
		if p.copyWhy == "" {
			p.copyWhy = "ORDER BY"
		}
		return nil
	}
	if len(p.cons.addChecks) > 0 {
		// ADD CHECK copies the rows to check them; MariaDB gives no reason
		switch {
		case notCopy:
			return sqlerr.New(sqlerr.ErAlterOperationNotSup, "ALGORITHM=%s is not supported for this operation. Try ALGORITHM=COPY", name)
		case p.lockNone:
			return sqlerr.New(sqlerr.ErAlterOperationNotSup, "LOCK=NONE is not supported for this operation. Try LOCK=SHARED")
		}
	}
	why := p.copyWhy
	if alg == ast.AlgorithmTypeCopy {
		if p.lockNone {
			return sqlerr.New(sqlerr.ErAlterOperationNotSupp, "LOCK=NONE is not supported. Reason: COPY algorithm requires a lock. Try LOCK=SHARED")
		}
		if why == "" {
			p.copyWhy = "ALGORITHM=COPY"
		}
		return nil
	}
	if why != "" {
		if notCopy {
			return sqlerr.New(sqlerr.ErAlterOperationNotSupp, "ALGORITHM=%s is not supported. Reason: %s. Try ALGORITHM=COPY", name, why)
		}
		if p.lockNone {
			return sqlerr.New(sqlerr.ErAlterOperationNotSupp, "LOCK=NONE is not supported. Reason: %s. Try LOCK=SHARED", why)
		}
	}
	if p.rebuilds && (alg == ast.AlgorithmTypeInstant || alg == parse.AlgorithmNoCopy) {
		return sqlerr.New(sqlerr.ErAlterOperationNotSup, "ALGORITHM=%s is not supported for this operation. Try ALGORITHM=INPLACE", name)
	}
	if alg == ast.AlgorithmTypeInstant && p.noCopyWhy != "" {
		return sqlerr.New(sqlerr.ErAlterOperationNotSupp, "ALGORITHM=INSTANT is not supported. Reason: %s. Try ALGORITHM=NOCOPY", p.noCopyWhy)
	}
	return nil
}

// rebuildsClustered reports a change InnoDB makes in place only by
// rebuilding the clustered index — a column's NULL / NOT NULL changed, the
// PRIMARY KEY changed, an AUTO_INCREMENT column added — which INSTANT and
// NOCOPY refuse (FORCE and ENGINE= set alterPlan.rebuilds themselves).
func rebuildsClustered(old, def *storage.TableDef, shape *storage.Reshape) bool {
	for i, src := range shape.Source {
		if src < 0 {
			if def.Columns[i].AutoIncrement {
				return true
			}
			continue
		}
		if def.Columns[i].NotNull != old.Columns[src].NotNull {
			return true
		}
	}
	opk, npk := old.PrimaryKey(), def.PrimaryKey()
	if len(opk) != len(npk) {
		return true
	}
	for i, c := range npk {
		if shape.Source[c] != opk[i] {
			return true
		}
	}
	return false
}
