package bench

import (
	"context"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// Load says how long a workload runs and how it reports while it runs,
// as sysbench's --time, --warmup-time and --report-interval do.
type Load struct {
	// Time bounds the measured part by time: every thread runs operations
	// until Time has passed (sysbench --time). Zero: each thread runs the
	// workload's count (--updates, --calls) and the lines show an ETA.
	Time time.Duration
	// Warmup runs the workload unmeasured for this long first; counters,
	// latencies and the clock start after it.
	Warmup time.Duration
	// ReportInterval is the period of the progress lines (0: one second).
	ReportInterval time.Duration
	// Progress receives the lines; nil prints nothing (the intervals are
	// still kept in the result, for charts).
	Progress io.Writer
}

// Interval is one progress line: the rate, p95 latency and error rate of
// the operations that ended within it.
type Interval struct {
	AtSec   float64 `json:"t_s"` // end of the interval, from the start of the measured part
	Threads int     `json:"threads"`
	TPS     float64 `json:"tps"`
	P95Ms   float64 `json:"p95_ms"` // 0 when no operation ended in the interval
	ErrPerS float64 `json:"err_per_s"`
	Ended   int     `json:"ops"` // operations that succeeded in the interval (the p95's sample)
}

// driveSpec is one workload's part in a driven run.
type driveSpec struct {
	Label   string // printed before the run's lines
	Threads int
	Count   int // operations per thread when Load.Time is zero
	// Units is how many transactions one operation is (a CALL of seed
	// 003's procedure commits n times); 0 means 1.
	Units int64
	// Op runs one operation on thread t (each thread owns its session).
	Op func(ctx context.Context, t int) error
	// StopOnError ends a thread at its first failed operation.
	StopOnError bool
	// Committed, if set, counts transactions done so far (a status
	// counter): the lines' tps then moves while long operations run.
	Committed func() float64
	// AtStart runs once every thread is past the warm-up, just before the
	// clock starts (e.g. to read the counters the result subtracts).
	AtStart func()
}

// driveResult is what a driven run measured. Lat holds the latencies of
// the measured operations that succeeded; the warm-up is counted apart.
type driveResult struct {
	Lat                []time.Duration
	Elapsed            time.Duration
	Ok, Failed         int64
	WarmOk, WarmFailed int64
	FirstErr           error
	Intervals          []Interval
}

// drive runs spec's threads through a warm-up and a measured part
// bounded by time or by count. Every goroutine it starts has ended when
// it returns.
func drive(ctx context.Context, load Load, spec driveSpec) *driveResult {
	var (
		res      = &driveResult{}
		mu       sync.Mutex // guards res.FirstErr
		wg       sync.WaitGroup
		warmed   sync.WaitGroup
		warming  atomic.Bool
		stopping atomic.Bool
		measure  = make(chan struct{})
		perThr   = make([][]time.Duration, spec.Threads)
		m        = &meter{threads: spec.Threads}
	)
	units := max(spec.Units, 1)
	fail := func(err error) {
		mu.Lock()
		if res.FirstErr == nil {
			res.FirstErr = err
		}
		mu.Unlock()
	}
	warming.Store(load.Warmup > 0)
	for t := range spec.Threads {
		wg.Add(1)
		warmed.Add(1)
		go func() {
			defer wg.Done()
			for warming.Load() && ctx.Err() == nil {
				if err := spec.Op(ctx, t); err != nil {
					atomic.AddInt64(&res.WarmFailed, 1)
					fail(err)
					if spec.StopOnError {
						break
					}
					continue
				}
				atomic.AddInt64(&res.WarmOk, 1)
			}
			warmed.Done()
			<-measure
			own := make([]time.Duration, 0, min(max(spec.Count, 64), 1<<16))
			for i := 0; ctx.Err() == nil; i++ {
				if load.Time > 0 && stopping.Load() || load.Time == 0 && i >= spec.Count {
					break
				}
				start := time.Now()
				err := spec.Op(ctx, t)
				d := time.Since(start)
				m.record(d, units, err)
				if err != nil {
					atomic.AddInt64(&res.Failed, 1)
					fail(err)
					if spec.StopOnError {
						break
					}
					continue
				}
				atomic.AddInt64(&res.Ok, 1)
				own = append(own, d)
			}
			perThr[t] = own
		}()
	}
	out := progressOut(load.Progress)
	if spec.Label != "" {
		fmt.Fprintln(out, spec.Label)
	}
	if load.Warmup > 0 {
		fmt.Fprintf(out, "Warming up for %v...\n", load.Warmup)
		sleepCtx(ctx, load.Warmup)
		warming.Store(false)
	}
	warmed.Wait()
	if spec.AtStart != nil {
		spec.AtStart()
	}
	if load.Time == 0 {
		m.total = int64(spec.Threads) * int64(spec.Count) * units
	}
	stopReports := m.report(out, load.ReportInterval, spec.Committed)
	start := time.Now()
	close(measure)
	allDone := make(chan struct{})
	go func() { wg.Wait(); close(allDone) }()
	if load.Time > 0 {
		timer := time.NewTimer(load.Time)
		select {
		case <-timer.C:
		case <-allDone:
		case <-ctx.Done():
		}
		timer.Stop()
		stopping.Store(true)
	}
	<-allDone
	res.Elapsed = time.Since(start)
	res.Intervals = stopReports()
	for _, own := range perThr {
		res.Lat = append(res.Lat, own...)
	}
	return res
}

func sleepCtx(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// meter gathers the operations that end within the current interval.
type meter struct {
	threads int
	total   int64 // transactions a count-bounded run will do (0: time-bounded)

	mu   sync.Mutex
	lat  []time.Duration
	errs int64
	done int64 // transactions done in the measured part
}

func (m *meter) record(d time.Duration, units int64, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err != nil {
		m.errs++
		return
	}
	m.lat = append(m.lat, d)
	m.done += units
}

// take returns and resets the current interval's latencies and errors.
func (m *meter) take() (lat []time.Duration, errs, done int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	lat, errs, done = m.lat, m.errs, m.done
	m.lat, m.errs = nil, 0
	return lat, errs, done
}

// report prints a line every interval until stop is called; stop waits
// for the printer and returns the full intervals it printed (the last,
// partial one is dropped, as sysbench does).
func (m *meter) report(w io.Writer, every time.Duration, committed func() float64) (stop func() []Interval) {
	if every <= 0 {
		every = time.Second
	}
	quit := make(chan struct{})
	var (
		wg        sync.WaitGroup
		intervals []Interval
	)
	base := 0.0
	if committed != nil {
		base = committed()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(every)
		defer tick.Stop()
		start, lastDone, lastCommitted := time.Now(), int64(0), base
		for {
			select {
			case <-quit:
				return
			case now := <-tick.C:
				lat, errs, done := m.take()
				sec := every.Seconds()
				iv := Interval{AtSec: now.Sub(start).Seconds(), Threads: m.threads,
					TPS: float64(done-lastDone) / sec, ErrPerS: float64(errs) / sec}
				progress := float64(done)
				if committed != nil {
					c := committed()
					iv.TPS = (c - lastCommitted) / sec
					progress = c - base
					lastCommitted = c
				}
				lastDone = done
				if iv.Ended = len(lat); len(lat) > 0 {
					iv.P95Ms = ms(Summarize(lat).P95)
				}
				intervals = append(intervals, iv)
				fmt.Fprintln(w, intervalLine(iv, progress, m.total, now.Sub(start)))
			}
		}
	}()
	return func() []Interval {
		close(quit)
		wg.Wait()
		return intervals
	}
}

// intervalLine is sysbench's report line, with an ETA when the run is
// bounded by count: the rest of the work at the average rate so far.
func intervalLine(iv Interval, done float64, total int64, elapsed time.Duration) string {
	line := fmt.Sprintf("[ %ss ] thds: %d tps: %.2f lat (ms,95%%): %.2f err/s: %.2f",
		trimFloat(iv.AtSec), iv.Threads, iv.TPS, iv.P95Ms, iv.ErrPerS)
	if total > 0 && done > 0 {
		left := time.Duration(float64(elapsed) * (float64(total) - done) / done)
		line += fmt.Sprintf(" eta: %v (%.0f/%d)", max(left, 0).Round(time.Second), done, total)
	}
	return line
}

// trimFloat prints whole seconds as sysbench does ("2") and sub-second
// report intervals with the digits they need ("0.5").
func trimFloat(s float64) string {
	r := float64(int64(s*10+0.5)) / 10
	if r == float64(int64(r)) {
		return fmt.Sprintf("%d", int64(r))
	}
	return fmt.Sprintf("%.1f", r)
}

func progressOut(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}
