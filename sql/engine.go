package sql

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/plrun/plrun/asynccommit"
	"github.com/plrun/plrun/hotrow"
	"github.com/plrun/plrun/lockmgr"
	"github.com/plrun/plrun/procs"
	jsrt "github.com/plrun/plrun/runtime/js"
	luart "github.com/plrun/plrun/runtime/lua"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/wal"
)

// Config configures Open.
type Config struct {
	Dir      string
	Settings map[string]string // SET GLOBAL name = value at open
	ProcsDir string            // folder of *.lua/*.js procedures to load
	Workers  int               // worker pool size (0 = plrun_workers default)

	// WalOptions is for tests: fault injection into the log.
	WalOptions wal.Options
}

// Engine is an open database shared by its sessions.
type Engine struct {
	cfg   Config
	log   *wal.Log
	pipe  *asynccommit.Pipeline
	locks *lockmgr.Manager
	txm   *txn.Manager
	procs *procs.Catalog
	// runtimes compile procedure bodies (Lua, JavaScript).
	runtimes []procs.Runtime

	globals *sysvar.Globals
	// hot settings mirrored for lock-free reads
	elr         atomic.Bool
	maxDeps     atomic.Int64
	flushMode   atomic.Int64
	lockWait    atomic.Int64 // seconds
	syncDelay   atomic.Int64 // microseconds
	ckptSize    atomic.Int64
	schemaEpoch atomic.Uint64

	workers *workerPool
	plans   *planCache

	// hot-row group update (seed 002)
	hot               *hotrow.Batcher
	hotspot           atomic.Bool
	hotspotAutocommit atomic.Bool
	hotspotWait       atomic.Int64 // microseconds

	// large transactions (seed 004)
	largeTrx      atomic.Bool
	largeTrxMax   atomic.Int64
	largeTrxSplit atomic.Int64

	sessMu   sync.Mutex
	sessions map[uint64]*Session
	nextSess atomic.Uint64

	// persisted is plrun-auto.cnf's content (persist.go), guarded by
	// persistMu for writers.
	persistMu sync.Mutex
	persisted map[string]string

	ckptMu  sync.Mutex
	ckptRun atomic.Bool
	bg      sync.WaitGroup
	closed  atomic.Bool
	started time.Time
	dirLock *os.File // held while open; see lockDir
}

// Open opens or creates the database in cfg.Dir and recovers it.
func Open(cfg Config) (*Engine, error) {
	if cfg.Dir == "" {
		cfg.Dir = "plrun-data"
	}
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return nil, sqlerr.Wrap(err, sqlerr.ErUnknown, "cannot create data directory: %v", err)
	}
	dirLock, err := lockDir(cfg.Dir)
	if err != nil {
		return nil, err
	}
	e := &Engine{cfg: cfg, globals: sysvar.NewGlobals(), sessions: map[uint64]*Session{}, started: time.Now(), dirLock: dirLock}
	opened := false
	defer func() {
		if !opened && dirLock != nil {
			dirLock.Close()
		}
	}()
	e.plans = newPlanCache(4096)
	e.hot = hotrow.New()
	e.runtimes = []procs.Runtime{luart.New(luart.Options{}), jsrt.New(jsrt.Options{})}
	e.procs = procs.NewCatalog(e.runtimes...)
	// Persisted settings first (ALTER SYSTEM SET, SET PERSIST), then --set,
	// which wins for this run.
	if err := e.applyPersisted(); err != nil {
		return nil, err
	}
	for name, val := range cfg.Settings {
		if strings.EqualFold(name, "secure_file_priv") {
			// Read-only at run time, like MySQL's: only set at open.
			e.globals.Vals["secure_file_priv"] = val
			continue
		}
		if err := e.setOpenSetting(name, val); err != nil {
			return nil, err
		}
	}
	if cfg.Workers > 0 {
		if err := e.setOpenSetting("plrun_workers", strconv.Itoa(cfg.Workers)); err != nil {
			return nil, err
		}
	}
	e.syncSettings()
	n, _ := strconv.Atoi(e.globals.Get("plrun_workers"))
	e.workers = newWorkerPool(n)

	cat, err := e.recover()
	if err != nil {
		return nil, err
	}
	e.pipe = asynccommit.Open(e.log, asynccommit.Options{
		FlushMode: func() int { return int(e.flushMode.Load()) },
		SyncDelay: func() time.Duration { return time.Duration(e.syncDelay.Load()) * time.Microsecond },
	})
	e.locks = lockmgr.New(lockmgr.Options{
		LockWaitTimeout:  func() time.Duration { return time.Duration(e.lockWait.Load()) * time.Second },
		MaxELRDependents: func() int { return int(e.maxDeps.Load()) },
		Durability:       e.pipe,
	})
	e.txm = txn.NewManager(cat, e.locks, e.pipe, e.log)
	e.txm.ELR = e.elr.Load
	e.txm.LargeTxn = func() (bool, int, int) {
		return e.largeTrx.Load(), int(e.largeTrxMax.Load()), int(e.largeTrxSplit.Load())
	}
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
	e.hotspot.Store(g.Get("hotspot") == "ON")
	e.hotspotAutocommit.Store(g.Get("hotspot_for_autocommit") == "ON")
	atoi := func(n string) int64 { v, _ := strconv.ParseInt(g.Get(n), 10, 64); return v }
	e.maxDeps.Store(atoi("_max_elr_dependent_trx_count"))
	e.flushMode.Store(atoi("innodb_flush_log_at_trx_commit"))
	e.lockWait.Store(atoi("innodb_lock_wait_timeout"))
	e.syncDelay.Store(atoi("plrun_log_sync_delay_us"))
	e.hotspotWait.Store(atoi("hotspot_update_max_wait_time"))
	e.largeTrx.Store(g.Get("consensus_large_trx") == "ON")
	e.largeTrxMax.Store(atoi("consensus_max_log_size"))
	e.largeTrxSplit.Store(min(atoi("consensus_large_trx_split_size"), atoi("consensus_large_event_split_size")))
	e.ckptSize.Store(atoi("plrun_checkpoint_log_size"))
	if e.workers != nil {
		e.workers.setLimit(int(atoi("plrun_workers")))
	}
}

