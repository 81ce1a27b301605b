package psm

import (
	"github.com/plrun/plrun/procs"
)

// txnStmt is START TRANSACTION, COMMIT, ROLLBACK and the savepoint
// statements: they go to the host's transaction methods, the same the Lua
// and JavaScript session APIs call, so ob_enable_pl_async_commit and the
// CALL's durable-before-reply wait apply to them unchanged.
type txnStmt struct {
	op   string // START, COMMIT, ROLLBACK, SAVEPOINT, ROLLBACK TO, RELEASE
	name string
}

func (s *txnStmt) exec(r *runner) error {
	var err error
	switch s.op {
	case "START":
		err = r.host.StartTransaction(r.ctx)
	case "COMMIT":
		err = r.host.Commit(r.ctx, procs.WaitSession)
	case "ROLLBACK":
		err = r.host.Rollback(r.ctx)
	case "SAVEPOINT":
		err = r.host.Savepoint(r.ctx, s.name)
	case "ROLLBACK TO":
		err = r.host.RollbackToSavepoint(r.ctx, s.name)
	case "RELEASE":
		err = r.host.ReleaseSavepoint(r.ctx, s.name)
	}
	if err == nil {
		r.da.statementDone(0)
	}
	return err
}

func (c *compiler) compileTxn() (stmt, error) {
	kw := c.next()
	if (c.function || c.trig != nil) && (kw.is("START") || kw.is("COMMIT") || kw.is("ROLLBACK") && !c.peek().is("TO") && !c.peekAt(1).is("TO")) {
		// A function's statements belong to the calling statement.
		return nil, newErr(1422, "HY000", "Explicit or implicit commit is not allowed in stored function or trigger")
	}
	switch {
	case kw.is("START"):
		if err := c.expect("TRANSACTION"); err != nil {
			return nil, err
		}
		if !c.atEnd() {
			return nil, notSupported("START TRANSACTION with characteristics in a SQL procedure")
		}
		return &txnStmt{op: "START"}, nil
	case kw.is("COMMIT"), kw.is("ROLLBACK"):
		op := upper(kw.text)
		c.accept("WORK")
		if op == "ROLLBACK" && c.accept("TO") {
			c.accept("SAVEPOINT")
			name, err := c.ident()
			if err != nil {
				return nil, err
			}
			return &txnStmt{op: "ROLLBACK TO", name: name}, nil
		}
		if c.peek().is("AND") || c.peek().is("NO") || c.peek().is("RELEASE") {
			return nil, notSupported(op + " AND CHAIN / RELEASE in a SQL procedure")
		}
		return &txnStmt{op: op}, nil
	case kw.is("SAVEPOINT"):
		name, err := c.ident()
		if err != nil {
			return nil, err
		}
		return &txnStmt{op: "SAVEPOINT", name: name}, nil
	}
	// RELEASE SAVEPOINT name
	if err := c.expect("SAVEPOINT"); err != nil {
		return nil, err
	}
	name, err := c.ident()
	if err != nil {
		return nil, err
	}
	return &txnStmt{op: "RELEASE", name: name}, nil
}

// atEnd reports whether the statement ends at the next token.
func (c *compiler) atEnd() bool {
	t := c.peek()
	return t.kind == tokEOF || t.kind == tokPunct && t.text == ";"
}
