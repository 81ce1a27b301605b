package bench

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/plrun/plrun"
)

// ErrVerify is returned when a run's end state is not what the workload
// must produce (a lost or duplicated update, a missing row).
var ErrVerify = errors.New("bench: verification failed")

// HotrowDDL is seed 000's table, exactly as the seed writes it.
const HotrowDDL = "CREATE TABLE `sbtest1` (\n" +
	"`id` int(11) NOT NULL AUTO_INCREMENT,\n" +
	"`k` int(11) NOT NULL DEFAULT '0',\n" +
	"`c` char(120) NOT NULL DEFAULT '',\n" +
	"`pad` char(60) NOT NULL DEFAULT '',\n" +
	"PRIMARY KEY (`id`)\n" +
	")"

// HotrowInsert and HotrowUpdate are seed 000's row and hot statement.
const (
	HotrowInsert = "insert into sbtest1 values(1,0,'aa','aa')"
	HotrowUpdate = "update sbtest1 set k=k+1 where id=1"
)

// HotrowConfig is one configuration of the hot-row workload.
type HotrowConfig struct {
	Dir       string        // data directory of this run; emptied first
	Threads   int           // concurrent sessions (seed: 50)
	Updates   int           // updates per session (seed: 2000), when Load.Time is zero
	ELR       bool          // enable_early_lock_release
	SyncDelay time.Duration // plrun_log_sync_delay_us: added to every log sync
	// Settings are more global variables applied at open (they win over
	// ELR and SyncDelay), e.g. "_max_elr_dependent_trx_count".
	Settings    map[string]string
	Workers     int // plrun_workers (0 = engine default)
	FsyncProbes int // write+fsync probes for the disk's sync latency (0 = 200)
	Load        Load
}

// HotrowResult is what one configuration measured. Counters are the
// amounts the timed part moved (SHOW GLOBAL STATUS after minus before).
type HotrowResult struct {
	Workload      string  `json:"workload"`
	ELR           bool    `json:"elr"`
	Threads       int     `json:"threads"`
	Updates       int     `json:"updates_per_thread,omitempty"` // count-bounded runs
	TimeSec       float64 `json:"time_s,omitempty"`             // time-bounded runs
	WarmupSec     float64 `json:"warmup_s,omitempty"`
	Done          int64   `json:"updates"`        // measured updates that succeeded
	WarmupDone    int64   `json:"warmup_updates"` // and those of the warm-up
	SyncDelayMs   float64 `json:"sync_delay_ms"`
	ElapsedSec    float64 `json:"elapsed_s"`
	TPS           float64 `json:"tps"`
	P50Ms         float64 `json:"p50_ms"`
	P95Ms         float64 `json:"p95_ms"`
	P99Ms         float64 `json:"p99_ms"`
	MaxMs         float64 `json:"max_ms"`
	Failed        int     `json:"failed_updates"`
	KBefore       int64   `json:"k_before"`
	KAfter        int64   `json:"k_after"`
	Verified      bool    `json:"verified"`
	Commits       float64 `json:"commits"`
	LogGroups     float64 `json:"log_groups"`
	LogSyncs      float64 `json:"log_syncs"`
	AvgGroupSize  float64 `json:"avg_commit_group_size"`
	LogSyncAvgUs  float64 `json:"log_sync_avg_us"`
	RowLockWaits  float64 `json:"row_lock_waits"`
	EarlyReleases float64 `json:"elr_early_releases"`
	DepLimitWaits float64 `json:"elr_dependent_limit_waits"`
	FsyncMedianUs float64 `json:"fsync_median_us"`
	// SyncBoundTPS is 1/(fsync + sync delay): the rate of a hot row whose
	// every update waits for its own log sync before the next may start.
	SyncBoundTPS float64 `json:"sync_bound_tps"`
	// VsSyncBound is TPS / SyncBoundTPS: above 1, updates share syncs.
	VsSyncBound float64    `json:"tps_vs_sync_bound"`
	FirstError  string     `json:"first_error,omitempty"`
	Intervals   []Interval `json:"intervals"`
}