// procSnapshot is what a snapshot keeps of the procedure catalog.
type procSnapshot struct {
	Procs []procEntry `json:"procs"`
}

type procEntry struct {
	DB  string            `json:"db"`
	Def *procs.Definition `json:"def"`
}

// recover loads the latest snapshot and replays the log after it.
func (e *Engine) recover() (*storage.Catalog, error) {
	logf := e.cfg.WalOptions.Logf
	if logf == nil {
		logf = func(format string, args ...any) { fmt.Fprintf(os.Stderr, "plrun: "+format+"\n", args...) }
		e.cfg.WalOptions.Logf = logf
	}
	removed, err := wal.RemoveTempSnapshots(e.cfg.Dir)
	if err != nil {
		return nil, sqlerr.Wrap(err, sqlerr.ErUnknown, "removing unfinished snapshots: %v", err)
	}
	for _, name := range removed {
		logf("removed %s, the temporary file of a checkpoint that did not finish", name)
	}
	snapLSN, r, err := wal.OpenLatestSnapshot(e.cfg.Dir)
	if err != nil {
		return nil, sqlerr.Wrap(err, sqlerr.ErUnknown, "reading snapshot: %v", err)
	}
	cat := storage.NewCatalog()
	if r != nil {
		c, extra, err := storage.ReadSnapshot(r)
		r.Close()
		if err != nil {
			return nil, sqlerr.Wrap(err, sqlerr.ErUnknown, "reading snapshot: %v", err)
		}
		cat = c
		if len(extra) > 0 {
			var ps procSnapshot
			if err := json.Unmarshal(extra, &ps); err != nil {
				return nil, sqlerr.Wrap(err, sqlerr.ErUnknown, "reading snapshot procedures: %v", err)
			}
			for _, p := range ps.Procs {
				if err := e.procs.CreateIn(p.DB, p.Def, true); err != nil {
					return nil, fmt.Errorf("restoring procedure %s.%s: %w", p.DB, p.Def.Name, err)
				}
			}
		}
	}
	l, err := wal.Open(filepath.Join(e.cfg.Dir, "wal"), e.cfg.WalOptions)
	if err != nil {
		return nil, sqlerr.Wrap(err, sqlerr.ErUnknown, "opening log: %v", err)
	}
	e.log = l
	rp := &txn.Replayer{Catalog: cat}
	err = l.Replay(snapLSN, func(rec wal.Record) error {
		switch rec.Kind {
		case wal.KindCommit:
			return txn.ApplyRedo(cat, rec.LSN, rec.Payload)
		case wal.KindChunk:
			return rp.Chunk(rec.LSN, rec.Payload)
		case wal.KindChunkedCommit:
			return rp.ChunkedCommit(rec.LSN, rec.Payload)
		case wal.KindDDL:
			d, err := txn.DecodeDDL(rec.Payload)
			if err != nil {
				return err
			}
			e.applyDDL(cat, d)
		}
		return nil
	})
	if err != nil {
		l.Close()
		return nil, sqlerr.Wrap(err, sqlerr.ErUnknown, "replaying log: %v", err)
	}
	return cat, nil
}

