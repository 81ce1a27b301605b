package rttest

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/plrun/plrun/procs"
)

// FakeHost is a procs.Host that records calls and answers from tables.
type FakeHost struct {
	// Results and Errors answer Exec by exact SQL text; other statements
	// get an empty result with AffectedRows 1.
	Results map[string]*procs.Result
	Errors  map[string]error
	// Panic makes Exec of that SQL panic, to prove runtimes recover.
	Panic string
	// NoRecord keeps Calls empty (long loops, benchmarks); counters still run.
	NoRecord bool

	mu       sync.Mutex
	Calls    []string // "exec SQL [args]", "start", "commit session", ...
	Execs    int
	Commits  int
	LastArgs []any
}

func (h *FakeHost) record(format string, args ...any) {
	if h.NoRecord {
		return
	}
	h.mu.Lock()
	h.Calls = append(h.Calls, fmt.Sprintf(format, args...))
	h.mu.Unlock()
}

// FormatArgs renders values with their Go types: [int64(1) string(a) nil].
func FormatArgs(args []any) string {
	parts := make([]string, len(args))
	for i, a := range args {
		if a == nil {
			parts[i] = "nil"
		} else {
			parts[i] = fmt.Sprintf("%T(%v)", a, a)
		}
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func (h *FakeHost) Exec(ctx context.Context, sql string, args []any) (*procs.Result, error) {
	if sql == h.Panic && sql != "" {
		panic("fake host: " + sql)
	}
	h.mu.Lock()
	h.Execs++
	h.LastArgs = args
	h.mu.Unlock()
	h.record("exec %s %s", sql, FormatArgs(args))
	if err := h.Errors[sql]; err != nil {
		return nil, err
	}
	if r := h.Results[sql]; r != nil {
		return r, nil
	}
	return &procs.Result{AffectedRows: 1}, nil
}

func (h *FakeHost) StartTransaction(ctx context.Context) error {
	h.record("start")
	return nil
}

func (h *FakeHost) Commit(ctx context.Context, wait procs.CommitWait) error {
	h.mu.Lock()
	h.Commits++
	h.mu.Unlock()
	if wait == procs.WaitComplete {
		h.record("commit complete")
	} else {
		h.record("commit session")
	}
	return nil
}

func (h *FakeHost) Rollback(ctx context.Context) error {
	h.record("rollback")
	return nil
}

func (h *FakeHost) Savepoint(ctx context.Context, name string) error {
	h.record("savepoint %s", name)
	return nil
}

func (h *FakeHost) RollbackToSavepoint(ctx context.Context, name string) error {
	h.record("rollback to %s", name)
	return nil
}

func (h *FakeHost) ReleaseSavepoint(ctx context.Context, name string) error {
	h.record("release %s", name)
	return nil
}

func (h *FakeHost) Emit(ctx context.Context, res *procs.Result) error {
	h.record("emit %v %v", res.Columns, res.Rows)
	return nil
}

func (h *FakeHost) Note(ctx context.Context, msg string) error {
	h.record("note %s", msg)
	return nil
}
