package bench

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/plrun/plrun"
)

// Seed 003's procedure: n x (INSERT; COMMIT), in each language.
const (
	PlcommitTable = "CREATE TABLE test1 (a int)"
	PlcommitLua   = `CREATE OR REPLACE PROCEDURE seed003_lua(IN n INT) LANGUAGE LUA AS $$ for i = 1, n do session:runSql("INSERT INTO test1 (a) VALUES (?)", {i}) session:commit() end $$`
	// PlcommitSQL is seed 003's procedure as written in the issue (a
	// parameter for the count instead of the literal 1000).
	PlcommitSQL = "CREATE OR REPLACE PROCEDURE seed003_sql(IN n INT)\nBEGIN\nDECLARE counter INT DEFAULT 1;\nWHILE counter <= n DO\n    INSERT INTO test1 (a) VALUES (counter);\n    commit;\n    SET counter = counter + 1;\nEND WHILE;\nEND"
	PlcommitJS  = `CREATE OR REPLACE PROCEDURE seed003_js(IN n INT) LANGUAGE JAVASCRIPT AS $$ for (let i = 1; i <= n; i++) { session.runSql("INSERT INTO test1 (a) VALUES (?)", [i]); session.commit(); } $$`
)

// PlcommitConfig is one configuration of the PL commit workload.
type PlcommitConfig struct {
	Dir         string // data directory of this run; emptied first
	Lang        string // "sql", "lua" or "js"
	Async       bool   // ob_enable_pl_async_commit, set in every session
	Iterations  int    // the procedure's n: INSERT+COMMIT pairs per CALL (seed: 1000)
	Calls       int    // CALLs per session (seed: 5), when Load.Time is zero
	Concurrency int    // sessions calling at once (0 or 1: one)
	Workers     int    // plrun_workers (0 = engine default)
	SyncDelay   time.Duration
	Settings    map[string]string
	Load        Load
}

// PlcommitResult is what one configuration measured.
type PlcommitResult struct {
	Workload     string     `json:"workload"`
	Lang         string     `json:"lang"`
	Async        bool       `json:"async"`
	Iterations   int        `json:"iterations"`
	Calls        int        `json:"calls_per_session,omitempty"` // count-bounded runs
	TimeSec      float64    `json:"time_s,omitempty"`            // time-bounded runs
	WarmupSec    float64    `json:"warmup_s,omitempty"`
	Done         int64      `json:"calls"` // measured CALLs that succeeded
	Concurrency  int        `json:"concurrency"`
	Workers      int        `json:"workers,omitempty"`
	CallSec      []float64  `json:"call_s"` // every CALL's time, session by session
	MeanCallSec  float64    `json:"mean_call_s"`
	P50CallMs    float64    `json:"p50_call_ms"`
	P99CallMs    float64    `json:"p99_call_ms"`
	ElapsedSec   float64    `json:"elapsed_s"`
	CommitsPerS  float64    `json:"commits_per_s"`
	Rows         int64      `json:"rows"`
	Verified     bool       `json:"verified"`
	AvgGroupSize float64    `json:"avg_commit_group_size"`
	LogSyncs     float64    `json:"log_syncs"`
	FirstError   string     `json:"first_error,omitempty"`
	Intervals    []Interval `json:"intervals"`
}