// RunHotrow runs seed 000's workload once. It returns the result even
// when it also returns an error wrapping ErrVerify, so a caller can print
// what went wrong.
func RunHotrow(ctx context.Context, cfg HotrowConfig) (*HotrowResult, error) {
	if cfg.Threads <= 0 || cfg.Updates <= 0 && cfg.Load.Time <= 0 {
		return nil, fmt.Errorf("bench: hotrow needs threads > 0 and updates > 0 (or a time)")
	}
	if err := freshDir(cfg.Dir); err != nil {
		return nil, err
	}
	res := &HotrowResult{Workload: "hotrow", ELR: cfg.ELR, Threads: cfg.Threads, SyncDelayMs: ms(cfg.SyncDelay),
		TimeSec: cfg.Load.Time.Seconds(), WarmupSec: cfg.Load.Warmup.Seconds()}
	if cfg.Load.Time == 0 {
		res.Updates = cfg.Updates
	}
	fsync, err := MeasureFsync(cfg.Dir, cfg.FsyncProbes)
	if err != nil {
		return nil, fmt.Errorf("bench: measuring fsync: %w", err)
	}
	res.FsyncMedianUs = float64(fsync) / float64(time.Microsecond)
	res.SyncBoundTPS = 1 / (fsync + cfg.SyncDelay).Seconds()

	db, err := plrun.Open(cfg.Dir, &plrun.Options{Settings: hotrowSettings(cfg), Workers: cfg.Workers})
	if err != nil {
		return nil, err
	}
	defer db.Close()
	admin := db.Session()
	defer admin.Close()
	for _, stmt := range []string{"DROP TABLE IF EXISTS sbtest1", HotrowDDL, HotrowInsert} {
		if _, err := admin.Exec(ctx, stmt); err != nil {
			return nil, fmt.Errorf("bench: setup %q: %w", stmt, err)
		}
	}
	if res.KBefore, err = readK(ctx, admin); err != nil {
		return nil, err
	}
	var before Status
	var statusErr error
	run := runHotrowThreads(ctx, db, cfg, func() { before, statusErr = ReadStatus(ctx, admin) })
	if statusErr != nil {
		return nil, statusErr
	}
	after, err := ReadStatus(ctx, admin)
	if err != nil {
		return nil, err
	}
	if res.KAfter, err = readK(ctx, admin); err != nil {
		return nil, err
	}
	fillHotrow(res, run, before, after)
	// Every update that succeeded, in the warm-up too, added one to k.
	want := run.Ok + run.WarmOk
	res.Verified = run.Failed+run.WarmFailed == 0 && res.KAfter-res.KBefore == want &&
		(cfg.Load.Time > 0 || run.Ok == int64(cfg.Threads)*int64(cfg.Updates))
	if !res.Verified {
		return res, fmt.Errorf("%w: k grew by %d, want %d (%d updates failed; first error: %v)",
			ErrVerify, res.KAfter-res.KBefore, want, run.Failed+run.WarmFailed, run.FirstErr)
	}
	return res, nil
}

func hotrowSettings(cfg HotrowConfig) map[string]string {
	return runSettings(map[string]string{"enable_early_lock_release": switchValue(cfg.ELR)}, cfg.SyncDelay, cfg.Settings)
}

// runHotrowThreads opens every session first, then drives them; the
// clock runs from the end of the warm-up to the last update.
func runHotrowThreads(ctx context.Context, db *plrun.DB, cfg HotrowConfig, atStart func()) *driveResult {
	sessions := make([]*plrun.Session, cfg.Threads)
	for t := range sessions {
		sessions[t] = db.Session()
	}
	defer func() {
		for _, s := range sessions {
			s.Close()
		}
	}()
	return drive(ctx, cfg.Load, driveSpec{
		Label:   hotrowLabel(cfg),
		Threads: cfg.Threads, Count: cfg.Updates, AtStart: atStart,
		Op: func(ctx context.Context, t int) error {
			_, err := sessions[t].Exec(ctx, HotrowUpdate)
			return err
		},
	})
}

func hotrowLabel(cfg HotrowConfig) string {
	bound := fmt.Sprintf("%d updates each", cfg.Updates)
	if cfg.Load.Time > 0 {
		bound = "for " + cfg.Load.Time.String()
	}
	return fmt.Sprintf("hotrow elr=%s: %d threads, %s, sync delay %v", switchValue(cfg.ELR), cfg.Threads, bound, cfg.SyncDelay)
}

func fillHotrow(res *HotrowResult, run *driveResult, before, after Status) {
	p := Summarize(run.Lat)
	res.ElapsedSec = run.Elapsed.Seconds()
	res.Done, res.WarmupDone = run.Ok, run.WarmOk
	if res.ElapsedSec > 0 {
		res.TPS = float64(run.Ok) / res.ElapsedSec
	}
	res.P50Ms, res.P95Ms, res.P99Ms, res.MaxMs = ms(p.P50), ms(p.P95), ms(p.P99), ms(p.Max)
	res.Failed = int(run.Failed + run.WarmFailed)
	res.Intervals = run.Intervals
	if run.FirstErr != nil {
		res.FirstError = run.FirstErr.Error()
	}
	res.Commits = after.Delta(before, "Plrun_commits")
	res.LogGroups = after.Delta(before, "Plrun_log_groups")
	res.LogSyncs = after.Delta(before, "Plrun_log_syncs")
	if res.LogGroups > 0 {
		res.AvgGroupSize = res.Commits / res.LogGroups
	} else {
		res.AvgGroupSize = after.Float("Plrun_commit_group_size_avg")
	}
	res.LogSyncAvgUs = after.Float("Plrun_log_sync_avg_us")
	res.RowLockWaits = after.Delta(before, "Innodb_row_lock_waits")
	res.EarlyReleases = after.Delta(before, "Elr_early_releases")
	res.DepLimitWaits = after.Delta(before, "Elr_dependent_limit_waits")
	if res.SyncBoundTPS > 0 {
		res.VsSyncBound = res.TPS / res.SyncBoundTPS
	}
}

func readK(ctx context.Context, s *plrun.Session) (int64, error) {
	res, err := s.Exec(ctx, "select k from sbtest1 where id=1")
	if err != nil {
		return 0, err
	}
	if len(res.Rows) != 1 || len(res.Rows[0]) != 1 {
		return 0, fmt.Errorf("%w: row id=1 of sbtest1: got %d rows", ErrVerify, len(res.Rows))
	}
	return strconv.ParseInt(res.Rows[0][0].String(), 10, 64)
}
