package engine

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/plrun/plrun/asynccommit"
	"github.com/plrun/plrun/hotrow"
	"github.com/plrun/plrun/lockmgr"
	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql"
	"github.com/plrun/plrun/sql/acl"
	"github.com/plrun/plrun/sql/enginestatus"
	"github.com/plrun/plrun/sql/psm"
	"github.com/plrun/plrun/sql/querylog"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage/kv"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/wal"
)

// Config configures Open.
type Config struct {
	Dir      string
	Settings map[string]string // SET GLOBAL name = value at open (the command line)
	// OptionSettings are the option files' settings, applied first
	// (origins.go).
	OptionSettings []OptionSetting
	ProcsDir       string // folder of *.lua/*.js procedures to load
	Workers        int    // worker pool size (0 = plrun_workers default)
	// Runtimes are the languages procedures may be written in (Lua,
	// JavaScript: runtime/builtin.Runtimes). The engine imports none.
	Runtimes []procs.Runtime
	// Logger is the error log (start, recovery, checkpoints, fail-stop,
	// KILLs, lock-wait timeouts, deadlocks); nil logs nothing.
	Logger *slog.Logger
	// ReopenErrorLog reopens the error log's file (FLUSH ERROR LOGS);
	// nil when it is no file (stderr, or a Logger of the caller's).
	ReopenErrorLog func() error

	// WalOptions is for tests: fault injection into the log.
	WalOptions wal.Options
	// BeforeTruncate is for tests: run by a checkpoint after the table
	// store's flush, before the log is truncated.
	BeforeTruncate func(applied uint64)
	// OnStoreFlush is for tests: run as the table store starts writing a
	// memtable to disk.
	OnStoreFlush func()
}

// Logger is the engine's error log (Config.Logger; never nil).
func (e *Engine) Logger() *slog.Logger { return e.cfg.Logger }

// Engine is an open database shared by its sessions.
type Engine struct {
	cfg   Config
	log   *wal.Log
	pipe  *asynccommit.Pipeline
	locks *lockmgr.Manager
	txm   *txn.Manager
	procs *procs.Catalog
	// accounts is the account catalog (sql/acl): logged as accounts
	// records, kept in snapshots beside the procedures.
	accounts *acl.Catalog
	// runtimes compile procedure bodies (Lua, JavaScript).
	runtimes []procs.Runtime

	globals *sysvar.Globals
	db      *sql.Database // what sessions share; set once recovery is done
	// hot settings mirrored for lock-free reads
	elr       atomic.Bool
	maxDeps   atomic.Int64
	flushMode atomic.Int64
	lockWait  atomic.Int64 // seconds
	syncDelay atomic.Int64 // microseconds
	ckptSize  atomic.Int64

	workers *workerPool

	// hot-row group update (seed 002)
	hot *hotrow.Batcher

	net NetStats // the server's connection counters

	// large transactions (seed 004)
	largeTrx      atomic.Bool
	largeTrxMax   atomic.Int64
	largeTrxSplit atomic.Int64

	sessMu   sync.Mutex
	sessions map[uint64]*sql.Session

	// persisted is plrun-auto.cnf's content (engine/persist.go), guarded by
	// persistMu for writers.
	persistMu sync.Mutex
	persisted map[string]string

	// qlog is the general and slow query log (querylogs.go); qlogMu
	// serializes applying their settings, whose last state is qlogState.
	qlog      *querylog.Logs
	qlogMu    sync.Mutex
	qlogState queryLogState

	ckptMu  sync.Mutex
	ckptRun atomic.Bool
	ckpt    checkpointStats
	// lastCkpt is the last checkpoint this process made (SHOW ENGINE PLRUN STATUS).
	lastCkpt atomic.Pointer[enginestatus.Checkpoint]
	bg       sync.WaitGroup
	closed   atomic.Bool
	started  time.Time
	dirLock  *os.File // held while open; see lockDir
	store    *kv.Store
}

// closeStore applies what the closed pipeline made durable and flushes
// the table store, so the next open replays nothing; then closes the
// store. The log is left as it is (checkpoints truncate it).
func (e *Engine) closeStore() error {
	errApply := e.txm.StopApplier()
	_, err := e.store.Flush()
	return errors.Join(errApply, err, e.store.Close())
}

