package bench

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/plrun/plrun"
)

// Seed 003's procedure: n x (INSERT; COMMIT), in each language.
const (
	PlcommitTable = "CREATE TABLE test1 (a int)"
	PlcommitLua   = `CREATE OR REPLACE PROCEDURE seed003_lua(IN n INT) LANGUAGE LUA AS $$ for i = 1, n do session:runSql("INSERT INTO test1 (a) VALUES (?)", {i}) session:commit() end $$`
	PlcommitJS    = `CREATE OR REPLACE PROCEDURE seed003_js(IN n INT) LANGUAGE JAVASCRIPT AS $$ for (let i = 1; i <= n; i++) { session.runSql("INSERT INTO test1 (a) VALUES (?)", [i]); session.commit(); } $$`
)

// PlcommitConfig is one configuration of the PL commit workload.
type PlcommitConfig struct {
	Dir         string // data directory of this run; emptied first
	Lang        string // "lua" or "js"
	Async       bool   // ob_enable_pl_async_commit, set in every session
	Iterations  int    // the procedure's n: INSERT+COMMIT pairs per CALL (seed: 1000)
	Calls       int    // CALLs per session (seed: 5)
	Concurrency int    // sessions calling at once (0 or 1: one)
	Workers     int    // plrun_workers (0 = engine default)
	SyncDelay   time.Duration
	Settings    map[string]string
	Progress    io.Writer
}

// PlcommitResult is what one configuration measured.
type PlcommitResult struct {
	Workload     string    `json:"workload"`
	Lang         string    `json:"lang"`
	Async        bool      `json:"async"`
	Iterations   int       `json:"iterations"`
	Calls        int       `json:"calls_per_session"`
	Concurrency  int       `json:"concurrency"`
	Workers      int       `json:"workers,omitempty"`
	CallSec      []float64 `json:"call_s"` // every CALL's time, session by session
	MeanCallSec  float64   `json:"mean_call_s"`
	P50CallMs    float64   `json:"p50_call_ms"`
	P99CallMs    float64   `json:"p99_call_ms"`
	ElapsedSec   float64   `json:"elapsed_s"`
	CommitsPerS  float64   `json:"commits_per_s"`
	Rows         int64     `json:"rows"`
	Verified     bool      `json:"verified"`
	AvgGroupSize float64   `json:"avg_commit_group_size"`
	LogSyncs     float64   `json:"log_syncs"`
	FirstError   string    `json:"first_error,omitempty"`
}

