package engine

import (
	"context"
	"path/filepath"
	"time"

	"github.com/plrun/plrun/sql"
	"github.com/plrun/plrun/sql/enginestatus"
)

// Checkpoint flushes the table store and truncates the log before what
// it flushed (txn.Manager.Checkpoint).
func (e *Engine) Checkpoint(ctx context.Context) (uint64, error) {
	e.ckptMu.Lock()
	defer e.ckptMu.Unlock()
	start := time.Now()
	lsn, err := e.txm.Checkpoint(ctx)
	e.ckpt.note(start, err)
	if err != nil {
		e.cfg.Logger.Error("checkpoint failed", "err", err, "duration", time.Since(start))
		return 0, sql.MapError(err)
	}
	c := &enginestatus.Checkpoint{LSN: lsn, At: start, Took: time.Since(start)}
	c.Bytes = int64(e.store.DiskUsage())
	e.lastCkpt.Store(c)
	e.cfg.Logger.Info("checkpoint", "lsn", lsn, "duration", c.Took, "bytes_written", c.Bytes)
	return lsn, nil
}

// EngineStatus is the commit pipeline's and the last checkpoint's state
// (sql.Engine; SHOW ENGINE PLRUN STATUS).
func (e *Engine) EngineStatus() (enginestatus.Pipeline, enginestatus.Checkpoint) {
	ps := e.pipe.Stats()
	p := enginestatus.Pipeline{LastLSN: e.pipe.LastLSN(), DurableLSN: e.pipe.DurableLSN(), Waiting: ps.Waiting,
		Commits: ps.Commits, Groups: ps.Groups, Syncs: ps.Syncs, SyncNanos: ps.SyncNanos, LogBytes: ps.Bytes}
	gs := e.pipe.Histograms().GroupSize
	p.GroupSizeBounds, p.GroupSizeCounts = gs.Bounds, gs.Counts
	var c enginestatus.Checkpoint
	if last := e.lastCkpt.Load(); last != nil {
		c = *last
	}
	c.LogBytes = e.log.Size()
	return p, c
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
		_, _ = e.Checkpoint(context.Background()) // a failure is in the error log
	}()
}

// CopyStore copies the table store as it is on disk into the data folder
// dir (which must not hold one): opened there without a log, it is what
// a crash that lost the log would leave (tests check that it holds whole
// transactions only).
func (e *Engine) CopyStore(dir string) error {
	return e.store.CopyFlushed(filepath.Join(dir, storeDir))
}