// Open opens or creates the database in cfg.Dir and recovers it.
func Open(cfg Config) (*Engine, error) {
	if cfg.Dir == "" {
		cfg.Dir = "plrun-data"
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return nil, sqlerr.Wrap(err, sqlerr.ErUnknown, "cannot create data directory: %v", err)
	}
	dirLock, err := lockDir(cfg.Dir)
	if err != nil {
		return nil, err
	}
	e := &Engine{cfg: cfg, globals: sysvar.NewGlobals(), sessions: map[uint64]*sql.Session{}, started: time.Now(), dirLock: dirLock}
	e.ckpt.duration = newCheckpointDuration()
	opened := false
	defer func() {
		if !opened && dirLock != nil {
			dirLock.Close()
		}
	}()
	e.hot = hotrow.New()
	e.openQueryLogs()
	defer func() {
		if !opened {
			e.qlog.Close()
		}
	}()
	// SQL/PSM is plrun's own language, not a VM: always present, beside
	// the caller's runtimes.
	e.runtimes = append([]procs.Runtime{psm.Runtime{}}, cfg.Runtimes...)
	e.procs = procs.NewCatalog(e.runtimes...)
	e.accounts = acl.New()
	// The embedder's read-only values first (what others are checked
	// against: have_ssl); then MySQL 8's order: option files, persisted
	// settings (ALTER SYSTEM SET, SET PERSIST), then the command line,
	// which wins for this run (origins.go).
	e.applyStartupOnly(cfg.Settings)
	if err := e.applyOptionSettings(); err != nil {
		return nil, err
	}
	if err := e.applyPersisted(); err != nil {
		return nil, err
	}
	if err := e.applyCommandLine(); err != nil {
		return nil, err
	}
	e.syncSettings()
	n, _ := strconv.Atoi(e.globals.Get("plrun_workers"))
	e.workers = newWorkerPool(n)

	rec, err := e.recover()
	if err != nil {
		return nil, err
	}
	e.removeLeftoverSnapshots()
	cat := rec.cat
	e.store = rec.store
	e.pipe = asynccommit.Open(e.log, asynccommit.Options{
		FlushMode: func() int { return int(e.flushMode.Load()) },
		SyncDelay: func() time.Duration { return time.Duration(e.syncDelay.Load()) * time.Microsecond },
		OnFailStop: func(op string, cause error, durable uint64) {
			e.cfg.Logger.Error("commit pipeline fail-stop: the log failed, no more commits until a restart recovers the durable prefix",
				"op", op, "err", cause, "durable_lsn", durable)
		},
	})
	e.locks = lockmgr.New(lockmgr.Options{
		LockWaitTimeout:  func() time.Duration { return time.Duration(e.lockWait.Load()) * time.Second },
		MaxELRDependents: func() int { return int(e.maxDeps.Load()) },
		Durability:       e.pipe,
	})
	e.txm = txn.NewManager(cat, e.locks, e.pipe, e.log)
	e.txm.HeaderExtra = func() ([]byte, error) { return e.extraJSON(e.txm.Catalog()) }
	e.txm.OnApplyFailure = func(err error) {
		e.cfg.Logger.Error("table store: applying committed records failed; the log keeps them, restart to retry", "err", err)
	}
	e.txm.BeforeTruncate = cfg.BeforeTruncate
	_, rowBudget := e.cacheBudgets()
	e.txm.StartApplier(e.store, rec.tables, rec.pending, rowBudget)
	e.txm.ELR = e.elr.Load
	e.txm.LargeTxn = func() (bool, int, int) {
		return e.largeTrx.Load(), int(e.largeTrxMax.Load()), int(e.largeTrxSplit.Load())
	}
	e.db = sql.NewDatabase(e.txm, e.procs, e.runtimes, e.hot, e.globals, e)
	e.db.QueryLog = e.qlog
	e.db.Logger = cfg.Logger
	e.db.ReopenErrorLog = cfg.ReopenErrorLog
	e.db.Accounts = e.accounts
	e.syncSettings()
	opened = true
	if cfg.ProcsDir != "" {
		if err := e.LoadProcsDir(context.Background(), cfg.ProcsDir); err != nil {
			e.Close()
			return nil, err
		}
	}
	return e, nil
}

// syncSettings mirrors the hot global variables into atomics.
func (e *Engine) syncSettings() {
	g := e.globals
	e.elr.Store(g.Get("enable_early_lock_release") == "ON")
	atoi := func(n string) int64 { v, _ := strconv.ParseInt(g.Get(n), 10, 64); return v }
	e.maxDeps.Store(atoi("_max_elr_dependent_trx_count"))
	e.flushMode.Store(atoi("innodb_flush_log_at_trx_commit"))
	e.lockWait.Store(atoi("innodb_lock_wait_timeout"))
	e.syncDelay.Store(atoi("plrun_log_sync_delay_us"))
	e.largeTrx.Store(g.Get("consensus_large_trx") == "ON")
	e.largeTrxMax.Store(atoi("consensus_max_log_size"))
	e.largeTrxSplit.Store(min(atoi("consensus_large_trx_split_size"), atoi("consensus_large_event_split_size")))
	e.ckptSize.Store(atoi("plrun_checkpoint_log_size"))
	if e.workers != nil {
		e.workers.setLimit(int(atoi("plrun_workers")))
	}
	e.applyQueryLogs()
	if db := e.db; db != nil {
		db.ELR.Store(e.elr.Load())
		db.Hotspot.Store(g.Get("hotspot") == "ON")
		db.HotspotAutocommit.Store(g.Get("hotspot_for_autocommit") == "ON")
		db.HotspotWait.Store(atoi("hotspot_update_max_wait_time"))
	}
}

// LoadProcsDir loads every procedure file in dir (CREATE OR REPLACE).
func (e *Engine) LoadProcsDir(ctx context.Context, dir string) error {
	defs, err := procs.LoadDir(dir)
	if err != nil {
		return sql.MapError(err)
	}
	s := e.NewSession()
	defer s.Close()
	for _, d := range defs {
		if err := s.CreateProcedure(ctx, d, true); err != nil {
			return err
		}
	}
	return nil
}

// Close stops the engine: syncs the log and closes it.
func (e *Engine) Close() error {
	if !e.closed.CompareAndSwap(false, true) {
		return nil
	}
	for _, s := range e.openSessions() {
		s.Shutdown()
	}
	e.bg.Wait()
	var errs []error
	if e.pipe != nil {
		errs = append(errs, e.pipe.Close())
	}
	if e.txm != nil {
		errs = append(errs, e.closeStore())
	} else if e.store != nil {
		errs = append(errs, e.store.Close())
	}
	if e.log != nil {
		errs = append(errs, e.log.Close())
	}
	if e.qlog != nil {
		errs = append(errs, e.qlog.Close())
	}
	if e.dirLock != nil {
		errs = append(errs, e.dirLock.Close())
	}
	return errors.Join(errs...)
}
