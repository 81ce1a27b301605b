package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"time"

	"github.com/plrun/plrun"
)

// OpenConfig measures opening a data folder that holds the sysbench
// table (from RunTableLoad, possibly left by RunDirty's crash): the time
// plrun.Open takes to be ready (recovery included), the memory after it,
// then Selects uniform-random point selects by one session.
type OpenConfig struct {
	Dir      string
	Settings map[string]string
	Selects  int // point selects (0: 10,000)
	Seed     uint64
}

// OpenResult is what an open measured.
type OpenResult struct {
	Workload     string  `json:"workload"`
	CacheSize    string  `json:"plrun_cache_size"`
	OpenSec      float64 `json:"open_s"`
	LogBytes     int64   `json:"log_bytes_at_open"` // the log recovery replayed
	RSSAfterOpen int64   `json:"rss_after_open_bytes"`
	PeakAtOpen   int64   `json:"peak_rss_at_open_bytes"`
	MaxID        int64   `json:"max_id"` // the selects' ids are uniform in [1, MaxID]
	Selects      int     `json:"selects"`
	Found        int     `json:"selects_found_row"`
	SelectSec    float64 `json:"selects_s"`
	P50Ms        float64 `json:"select_p50_ms"`
	P99Ms        float64 `json:"select_p99_ms"`
	MaxMs        float64 `json:"select_max_ms"`
	RSSAfter     int64   `json:"rss_after_selects_bytes"`
	PeakRSS      int64   `json:"peak_rss_bytes"`
	CloseSec     float64 `json:"close_s"`
	Verified     bool    `json:"verified"`
}

// RunOpen opens cfg.Dir, reads sbtest.sbtest1 and closes it.
func RunOpen(ctx context.Context, cfg OpenConfig) (*OpenResult, error) {
	if err := holdsDatabase(cfg.Dir); err != nil {
		return nil, fmt.Errorf("bench: open: %w", err)
	}
	if cfg.Selects <= 0 {
		cfg.Selects = 10000
	}
	res := &OpenResult{Workload: "open", Selects: cfg.Selects}
	start := time.Now()
	db, err := plrun.Open(cfg.Dir, &plrun.Options{Settings: cfg.Settings})
	if err != nil {
		return nil, err
	}
	db.Engine().LimitGoMemory()
	res.OpenSec = time.Since(start).Seconds()
	m := ReadProcMemory()
	res.RSSAfterOpen, res.PeakAtOpen = m.RSS, m.Peak
	_, ckpt := db.Engine().EngineStatus()
	res.LogBytes = ckpt.LogBytes
	closed := false
	defer func() {
		if !closed {
			db.Close()
		}
	}()
	s := db.Session()
	defer s.Close()
	if _, err := s.Exec(ctx, "USE "+SbtestDatabase); err != nil {
		return nil, fmt.Errorf("bench: open: %s holds no sysbench table (run plrun bench load first): %w", cfg.Dir, err)
	}
	if res.CacheSize, err = scalar(ctx, s, "SELECT @@plrun_cache_size"); err != nil {
		return nil, err
	}
	if res.MaxID, err = sbtestMaxID(ctx, s); err != nil {
		return nil, err
	}
	rnd := rand.New(rand.NewPCG(cfg.Seed, uint64(res.MaxID)))
	lat := make([]time.Duration, 0, cfg.Selects)
	selStart := time.Now()
	for i := 0; i < cfg.Selects; i++ {
		t := time.Now()
		r, err := s.Query(ctx, SbtestPointSelect, 1+rnd.Int64N(res.MaxID))
		if err != nil {
			return nil, fmt.Errorf("bench: open: %s: %w", SbtestPointSelect, err)
		}
		lat = append(lat, time.Since(t))
		if len(r.Rows) == 1 {
			res.Found++
		}
	}
	res.SelectSec = time.Since(selStart).Seconds()
	p := Summarize(lat)
	res.P50Ms, res.P99Ms, res.MaxMs = ms(p.P50), ms(p.P99), ms(p.Max)
	m = ReadProcMemory()
	res.RSSAfter, res.PeakRSS = m.RSS, m.Peak
	s.Close()
	t := time.Now()
	closed = true
	if err := db.Close(); err != nil {
		return nil, err
	}
	res.CloseSec = time.Since(t).Seconds()
	// A loaded table's ids are 1..MaxID without gaps: every select finds its row.
	res.Verified = res.Found == res.Selects
	if !res.Verified {
		return res, fmt.Errorf("%w: %d of %d point selects found no row", ErrVerify, res.Selects-res.Found, res.Selects)
	}
	return res, nil
}

// holdsDatabase refuses a missing or empty folder before plrun.Open would
// make a new database there: open and dirty measure one that exists.
func holdsDatabase(dir string) error {
	entries, err := os.ReadDir(dir)
	switch {
	case os.IsNotExist(err):
		return fmt.Errorf("no data folder at %s", dir)
	case err != nil:
		return err
	case len(entries) == 0:
		return fmt.Errorf("%s is empty: no database to open (plrun bench load makes one)", dir)
	}
	return nil
}