// RunPlcommit runs seed 003's workload once: every session sets
// ob_enable_pl_async_commit, then CALLs the procedure Calls times. The
// table must end with exactly Concurrency x Calls x Iterations rows.
func RunPlcommit(ctx context.Context, cfg PlcommitConfig) (*PlcommitResult, error) {
	proc, ddl, err := plcommitProc(cfg.Lang)
	if err != nil {
		return nil, err
	}
	if cfg.Iterations <= 0 || cfg.Calls <= 0 {
		return nil, fmt.Errorf("bench: plcommit needs iterations > 0 and calls > 0")
	}
	cfg.Concurrency = max(cfg.Concurrency, 1)
	if err := freshDir(cfg.Dir); err != nil {
		return nil, err
	}
	settings := map[string]string{}
	if cfg.SyncDelay > 0 {
		settings["plrun_log_sync_delay_us"] = strconv.FormatInt(cfg.SyncDelay.Microseconds(), 10)
	}
	for name, value := range cfg.Settings {
		settings[name] = value
	}
	db, err := plrun.Open(cfg.Dir, &plrun.Options{Settings: settings, Workers: cfg.Workers})
	if err != nil {
		return nil, err
	}
	defer db.Close()
	admin := db.Session()
	defer admin.Close()
	for _, stmt := range []string{"DROP TABLE IF EXISTS test1", PlcommitTable, ddl} {
		if _, err := admin.Exec(ctx, stmt); err != nil {
			return nil, fmt.Errorf("bench: setup: %w", err)
		}
	}
	before, err := ReadStatus(ctx, admin)
	if err != nil {
		return nil, err
	}
	times, elapsed, firstErr := runPlcommitSessions(ctx, db, cfg, proc)
	after, err := ReadStatus(ctx, admin)
	if err != nil {
		return nil, err
	}
	res := &PlcommitResult{
		Workload: "plcommit", Lang: cfg.Lang, Async: cfg.Async, Iterations: cfg.Iterations,
		Calls: cfg.Calls, Concurrency: cfg.Concurrency, Workers: cfg.Workers, ElapsedSec: elapsed.Seconds(),
		LogSyncs: after.Delta(before, "Plrun_log_syncs"),
	}
	if groups := after.Delta(before, "Plrun_log_groups"); groups > 0 {
		res.AvgGroupSize = after.Delta(before, "Plrun_commits") / groups
	}
	var sum time.Duration
	for _, d := range times {
		res.CallSec = append(res.CallSec, d.Seconds())
		sum += d
	}
	if len(times) > 0 {
		res.MeanCallSec = (sum / time.Duration(len(times))).Seconds()
		p := Summarize(append([]time.Duration(nil), times...))
		res.P50CallMs, res.P99CallMs = ms(p.P50), ms(p.P99)
	}
	if firstErr != nil {
		res.FirstError = firstErr.Error()
	}
	count, err := admin.Exec(ctx, "SELECT COUNT(*) FROM test1")
	if err != nil {
		return res, err
	}
	if len(count.Rows) == 1 && len(count.Rows[0]) == 1 {
		res.Rows, _ = strconv.ParseInt(count.Rows[0][0].String(), 10, 64)
	}
	res.CommitsPerS = float64(res.Rows) / elapsed.Seconds()
	want := int64(cfg.Concurrency) * int64(cfg.Calls) * int64(cfg.Iterations)
	res.Verified = firstErr == nil && res.Rows == want
	if !res.Verified {
		return res, fmt.Errorf("%w: test1 has %d rows, want %d (first error: %v)", ErrVerify, res.Rows, want, firstErr)
	}
	return res, nil
}

func plcommitProc(lang string) (name, ddl string, err error) {
	switch lang {
	case "lua":
		return "seed003_lua", PlcommitLua, nil
	case "js":
		return "seed003_js", PlcommitJS, nil
	}
	return "", "", fmt.Errorf("bench: unknown procedure language %q (want lua or js)", lang)
}

// runPlcommitSessions returns every CALL's time, session after session.
// A session stops at its first failed CALL.
func runPlcommitSessions(ctx context.Context, db *plrun.DB, cfg PlcommitConfig, proc string) ([]time.Duration, time.Duration, error) {
	var (
		done     atomic.Int64
		mu       sync.Mutex // guards firstErr
		firstErr error
		wg       sync.WaitGroup
		release  = make(chan struct{})
		perSess  = make([][]time.Duration, cfg.Concurrency)
		call     = fmt.Sprintf("CALL %s(%d)", proc, cfg.Iterations)
		setAsync = "SET ob_enable_pl_async_commit = OFF"
	)
	if cfg.Async {
		setAsync = "SET ob_enable_pl_async_commit = ON"
	}
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if firstErr == nil {
			firstErr = err
		}
	}
	for i := range cfg.Concurrency {
		s := db.Session()
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer s.Close()
			_, err := s.Exec(ctx, setAsync)
			<-release
			if err != nil {
				fail(err)
				return
			}
			for range cfg.Calls {
				start := time.Now()
				if _, err := s.Exec(ctx, call); err != nil {
					fail(fmt.Errorf("%s: %w", call, err))
					return
				}
				perSess[i] = append(perSess[i], time.Since(start))
				done.Add(int64(cfg.Iterations))
			}
		}()
	}
	label := fmt.Sprintf("plcommit %s async=%s", cfg.Lang, onOff(cfg.Async))
	stop := startProgress(cfg.Progress, label, int64(cfg.Concurrency*cfg.Calls*cfg.Iterations), &done)
	start := time.Now()
	close(release)
	wg.Wait()
	elapsed := time.Since(start)
	stop()
	var times []time.Duration
	for _, own := range perSess {
		times = append(times, own...)
	}
	return times, elapsed, firstErr
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
