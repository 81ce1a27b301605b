package membudget

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/plrun/plrun/sqlerr"
)

// Setting is the name of the system variable that sizes a Budget.
const Setting = "plrun_max_statement_memory"

// ErrExceeded is the sentinel every budget error wraps.
var ErrExceeded = errors.New("statement memory budget exceeded")

// Budget is the bytes one statement or CALL may hold.
type Budget struct {
	limit int64
	used  atomic.Int64
}

// New returns a budget of limit bytes; limit <= 0 is no limit (nil).
func New(limit int64) *Budget {
	if limit <= 0 {
		return nil
	}
	return &Budget{limit: limit}
}

// Limit is the budget's size in bytes (0 for no limit).
func (b *Budget) Limit() int64 {
	if b == nil {
		return 0
	}
	return b.limit
}

// Used is what is charged now.
func (b *Budget) Used() int64 {
	if b == nil {
		return 0
	}
	return b.used.Load()
}

// charged is what every budget of the process has charged: the heap
// growth of the SQL buffers, which a Watch must not blame on its VM.
var charged atomic.Int64

// Grow charges n bytes, or fails (charging nothing) if they do not fit.
func (b *Budget) Grow(n int64) error {
	if b == nil || n <= 0 {
		return nil
	}
	if b.used.Add(n) > b.limit {
		b.used.Add(-n)
		return b.exceeded()
	}
	charged.Add(n)
	return nil
}

// Shrink gives back n bytes charged earlier.
func (b *Budget) Shrink(n int64) {
	if b != nil && n > 0 {
		b.used.Add(-n)
		charged.Add(-n)
	}
}

// Fits checks that one object of n bytes fits in what is left, without
// charging it: what a VM asks before it builds a string or an array.
func (b *Budget) Fits(n int64) error {
	if b == nil {
		return nil
	}
	if n < 0 || n > b.limit-b.used.Load() {
		return b.exceeded()
	}
	return nil
}

func (b *Budget) exceeded() error {
	return sqlerr.Wrap(ErrExceeded, sqlerr.ErCapacityExceeded,
		"Memory capacity of %d bytes for '%s' exceeded. The statement was stopped; raise %s or make it hold less",
		b.limit, Setting, Setting)
}

type ctxKey struct{}

// With returns ctx carrying b.
func With(ctx context.Context, b *Budget) context.Context {
	return context.WithValue(ctx, ctxKey{}, b)
}

// From is the budget ctx carries, or nil (no limit).
func From(ctx context.Context) *Budget {
	if ctx == nil {
		return nil
	}
	b, _ := ctx.Value(ctxKey{}).(*Budget)
	return b
}
