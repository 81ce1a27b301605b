package sql

import (
	"context"
	"strconv"

	"github.com/plrun/plrun/membudget"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/types"
)

// statementMemoryLimit is plrun_max_statement_memory for this session.
func (s *Session) statementMemoryLimit() int64 {
	n, _ := strconv.ParseInt(s.getVar(sysvar.Defs[membudget.Setting], false), 10, 64)
	return n
}

// memAccount is what one (sub)query execution has charged to the
// statement's budget; close gives it all back when the buffers it stood
// for are dropped.
type memAccount struct {
	b    *membudget.Budget
	held int64
}

func newMemAccount(ctx context.Context) *memAccount {
	return &memAccount{b: membudget.From(ctx)}
}

// grow charges n bytes; past the budget it is error 3170.
func (a *memAccount) grow(n int64) error {
	if a == nil || a.b == nil {
		return nil
	}
	if err := a.b.Grow(n); err != nil {
		return err
	}
	a.held += n
	return nil
}

func (a *memAccount) close() {
	if a != nil && a.b != nil {
		a.b.Shrink(a.held)
		a.held = 0
	}
}

// Size estimates, in bytes, of what buffers hold: a Value's header plus
// its string or decimal payload; a row's slice header.
const (
	valueBytes  = 64
	rowBytes    = 24
	mapKeyBytes = 48
)

func valuesBytes(vs []types.Value) int64 {
	n := int64(rowBytes + valueBytes*len(vs))
	for i := range vs {
		n += valuePayload(vs[i])
	}
	return n
}

func valuePayload(v types.Value) int64 {
	switch v.K {
	case types.KindString:
		return int64(len(v.S))
	case types.KindDecimal:
		return 32
	}
	return 0
}
