package bench

import (
	"context"
	"fmt"
	"io"
	"runtime/metrics"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/plrun/plrun"
)

// TableLoadConfig is a bulk load of the sysbench table (sbtest.sbtest1)
// into a new database: Rows rows in autocommit INSERTs of Batch rows, as
// sysbench's prepare and a piped SQL script (batch mode) send them.
type TableLoadConfig struct {
	Dir      string // the data folder; the caller makes sure it holds no database
	Rows     int64
	Batch    int               // rows per INSERT (sysbench-like: 1000)
	Settings map[string]string // global settings at open (plrun_cache_size ...)
	Seed     uint64            // the row values' random stream
	// Progress gets a line every ReportInterval (0: one second): rows
	// done, rows/s, ETA. nil prints nothing.
	Progress       io.Writer
	ReportInterval time.Duration
}

// TableLoadResult is what a load measured. Seconds covers the INSERTs and
// the CREATE INDEX after them (sysbench's prepare does both); the
// CHECKPOINT right after, the close and the figures after them are apart.
type TableLoadResult struct {
	Workload      string  `json:"workload"`
	Rows          int64   `json:"rows"`
	Batch         int     `json:"batch"`
	CacheSize     string  `json:"plrun_cache_size"`
	InsertSec     float64 `json:"insert_s"`
	IndexSec      float64 `json:"create_index_s"`
	Seconds       float64 `json:"load_s"`
	RowsPerSec    float64 `json:"rows_per_s"`
	PeakRSS       int64   `json:"peak_rss_bytes"` // VmHWM at the end of the load
	CheckpointSec float64 `json:"checkpoint_s"`
	PeakRSSAfter  int64   `json:"peak_rss_after_checkpoint_bytes"`
	DataBytes     int64   `json:"data_bytes"` // the data folder after the checkpoint
	DataFiles     int     `json:"data_files"`
	CloseSec      float64 `json:"close_s"`
	Counted       int64   `json:"counted_rows"` // SELECT COUNT(*) after the checkpoint
	Verified      bool    `json:"verified"`
}

// RunTableLoad creates sbtest.sbtest1 in cfg.Dir and fills it.
func RunTableLoad(ctx context.Context, cfg TableLoadConfig) (*TableLoadResult, error) {
	if cfg.Rows <= 0 || cfg.Batch <= 0 {
		return nil, fmt.Errorf("bench: load needs rows > 0 and batch > 0")
	}
	res := &TableLoadResult{Workload: "load", Rows: cfg.Rows, Batch: cfg.Batch}
	db, err := plrun.Open(cfg.Dir, &plrun.Options{Settings: cfg.Settings})
	if err != nil {
		return nil, err
	}
	db.Engine().LimitGoMemory()
	closed := false
	defer func() {
		if !closed {
			db.Close()
		}
	}()
	s := db.Session()
	defer s.Close()
	for _, q := range []string{"CREATE DATABASE " + SbtestDatabase, "USE " + SbtestDatabase, SbtestCreate} {
		if _, err := s.Exec(ctx, q); err != nil {
			return nil, fmt.Errorf("bench: load: %s: %w", q, err)
		}
	}
	if res.CacheSize, err = scalar(ctx, s, "SELECT @@plrun_cache_size"); err != nil {
		return nil, err
	}

	var done atomic.Int64
	start := time.Now()
	eng := db.Engine()
	memory := func() string {
		ss := eng.StoreStats()
		return fmt.Sprintf(" | rss %s: heap %s, block cache %s, memtables %s; resident %d rows, apply queue %d",
			mib(ReadProcMemory().RSS), mib(goHeapBytes()), mib(ss.BlockCache), mib(ss.Memtables), ss.ResidentRows, ss.Queued)
	}
	stop := reportRows(progressOut(cfg.Progress), cfg.ReportInterval, start, &done, cfg.Rows, memory)
	rows := newSbtestRows(cfg.Rows, cfg.Seed)
	var buf []byte
	for done.Load() < cfg.Rows {
		n := int(min(int64(cfg.Batch), cfg.Rows-done.Load()))
		buf = rows.insert(buf, n)
		if _, err := s.Exec(ctx, string(buf)); err != nil {
			stop()
			return nil, fmt.Errorf("bench: load: INSERT of rows %d..%d: %w", done.Load()+1, done.Load()+int64(n), err)
		}
		done.Add(int64(n))
	}
	stop()
	res.InsertSec = time.Since(start).Seconds()
	fmt.Fprintf(progressOut(cfg.Progress), "%d rows inserted in %s; %s\n", cfg.Rows, secs(res.InsertSec), SbtestIndex)
	t := time.Now()
	stop = reportWhile(progressOut(cfg.Progress), cfg.ReportInterval, t, "CREATE INDEX k_1", memory)
	_, err = s.Exec(ctx, SbtestIndex)
	stop()
	if err != nil {
		return nil, fmt.Errorf("bench: load: %s: %w", SbtestIndex, err)
	}
	res.IndexSec = time.Since(t).Seconds()
	res.Seconds = time.Since(start).Seconds()
	res.RowsPerSec = float64(cfg.Rows) / res.Seconds
	res.PeakRSS = ReadProcMemory().Peak

	fmt.Fprintf(progressOut(cfg.Progress), "index built in %s; CHECKPOINT\n", secs(res.IndexSec))
	t = time.Now()
	if _, err := s.Exec(ctx, "CHECKPOINT"); err != nil {
		return nil, fmt.Errorf("bench: load: CHECKPOINT: %w", err)
	}
	res.CheckpointSec = time.Since(t).Seconds()
	res.PeakRSSAfter = ReadProcMemory().Peak
	if res.DataBytes, res.DataFiles, err = DirBytes(cfg.Dir); err != nil {
		return nil, err
	}
	count, err := scalar(ctx, s, "SELECT COUNT(*) FROM sbtest1")
	if err != nil {
		return nil, err
	}
	if res.Counted, err = strconv.ParseInt(count, 10, 64); err != nil {
		return nil, fmt.Errorf("bench: load: COUNT(*) is %q", count)
	}
	s.Close()
	t = time.Now()
	closed = true
	if err := db.Close(); err != nil {
		return nil, err
	}
	res.CloseSec = time.Since(t).Seconds()
	res.Verified = res.Counted == cfg.Rows
	if !res.Verified {
		return res, fmt.Errorf("%w: sbtest1 holds %d rows, %d were inserted", ErrVerify, res.Counted, cfg.Rows)
	}
	return res, nil
}

