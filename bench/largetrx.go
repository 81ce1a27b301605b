package bench

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/plrun/plrun"
)

// LargeTrxConfig is seed 004's experiment embedded: one session commits a
// large transaction while others keep making small autocommit commits;
// with splitting on, the large redo goes to the log in chunks and the
// small commits are not stuck behind one huge write.
type LargeTrxConfig struct {
	Dir       string
	Split     bool // consensus_large_trx
	SizeBytes int  // about how much redo the large transaction writes
	SplitSize int  // consensus_large_trx_split_size (bytes)
	Threads   int  // small-commit sessions
	Settings  map[string]string
	Workers   int
	// Load.Warmup is how long the small commits run before the large
	// COMMIT starts (0: 50 ms); Load.Time does not apply. The progress
	// lines are the small commits'.
	Load Load
}

// LargeTrxResult is what a configuration measured: the small commits made
// while the large one was being committed, and the large commit itself.
type LargeTrxResult struct {
	Workload     string  `json:"workload"`
	Split        bool    `json:"split"`
	SizeMB       float64 `json:"large_trx_redo_mb"`
	LargeCommit  float64 `json:"large_commit_ms"`
	SmallCommits int     `json:"small_commits_during_large_commit"`
	SmallP50Ms   float64 `json:"small_p50_ms"`
	SmallP99Ms   float64 `json:"small_p99_ms"`
	SmallMaxMs   float64 `json:"small_max_ms"`
	Chunks       float64 `json:"chunks"`
	Verified     bool    `json:"verified"`
	// Intervals are the small commits' progress lines, from their start.
	Intervals []Interval `json:"intervals"`
}

// RunLargeTrx runs one configuration.
func RunLargeTrx(ctx context.Context, cfg LargeTrxConfig) (*LargeTrxResult, error) {
	if err := freshDir(cfg.Dir); err != nil {
		return nil, err
	}
	own := map[string]string{"consensus_large_trx": switchValue(cfg.Split)}
	if cfg.Split {
		own["consensus_max_log_size"] = strconv.Itoa(max(cfg.SplitSize, 1<<20))
		own["consensus_large_trx_split_size"] = strconv.Itoa(cfg.SplitSize)
		own["consensus_large_event_split_size"] = strconv.Itoa(cfg.SplitSize)
	}
	settings := runSettings(own, 0, cfg.Settings)
	db, err := plrun.Open(cfg.Dir, &plrun.Options{Settings: settings, Workers: cfg.Workers})
	if err != nil {
		return nil, err
	}
	defer db.Close()
	big := db.Session()
	defer big.Close()
	for _, q := range []string{
		"CREATE TABLE big (id INT PRIMARY KEY, pad TEXT NOT NULL)",
		"CREATE TABLE small (id BIGINT PRIMARY KEY, t INT NOT NULL)",
	} {
		if _, err := big.Exec(ctx, q); err != nil {
			return nil, err
		}
	}
	// The large transaction: rows of 1000-byte pads.
	const rowBytes = 1000
	pad := strings.Repeat("p", rowBytes)
	rows := max(cfg.SizeBytes/(rowBytes+20), 1)
	if _, err := big.Exec(ctx, "BEGIN"); err != nil {
		return nil, err
	}
	for i := 0; i < rows; i++ {
		if _, err := big.Exec(ctx, "INSERT INTO big VALUES (?, ?)", i, pad); err != nil {
			return nil, err
		}
	}
	before, err := ReadStatus(ctx, big)
	if err != nil {
		return nil, err
	}
	// Small commits run throughout; those that start while the large
	// commit is in flight are the ones measured.
	var (
		inLarge  atomic.Bool
		stop     atomic.Bool
		mu       sync.Mutex
		lat      []time.Duration
		nextID   atomic.Int64
		wg       sync.WaitGroup
		smallErr error
		m        = &meter{threads: max(cfg.Threads, 1)}
	)
	stopReports := m.report(progressOut(cfg.Load.Progress), cfg.Load.ReportInterval, nil)
	for w := 0; w < max(cfg.Threads, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := db.Session()
			defer s.Close()
			for !stop.Load() {
				during := inLarge.Load()
				t0 := time.Now()
				_, err := s.Exec(ctx, "INSERT INTO small VALUES (?, 1)", nextID.Add(1))
				m.record(time.Since(t0), 1, err)
				if err != nil {
					mu.Lock()
					smallErr = err
					mu.Unlock()
					return
				}
				if during && inLarge.Load() {
					mu.Lock()
					lat = append(lat, time.Since(t0))
					mu.Unlock()
				}
			}
		}()
	}
	warmup := cfg.Load.Warmup
	if warmup <= 0 {
		warmup = 50 * time.Millisecond
	}
	time.Sleep(warmup)
	inLarge.Store(true)
	t0 := time.Now()
	_, err = big.Exec(ctx, "COMMIT")
	largeTook := time.Since(t0)
	inLarge.Store(false)
	stop.Store(true)
	wg.Wait()
	intervals := stopReports()
	if err != nil {
		return nil, err
	}
	if smallErr != nil {
		return nil, smallErr
	}
	after, err := ReadStatus(ctx, big)
	if err != nil {
		return nil, err
	}
	r, err := big.Query(ctx, "SELECT COUNT(*) FROM big")
	if err != nil {
		return nil, err
	}
	got, _ := strconv.Atoi(r.Rows[0][0].String())
	r2, err := big.Query(ctx, "SELECT COUNT(*) FROM small")
	if err != nil {
		return nil, err
	}
	smallRows, _ := strconv.ParseInt(r2.Rows[0][0].String(), 10, 64)
	p := Summarize(lat)
	res := &LargeTrxResult{
		Workload: "largetrx", Split: cfg.Split, SizeMB: float64(rows*(rowBytes+20)) / (1 << 20),
		LargeCommit: ms(largeTook), SmallCommits: len(lat),
		SmallP50Ms: ms(p.P50), SmallP99Ms: ms(p.P99), SmallMaxMs: ms(p.Max),
		Chunks:    after.Delta(before, "Plrun_large_trx_chunks"),
		Verified:  got == rows && smallRows == nextID.Load(),
		Intervals: intervals,
	}
	if !res.Verified {
		return res, fmt.Errorf("%w: big has %d rows (want %d), small %d (want %d)", ErrVerify, got, rows, smallRows, nextID.Load())
	}
	return res, nil
}
