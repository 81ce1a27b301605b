package bench

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/plrun/plrun"
)

// Seed 002's inventory workload (scripts/oltp_inventory.lua with
// tables=1, table_size=1, hotspot_rows=1, oltp_skip_trx=true): one row,
// every event adds 1 to its c in autocommit. With hotspot on the UPDATE
// carries PolarDB's hints and the server groups the updates of the row.
const (
	InventoryDDL    = "CREATE TABLE sbtest1 (id INT UNSIGNED NOT NULL, c BIGINT UNSIGNED NOT NULL, PRIMARY KEY (id))"
	InventoryInsert = "INSERT INTO sbtest1 (id, c) VALUES (1, 1)"
	InventoryUpdate = "UPDATE sbtest1 SET c=c+1 WHERE id=1"
	InventoryHinted = "UPDATE /*+ COMMIT_ON_SUCCESS ROLLBACK_ON_FAIL TARGET_AFFECT_ROW(1) */ sbtest1 SET c=c+1 WHERE id=1"
)

// InventoryThreads are the seed's concurrency points.
var InventoryThreads = []int{1, 8, 16, 32, 64, 128, 256, 512, 1024}

// InventoryConfig is one sweep: hotspot off or on, over Threads.
type InventoryConfig struct {
	Dir       string // data directory of this sweep; emptied first
	Hotspot   bool   // SET GLOBAL hotspot and the hinted UPDATE
	Threads   []int  // concurrency points, in order (seed: InventoryThreads)
	Updates   int    // updates per session at each point, when Load.Time is zero
	SyncDelay time.Duration
	Settings  map[string]string
	Workers   int
	Load      Load // per point
}

// InventoryPoint is one concurrency point of a sweep.
type InventoryPoint struct {
	Threads    int        `json:"threads"`
	ElapsedSec float64    `json:"elapsed_s"`
	Updates    int64      `json:"updates"` // measured updates that succeeded
	QPS        float64    `json:"qps"`
	P95Ms      float64    `json:"p95_ms"`
	P99Ms      float64    `json:"p99_ms"`
	Errors     int64      `json:"errors"`
	Groups     float64    `json:"group_update_groups"`
	Verified   bool       `json:"verified"`
	Intervals  []Interval `json:"intervals"`
}

// InventoryResult is one sweep.
type InventoryResult struct {
	Workload    string           `json:"workload"`
	Hotspot     bool             `json:"hotspot"`
	SyncDelayMs float64          `json:"sync_delay_ms"`
	Points      []InventoryPoint `json:"points"`
	FirstError  string           `json:"first_error,omitempty"`
}

// RunInventory sweeps seed 002's workload over cfg.Threads in one
// database. At every point c must grow by exactly the number of updates
// that succeeded (warm-up included); a point that does not fails the
// sweep with ErrVerify, after the points so far are in the result.
func RunInventory(ctx context.Context, cfg InventoryConfig) (*InventoryResult, error) {
	if len(cfg.Threads) == 0 || cfg.Updates <= 0 && cfg.Load.Time <= 0 {
		return nil, fmt.Errorf("bench: inventory needs thread counts and updates > 0 (or a time)")
	}
	if err := freshDir(cfg.Dir); err != nil {
		return nil, err
	}
	settings := runSettings(map[string]string{"hotspot": switchValue(cfg.Hotspot)}, cfg.SyncDelay, cfg.Settings)
	db, err := plrun.Open(cfg.Dir, &plrun.Options{Settings: settings, Workers: cfg.Workers})
	if err != nil {
		return nil, err
	}
	defer db.Close()
	admin := db.Session()
	defer admin.Close()
	for _, q := range []string{InventoryDDL, InventoryInsert} {
		if _, err := admin.Exec(ctx, q); err != nil {
			return nil, fmt.Errorf("bench: setup %q: %w", q, err)
		}
	}
	res := &InventoryResult{Workload: "inventory", Hotspot: cfg.Hotspot, SyncDelayMs: ms(cfg.SyncDelay)}
	for _, threads := range cfg.Threads {
		pt, err := runInventoryPoint(ctx, db, admin, cfg, threads)
		if pt != nil {
			res.Points = append(res.Points, *pt)
		}
		if err != nil {
			res.FirstError = err.Error()
			return res, err
		}
	}
	return res, nil
}

func runInventoryPoint(ctx context.Context, db *plrun.DB, admin *plrun.Session, cfg InventoryConfig, threads int) (*InventoryPoint, error) {
	if threads <= 0 {
		return nil, fmt.Errorf("bench: inventory: thread count %d", threads)
	}
	update := InventoryUpdate
	if cfg.Hotspot {
		update = InventoryHinted
	}
	cBefore, err := readC(ctx, admin)
	if err != nil {
		return nil, err
	}
	sessions := make([]*plrun.Session, threads)
	for t := range sessions {
		sessions[t] = db.Session()
	}
	defer func() {
		for _, s := range sessions {
			s.Close()
		}
	}()
	var before Status
	bound := fmt.Sprintf("%d updates each", cfg.Updates)
	if cfg.Load.Time > 0 {
		bound = "for " + cfg.Load.Time.String()
	}
	run := drive(ctx, cfg.Load, driveSpec{
		Label:   fmt.Sprintf("inventory hotspot=%s: %d threads, %s", switchValue(cfg.Hotspot), threads, bound),
		Threads: threads, Count: cfg.Updates,
		AtStart: func() { before, _ = ReadStatus(ctx, admin) },
		Op: func(ctx context.Context, t int) error {
			_, err := sessions[t].Exec(ctx, update)
			return err
		},
	})
	after, err := ReadStatus(ctx, admin)
	if err != nil {
		return nil, err
	}
	cAfter, err := readC(ctx, admin)
	if err != nil {
		return nil, err
	}
	p := Summarize(run.Lat)
	pt := &InventoryPoint{
		Threads: threads, ElapsedSec: run.Elapsed.Seconds(), Updates: run.Ok,
		P95Ms: ms(p.P95), P99Ms: ms(p.P99), Errors: run.Failed + run.WarmFailed,
		Groups: after.Delta(before, "Group_update_groups"), Intervals: run.Intervals,
	}
	if pt.ElapsedSec > 0 {
		pt.QPS = float64(run.Ok) / pt.ElapsedSec
	}
	want := run.Ok + run.WarmOk
	pt.Verified = pt.Errors == 0 && cAfter-cBefore == want
	if !pt.Verified {
		return pt, fmt.Errorf("%w: at %d threads c grew by %d, want %d (%d updates failed; first error: %v)",
			ErrVerify, threads, cAfter-cBefore, want, pt.Errors, run.FirstErr)
	}
	return pt, nil
}

func readC(ctx context.Context, s *plrun.Session) (int64, error) {
	res, err := s.Exec(ctx, "SELECT c FROM sbtest1 WHERE id=1")
	if err != nil {
		return 0, err
	}
	if len(res.Rows) != 1 || len(res.Rows[0]) != 1 {
		return 0, fmt.Errorf("%w: row id=1 of sbtest1: got %d rows", ErrVerify, len(res.Rows))
	}
	return strconv.ParseInt(res.Rows[0][0].String(), 10, 64)
}