// applyDDL replays a DDL record (tables via txn, procedures here).
func (e *Engine) applyDDL(cat *storage.Catalog, d *txn.DDLRecord) {
	switch d.Op {
	case "create_proc":
		var def procs.Definition
		if json.Unmarshal(d.Proc, &def) == nil {
			_ = e.procs.CreateIn(d.DB, &def, true)
		}
	case "drop_proc":
		_ = e.procs.Drop(d.DB, d.Name, true)
	case "drop_db":
		txn.ApplyDDL(cat, d)
		for _, p := range e.procs.ListIn(d.DB) {
			_ = e.procs.Drop(d.DB, p.Name, true)
		}
	default:
		txn.ApplyDDL(cat, d)
	}
}

// procsJSON serializes the procedure catalog for a snapshot.
func (e *Engine) procsJSON() ([]byte, error) {
	var ps procSnapshot
	for _, db := range e.txm.Catalog().Databases() {
		for _, d := range e.procs.ListIn(db) {
			ps.Procs = append(ps.Procs, procEntry{DB: db, Def: d})
		}
	}
	return json.Marshal(ps)
}

// Checkpoint writes a snapshot and truncates the log.
func (e *Engine) Checkpoint(ctx context.Context) (uint64, error) {
	e.ckptMu.Lock()
	defer e.ckptMu.Unlock()
	lsn, err := e.txm.Checkpoint(ctx, e.cfg.Dir, e.procsJSON)
	if err != nil {
		return 0, mapError(err)
	}
	return lsn, nil
}

// maybeCheckpoint starts a background checkpoint once the log is past
// plrun_checkpoint_log_size.
func (e *Engine) maybeCheckpoint() {
	if e.log.Size() < e.ckptSize.Load() || e.closed.Load() || !e.ckptRun.CompareAndSwap(false, true) {
		return
	}
	e.bg.Add(1)
	go func() {
		defer e.bg.Done()
		defer e.ckptRun.Store(false)
		if _, err := e.Checkpoint(context.Background()); err != nil && !e.closed.Load() {
			fmt.Fprintf(os.Stderr, "plrun: automatic checkpoint failed: %v\n", err)
		}
	}()
}

