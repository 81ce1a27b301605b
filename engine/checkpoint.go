package engine

import (
	"context"
	"os"
	"time"

	"github.com/plrun/plrun/sql"
	"github.com/plrun/plrun/wal"
)

// Checkpoint writes a snapshot and truncates the log.
func (e *Engine) Checkpoint(ctx context.Context) (uint64, error) {
	e.ckptMu.Lock()
	defer e.ckptMu.Unlock()
	start := time.Now()
	lsn, err := e.txm.Checkpoint(ctx, e.cfg.Dir, e.procsJSON)
	e.ckpt.note(start, err)
	if err != nil {
		e.cfg.Logger.Error("checkpoint failed", "err", err, "duration", time.Since(start))
		return 0, sql.MapError(err)
	}
	e.logCheckpoint(lsn, time.Since(start))
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
		_, _ = e.Checkpoint(context.Background()) // a failure is in the error log
	}()
}

// logCheckpoint writes a finished checkpoint to the error log: its LSN,
// how long it took and the bytes of the snapshot it wrote.
func (e *Engine) logCheckpoint(lsn uint64, took time.Duration) {
	var size int64
	if st, err := os.Stat(wal.SnapshotPath(e.cfg.Dir, lsn)); err == nil {
		size = st.Size()
	}
	e.cfg.Logger.Info("checkpoint", "lsn", lsn, "duration", took, "bytes_written", size)
}
