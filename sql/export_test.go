package sql

import (
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/txn"
)

// ExecHoldingWorker runs fn in a new transaction of the session as a
// statement holding a worker does (the panic guard's test).
func (s *Session) ExecHoldingWorker(fn func(x *txn.Txn)) {
	s.execHoldingWorker(func() (*exec.Result, uint64, error) {
		fn(s.beginTxn(nil))
		return nil, 0, nil
	})
}

// BuildInfoSchemaTable builds information_schema's table name as a
// statement naming it does (the benchmark's floor).
func (s *Session) BuildInfoSchemaTable(name string) int {
	return s.State.Virtual.Table("information_schema", name, nil).Len()
}

// SetRunningQuery makes q the session's running statement text, as
// PROCESSLIST shows it while it runs.
func (s *Session) SetRunningQuery(q string) {
	s.mu.Lock()
	s.query = q
	s.mu.Unlock()
}