// RunPlcommit runs seed 003's workload once: every session sets
// ob_enable_pl_async_commit, then CALLs the procedure Calls times (or
// until Load.Time has passed). The table must end with exactly
// Iterations rows per CALL that succeeded, warm-up included.
func RunPlcommit(ctx context.Context, cfg PlcommitConfig) (*PlcommitResult, error) {
	proc, ddl, err := plcommitProc(cfg.Lang)
	if err != nil {
		return nil, err
	}
	if cfg.Iterations <= 0 || cfg.Calls <= 0 && cfg.Load.Time <= 0 {
		return nil, fmt.Errorf("bench: plcommit needs iterations > 0 and calls > 0 (or a time)")
	}
	cfg.Concurrency = max(cfg.Concurrency, 1)
	if err := freshDir(cfg.Dir); err != nil {
		return nil, err
	}
	settings := runSettings(nil, cfg.SyncDelay, cfg.Settings)
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
	var before Status
	var statusErr error
	run := runPlcommitSessions(ctx, db, cfg, proc, admin, func() { before, statusErr = ReadStatus(ctx, admin) })
	if statusErr != nil {
		return nil, statusErr
	}
	after, err := ReadStatus(ctx, admin)
	if err != nil {
		return nil, err
	}
	times, elapsed, firstErr := run.Lat, run.Elapsed, run.FirstErr
	res := &PlcommitResult{
		Workload: "plcommit", Lang: cfg.Lang, Async: cfg.Async, Iterations: cfg.Iterations,
		Concurrency: cfg.Concurrency, Workers: cfg.Workers, ElapsedSec: elapsed.Seconds(),
		TimeSec: cfg.Load.Time.Seconds(), WarmupSec: cfg.Load.Warmup.Seconds(), Done: run.Ok,
		LogSyncs: after.Delta(before, "Plrun_log_syncs"), Intervals: run.Intervals,
	}
	if cfg.Load.Time == 0 {
		res.Calls = cfg.Calls
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
	// The measured CALLs' commits over the measured time; a run that
	// measured nothing (every session failed at once) has no rate.
	if elapsed > 0 && run.Ok > 0 {
		res.CommitsPerS = float64(run.Ok*int64(cfg.Iterations)) / elapsed.Seconds()
	}
	// Every CALL that succeeded, in the warm-up too, inserted n rows.
	want := (run.Ok + run.WarmOk) * int64(cfg.Iterations)
	res.Verified = firstErr == nil && res.Rows == want &&
		(cfg.Load.Time > 0 || run.Ok == int64(cfg.Concurrency)*int64(cfg.Calls))
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
	case "sql":
		return "seed003_sql", PlcommitSQL, nil
	}
	return "", "", fmt.Errorf("bench: unknown procedure language %q (want sql, lua or js)", lang)
}

// runPlcommitSessions sets async commit in every session, then drives
// them, each CALLing the procedure. A session stops at its first failed
// CALL. The progress lines count commits (Plrun_commits), so they move
// while a long CALL runs.
func runPlcommitSessions(ctx context.Context, db *plrun.DB, cfg PlcommitConfig, proc string, admin *plrun.Session, atStart func()) *driveResult {
	call := fmt.Sprintf("CALL %s(%d)", proc, cfg.Iterations)
	setAsync := "SET ob_enable_pl_async_commit = OFF"
	if cfg.Async {
		setAsync = "SET ob_enable_pl_async_commit = ON"
	}
	sessions := make([]*plrun.Session, cfg.Concurrency)
	for i := range sessions {
		sessions[i] = db.Session()
	}
	defer func() {
		for _, s := range sessions {
			s.Close()
		}
	}()
	for _, s := range sessions {
		if _, err := s.Exec(ctx, setAsync); err != nil {
			return &driveResult{FirstErr: err}
		}
	}
	bound := fmt.Sprintf("%d CALLs each", cfg.Calls)
	if cfg.Load.Time > 0 {
		bound = "for " + cfg.Load.Time.String()
	}
	var lastCommits float64 // a failed status read repeats the last count
	return drive(ctx, cfg.Load, driveSpec{
		Label: fmt.Sprintf("plcommit %s async=%s: %d session(s), %s of %s (tps counts commits)",
			cfg.Lang, onOff(cfg.Async), cfg.Concurrency, bound, call),
		Threads: cfg.Concurrency, Count: cfg.Calls, Units: int64(cfg.Iterations),
		StopOnError: true, AtStart: atStart,
		Op: func(ctx context.Context, t int) error {
			if _, err := sessions[t].Exec(ctx, call); err != nil {
				return fmt.Errorf("%s: %w", call, err)
			}
			return nil
		},
		Committed: func() float64 {
			if st, err := ReadStatus(ctx, admin); err == nil {
				lastCommits = st.Float("Plrun_commits")
			}
			return lastCommits
		},
	})
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
