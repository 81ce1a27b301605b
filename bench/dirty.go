package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/plrun/plrun"
)

// DirtyConfig leaves a data folder for recovery to measure: Threads
// sessions run autocommit `UPDATE sbtest1 SET k=k+1 WHERE id=?` (ids
// uniform) until the log since the last checkpoint holds LogBytes, with
// plrun_checkpoint_log_size raised so that no checkpoint intervenes; then
// Crash is called while they are still updating.
type DirtyConfig struct {
	Dir      string
	LogBytes int64
	Threads  int
	Settings map[string]string // over the raised checkpoint size
	Seed     uint64
	// Timeout bounds the run: the target not reached by then is an error.
	Timeout        time.Duration
	Progress       io.Writer
	ReportInterval time.Duration
}

// DirtyResult is what a dirty run did before its crash.
type DirtyResult struct {
	Workload   string  `json:"workload"`
	Threads    int     `json:"threads"`
	LogStart   int64   `json:"log_bytes_at_start"`
	LogBytes   int64   `json:"log_bytes_at_crash"`
	Updates    int64   `json:"updates_acknowledged"`
	Failed     int64   `json:"updates_failed"`
	Seconds    float64 `json:"run_s"`
	UpdatesPS  float64 `json:"updates_per_s"`
	KSumBefore int64   `json:"k_sum_before"` // SUM(k) before the updates
	MaxID      int64   `json:"max_id"`
	FirstError string  `json:"first_error,omitempty"`
}

// RunDirty runs the updates and calls crash with the result at the
// target, the sessions still running (the command's crash SIGKILLs the
// process). If crash returns, the sessions are stopped, the database is
// closed and the result returned.
func RunDirty(ctx context.Context, cfg DirtyConfig, crash func(*DirtyResult)) (*DirtyResult, error) {
	if cfg.LogBytes <= 0 || cfg.Threads <= 0 {
		return nil, fmt.Errorf("bench: dirty needs a log size > 0 and threads > 0")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Minute
	}
	if err := holdsDatabase(cfg.Dir); err != nil {
		return nil, fmt.Errorf("bench: dirty: %w", err)
	}
	settings := runSettings(map[string]string{"plrun_checkpoint_log_size": strconv.FormatInt(1<<40, 10)}, 0, cfg.Settings)
	db, err := plrun.Open(cfg.Dir, &plrun.Options{Settings: settings})
	if err != nil {
		return nil, err
	}
	db.Engine().LimitGoMemory()
	defer db.Close()
	admin := db.Session()
	defer admin.Close()
	res := &DirtyResult{Workload: "dirty", Threads: cfg.Threads}
	if _, err := admin.Exec(ctx, "USE "+SbtestDatabase); err != nil {
		return nil, fmt.Errorf("bench: dirty: %s holds no sysbench table (run plrun bench load first): %w", cfg.Dir, err)
	}
	if res.MaxID, err = sbtestMaxID(ctx, admin); err != nil {
		return nil, err
	}
	sum, err := scalar(ctx, admin, "SELECT SUM(k) FROM sbtest1")
	if err != nil {
		return nil, err
	}
	if res.KSumBefore, err = strconv.ParseInt(sum, 10, 64); err != nil {
		return nil, fmt.Errorf("bench: dirty: SUM(k) is %q", sum)
	}
	logSize := func() int64 { _, c := db.Engine().EngineStatus(); return c.LogBytes }
	res.LogStart = logSize()

	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		ok, failed atomic.Int64
		wg         sync.WaitGroup
		errMu      sync.Mutex
		firstErr   string // guarded by errMu
	)
	start := time.Now()
	for t := 0; t < cfg.Threads; t++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := db.Session()
			defer s.Close()
			rnd := rand.New(rand.NewPCG(cfg.Seed, uint64(t)))
			if _, err := s.Exec(runCtx, "USE "+SbtestDatabase); err != nil {
				failed.Add(1)
				return
			}
			for runCtx.Err() == nil {
				if _, err := s.Exec(runCtx, SbtestIndexUpdate, 1+rnd.Int64N(res.MaxID)); err != nil {
					if runCtx.Err() != nil {
						return
					}
					failed.Add(1)
					errMu.Lock()
					if firstErr == "" {
						firstErr = err.Error()
					}
					errMu.Unlock()
					continue
				}
				ok.Add(1)
			}
		}()
	}
	snapshot := func() {
		res.LogBytes = logSize()
		res.Updates, res.Failed = ok.Load(), failed.Load()
		res.Seconds = time.Since(start).Seconds()
		res.UpdatesPS = float64(res.Updates) / res.Seconds
		errMu.Lock()
		res.FirstError = firstErr
		errMu.Unlock()
	}
	every := cfg.ReportInterval
	if every <= 0 {
		every = time.Second
	}
	poll := time.NewTicker(10 * time.Millisecond)
	defer poll.Stop()
	nextReport := start.Add(every)
	var runErr error
	for {
		<-poll.C
		size := logSize()
		if size >= cfg.LogBytes {
			break
		}
		if time.Since(start) > cfg.Timeout {
			runErr = fmt.Errorf("bench: dirty: the log holds %.1f MiB after %v, short of %.1f MiB", MB(size), cfg.Timeout, MB(cfg.LogBytes))
			break
		}
		if now := time.Now(); !now.Before(nextReport) {
			n, el := ok.Load(), now.Sub(start)
			line := fmt.Sprintf("[ %ss ] log: %.1f/%.1f MiB updates: %d (%.0f/s) errors: %d",
				trimFloat(el.Seconds()), MB(size), MB(cfg.LogBytes), n, float64(n)/el.Seconds(), failed.Load())
			if grown := size - res.LogStart; grown > 0 {
				line += fmt.Sprintf(" eta: %v", time.Duration(float64(el)*float64(cfg.LogBytes-size)/float64(grown)).Round(time.Second))
			}
			fmt.Fprintln(progressOut(cfg.Progress), line)
			nextReport = nextReport.Add(every)
		}
	}
	snapshot()
	if runErr == nil && res.Updates == 0 {
		runErr = errors.New("bench: dirty: no update succeeded (first error: " + res.FirstError + ")")
	}
	if runErr == nil {
		crash(res) // the sessions are still updating
	}
	cancel()
	wg.Wait()
	snapshot()
	return res, runErr
}
