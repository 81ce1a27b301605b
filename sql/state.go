package sql

import (
	"sync/atomic"

	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/txn"
)

// State is what statements (SELECT, INSERT, UPDATE, DELETE) need of the
// session running them: its Env, the transaction manager whose catalog
// names resolve in, and the schema epoch plans are valid for.
type State struct {
	expr.Env
	txns  *txn.Manager
	epoch *atomic.Uint64
}

// NewState is the statement state of a session.
func NewState(env expr.Env, txns *txn.Manager, epoch *atomic.Uint64) State {
	return State{Env: env, txns: txns, epoch: epoch}
}