// reportRows prints a progress line every interval until stop is called:
// rows done, the rate over the interval and overall, and the ETA.
// extra, if set, adds to each line (the memory figures).
func reportRows(w io.Writer, every time.Duration, start time.Time, done *atomic.Int64, total int64, extra func() string) (stop func()) {
	last, lastAt := int64(0), start
	return tickLines(w, every, func(now time.Time) string {
		n := done.Load()
		elapsed := now.Sub(start)
		line := fmt.Sprintf("[ %ss ] rows: %d/%d (%.1f%%) rows/s: %.0f (avg %.0f)",
			trimFloat(elapsed.Seconds()), n, total, 100*float64(n)/float64(total),
			float64(n-last)/now.Sub(lastAt).Seconds(), float64(n)/elapsed.Seconds())
		if n > 0 {
			line += fmt.Sprintf(" eta: %v", time.Duration(float64(elapsed)*float64(total-n)/float64(n)).Round(time.Second))
		}
		if extra != nil {
			line += extra()
		}
		last, lastAt = n, now
		return line
	})
}

// reportWhile prints a line every interval until stop is called: the
// time since start, what runs, and extra (the memory figures).
func reportWhile(w io.Writer, every time.Duration, start time.Time, what string, extra func() string) (stop func()) {
	return tickLines(w, every, func(now time.Time) string {
		return fmt.Sprintf("[ %ss ] %s%s", trimFloat(now.Sub(start).Seconds()), what, extra())
	})
}

// tickLines prints line(now) every interval (0: one second) until stop
// is called; line runs on one goroutine, one call at a time.
func tickLines(w io.Writer, every time.Duration, line func(now time.Time) string) (stop func()) {
	if every <= 0 {
		every = time.Second
	}
	quit, ended := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(ended)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case now := <-tick.C:
				fmt.Fprintln(w, line(now))
			}
		}
	}()
	return func() {
		close(quit)
		<-ended
	}
}

// goHeapBytes is the Go heap's live and not yet collected objects.
func goHeapBytes() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// mib prints bytes in MiB for a progress line.
func mib(n int64) string { return fmt.Sprintf("%d MiB", n>>20) }

// scalar is the first column of a query's first row, as text.
func scalar(ctx context.Context, s *plrun.Session, q string, args ...any) (string, error) {
	r, err := s.Query(ctx, q, args...)
	if err != nil {
		return "", fmt.Errorf("bench: %s: %w", q, err)
	}
	if len(r.Rows) == 0 || len(r.Rows[0]) == 0 {
		return "", fmt.Errorf("bench: %s: no row", q)
	}
	return r.Rows[0][0].String(), nil
}

// secs prints seconds for a progress line.
func secs(s float64) string { return fmt.Sprintf("%.2f s", s) }