// LoadProcsDir loads every procedure file in dir (CREATE OR REPLACE).
func (e *Engine) LoadProcsDir(ctx context.Context, dir string) error {
	defs, err := procs.LoadDir(dir)
	if err != nil {
		return mapError(err)
	}
	s := e.NewSession()
	defer s.Close()
	for _, d := range defs {
		if err := s.createProcedure(ctx, d, true); err != nil {
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
	e.sessMu.Lock()
	ss := make([]*Session, 0, len(e.sessions))
	for _, s := range e.sessions {
		ss = append(ss, s)
	}
	e.sessMu.Unlock()
	for _, s := range ss {
		s.cancelRunning(errKilled)
	}
	e.bg.Wait()
	var errs []error
	if e.pipe != nil {
		errs = append(errs, e.pipe.Close())
	}
	if e.log != nil {
		errs = append(errs, e.log.Close())
	}
	if e.dirLock != nil {
		errs = append(errs, e.dirLock.Close())
	}
	return errors.Join(errs...)
}

// SessionInfo is one SHOW PROCESSLIST row.
type SessionInfo struct {
	ID                      uint64
	User, Host, DB, Command string
	Time                    int64
	State, Info             string
}

// Sessions lists the open sessions.
func (e *Engine) Sessions() []SessionInfo {
	e.sessMu.Lock()
	ss := make([]*Session, 0, len(e.sessions))
	for _, s := range e.sessions {
		ss = append(ss, s)
	}
	e.sessMu.Unlock()
	out := make([]SessionInfo, 0, len(ss))
	for _, s := range ss {
		out = append(out, s.info())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Kill stops session id's running statement; with queryOnly false it also
// closes the session's connection state (the next statement fails).
func (e *Engine) Kill(id uint64, queryOnly bool) error {
	e.sessMu.Lock()
	s := e.sessions[id]
	e.sessMu.Unlock()
	if s == nil {
		return sqlerr.New(sqlerr.ErNoSuchThread, "Unknown thread id: %d", id)
	}
	if !queryOnly {
		s.killed.Store(true)
	}
	s.cancelRunning(errKilled)
	if !queryOnly {
		s.notifyKilled()
	}
	return nil
}

// Stats are engine counters for SHOW GLOBAL STATUS and benchmarks.
func (e *Engine) statusRows() [][2]string {
	ps := e.pipe.Stats()
	ls := e.locks.Stats()
	ts := e.txm.Stats()
	avg := "0"
	if ps.Groups > 0 {
		avg = strconv.FormatFloat(float64(ps.Commits)/float64(ps.Groups), 'f', 2, 64)
	}
	syncAvg := "0"
	if ps.Syncs > 0 {
		syncAvg = strconv.FormatUint(ps.SyncNanos/ps.Syncs/1000, 10)
	}
	u := func(v uint64) string { return strconv.FormatUint(v, 10) }
	e.sessMu.Lock()
	conns := len(e.sessions)
	e.sessMu.Unlock()
	hs := e.hot.Stats()
	groupAvg := "0"
	if hs.Groups > 0 {
		groupAvg = strconv.FormatFloat(float64(hs.Groups+hs.Followers)/float64(hs.Groups), 'f', 2, 64)
	}
	rows := [][2]string{
		{"Group_update_avg_group_size", groupAvg},
		{"Group_update_followers", u(hs.Followers)},
		{"Group_update_groups", u(hs.Groups)},
		{"Group_update_max_group_size", u(hs.MaxGroupSize)},
		{"Elr_dependent_limit_waits", u(ls.DependentLimitWaits)},
		{"Elr_early_releases", u(ls.EarlyReleases)},
		{"Elr_reader_waits", u(ts.ReaderWaits)},
		{"Innodb_deadlocks", u(ls.Deadlocks)},
		{"Plrun_large_trx", u(ts.LargeTxns)},
		{"Plrun_large_trx_chunks", u(ts.Chunks)},
		{"Innodb_row_lock_current_waits", strconv.FormatInt(ls.CurrentWaiters, 10)},
		{"Innodb_row_lock_timeouts", u(ls.LockWaitTimeouts)},
		{"Innodb_row_lock_waits", u(ls.LockWaits)},
		{"Plrun_commit_group_size_avg", avg},
		{"Plrun_commits", u(ps.Commits)},
		{"Plrun_durable_lsn", u(e.pipe.DurableLSN())},
		{"Plrun_last_lsn", u(e.pipe.LastLSN())},
		{"Plrun_log_bytes", u(ps.Bytes)},
		{"Plrun_log_groups", u(ps.Groups)},
		{"Plrun_log_sync_avg_us", syncAvg},
		{"Plrun_log_syncs", u(ps.Syncs)},
		{"Plrun_rollbacks", u(ts.Rollbacks)},
		{"Plrun_workers_busy", strconv.Itoa(e.workers.busyCount())},
		{"Threads_connected", strconv.Itoa(conns)},
		{"Uptime", strconv.FormatInt(int64(time.Since(e.started).Seconds()), 10)},
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i][0] < rows[j][0] })
	return rows
}

// workerPool bounds how many statements execute at once. A session holds a
// worker only while it executes, never while it waits for the log.
type workerPool struct {
	mu      sync.Mutex
	busy    int
	limit   int
	waiters []chan struct{}
}

func newWorkerPool(n int) *workerPool {
	if n <= 0 {
		n = 64
	}
	return &workerPool{limit: n}
}

func (p *workerPool) setLimit(n int) {
	p.mu.Lock()
	if n > 0 {
		p.limit = n
	}
	for p.busy < p.limit && len(p.waiters) > 0 {
		p.busy++
		ch := p.waiters[0]
		p.waiters = p.waiters[1:]
		ch <- struct{}{}
	}
	p.mu.Unlock()
}

func (p *workerPool) busyCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.busy
}

func (p *workerPool) acquire(ctx context.Context) error {
	p.mu.Lock()
	if p.busy < p.limit {
		p.busy++
		p.mu.Unlock()
		return nil
	}
	ch := make(chan struct{}, 1)
	p.waiters = append(p.waiters, ch)
	p.mu.Unlock()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		p.mu.Lock()
		for i, w := range p.waiters {
			if w == ch {
				p.waiters = append(p.waiters[:i], p.waiters[i+1:]...)
				p.mu.Unlock()
				return ctx.Err()
			}
		}
		p.mu.Unlock()
		// Granted while we were leaving: pass it on.
		<-ch
		p.release()
		return ctx.Err()
	}
}

func (p *workerPool) release() {
	p.mu.Lock()
	if len(p.waiters) > 0 && p.busy <= p.limit {
		ch := p.waiters[0]
		p.waiters = p.waiters[1:]
		ch <- struct{}{}
	} else {
		p.busy--
	}
	p.mu.Unlock()
}
