package engine

import (
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/plrun/plrun/sql"

	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// setGlobal sets a global variable and applies it to the running engine.
// It returns MySQL's warning when the value was clamped into range.
func (e *Engine) setGlobal(name string, v types.Value) (*sql.Note, error) {
	d, err := sysvar.Lookup(name)
	if err != nil {
		return nil, err
	}
	if d.ReadOnly {
		return nil, sqlerr.New(sqlerr.ErReadOnlyVariable, "Variable '%s' is a read only variable", d.Name)
	}
	if !d.Global {
		return nil, sqlerr.New(sqlerr.ErLocalVariable, "Variable '%s' is a SESSION variable and can't be used with SET GLOBAL", d.Name)
	}
	text, warn, err := sysvar.Normalize(d, v)
	if err != nil {
		return nil, err
	}
	if err := sysvar.Check(d, text); err != nil {
		return nil, err
	}
	if err := e.checkLogFile(d, text); err != nil {
		return nil, err
	}
	if err := e.checkSecureTransport(d, text); err != nil {
		return nil, err
	}
	e.globals.Mu.Lock()
	e.globals.Vals[d.Key()] = text
	e.globals.Mu.Unlock()
	e.syncSettings()
	return warn, nil
}

// setOpenSetting is --set name=value at open (and a DSN parameter): the
// text is read as SET reads a literal, and a value MySQL would clamp with
// a warning is an error here, since no one would see the warning.
func (e *Engine) setOpenSetting(name, text string) error {
	warn, err := e.setGlobal(name, sysvar.Literal(text))
	if err != nil {
		return err
	}
	if warn != nil {
		return sqlerr.New(sqlerr.ErWrongValueForVar, "Variable '%s' can't be set to the value of '%s' (out of range)", strings.ToLower(name), text)
	}
	return nil
}

// MaxAllowedPacket is max_allowed_packet as a new connection takes it:
// the global value (in MySQL the session's copy is read-only).
func (e *Engine) MaxAllowedPacket() int {
	n, err := strconv.Atoi(e.globals.Get("max_allowed_packet"))
	if err != nil || n <= 0 {
		return 64 << 20
	}
	return n
}

// SetGlobal is SET GLOBAL (sql.Engine).
func (e *Engine) SetGlobal(name string, v types.Value) (*sql.Note, error) {
	return e.setGlobal(name, v)
}

// ResetGlobal is SET GLOBAL x = DEFAULT (sql.Engine).
func (e *Engine) ResetGlobal(d *sysvar.Def) {
	e.globals.Mu.Lock()
	e.globals.Vals[d.Key()] = d.Def
	e.globals.Mu.Unlock()
	e.syncSettings()
}

// PersistSetting is ALTER SYSTEM SET / SET PERSIST[_ONLY] (sql.Engine).
func (e *Engine) PersistSetting(name string, v types.Value, only bool) (*sql.Note, error) {
	return e.persistSetting(name, v, only)
}

// ResetPersisted is RESET PERSIST (sql.Engine).
func (e *Engine) ResetPersisted(name string, ifExists bool) error {
	return e.resetPersisted(name, ifExists)
}

// StoreStats is the table store's state: applied and flushed LSNs, the
// applier's queue, the resident rows and their budget.
func (e *Engine) StoreStats() txn.StoreStats { return e.txm.StoreStats() }

// LimitGoMemory sets the Go runtime's soft memory limit for a process
// that serves this engine (`plrun serve`, the benchmarks): the part of
// plrun_cache_size that is in the Go heap (all but pebble's block cache,
// which is outside it, in cgo memory) plus 256 MiB for statements and
// sessions, so the garbage collector keeps the heap near what is live
// instead of letting it double, and the process stays near the cache
// size plus that overhead. pebble's memtables (cgo too) come on top.
// GOMEMLIMIT in the environment wins; an embedder that does not call it
// keeps its own setting. It returns the limit in effect.
func (e *Engine) LimitGoMemory() int64 {
	if os.Getenv("GOMEMLIMIT") != "" {
		return debug.SetMemoryLimit(-1)
	}
	blockCache, _ := e.cacheBudgets()
	limit := e.cacheSize() - blockCache + 256<<20
	debug.SetMemoryLimit(limit)
	return limit
}
