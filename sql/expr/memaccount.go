package expr

import (
	"context"

	"github.com/plrun/plrun/membudget"
	"github.com/plrun/plrun/types"
)

// MemAccount is what one (sub)query execution has charged to the
// statement's budget; close gives it all back when the buffers it stood
// for are dropped.
type MemAccount struct {
	b    *membudget.Budget
	held int64
}

func NewMemAccount(ctx context.Context) *MemAccount {
	return &MemAccount{b: membudget.From(ctx)}
}

// Grow charges n bytes; past the budget it is error 3170.
func (a *MemAccount) Grow(n int64) error {
	if a == nil || a.b == nil {
		return nil
	}
	if err := a.b.Grow(n); err != nil {
		return err
	}
	a.held += n
	return nil
}

func (a *MemAccount) Close() {
	if a != nil && a.b != nil {
		a.b.Shrink(a.held)
		a.held = 0
	}
}

// Size estimates, in bytes, of what buffers hold: a Value's header plus
// its string or decimal payload; a row's slice header.
const (
	ValueBytes  = 64
	RowBytes    = 24
	MapKeyBytes = 48
)

// ValuesBytes is what a row of vs holds in memory.
func ValuesBytes(vs []types.Value) int64 {
	n := int64(RowBytes + ValueBytes*len(vs))
	for i := range vs {
		n += ValuePayload(vs[i])
	}
	return n
}

func ValuePayload(v types.Value) int64 {
	switch v.K {
	case types.KindString:
		return int64(len(v.S))
	case types.KindDecimal:
		return 32
	}
	return 0
}
