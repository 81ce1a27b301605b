package engine

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/plrun/plrun/sql"
)

// Checkpoint writes a snapshot and truncates the log.
func (e *Engine) Checkpoint(ctx context.Context) (uint64, error) {
	e.ckptMu.Lock()
	defer e.ckptMu.Unlock()
	start := time.Now()
	lsn, err := e.txm.Checkpoint(ctx, e.cfg.Dir, e.procsJSON)
	e.ckpt.note(start, err)
	if err != nil {
		return 0, sql.MapError(err)
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
