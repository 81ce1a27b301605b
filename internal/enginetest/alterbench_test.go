package enginetest

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plrun/plrun"
)

// BenchmarkAlter1M times ALTER TABLE ADD COLUMN and CREATE INDEX on a
// table of PLRUN_ALTER_ROWS rows (default 1,000,000), with one session
// doing point updates of another table throughout: it reports the
// change's time and the updates' p99 while it runs against their p99 over
// as many updates before it. Run it with
//
//	go test ./internal/enginetest -run '^$' -bench BenchmarkAlter1M -benchtime 1x
func BenchmarkAlter1M(b *testing.B) {
	rows := 1_000_000
	if v, err := strconv.Atoi(os.Getenv("PLRUN_ALTER_ROWS")); err == nil && v > 0 {
		rows = v
	}
	db, err := plrun.Open(b.TempDir(), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	s := db.Session()
	defer s.Close()
	loadBig(b, s, rows)
	for _, bc := range []struct{ name, change, undo string }{
		{"add-column", "ALTER TABLE big ADD COLUMN extra INT NOT NULL DEFAULT 7", "ALTER TABLE big DROP COLUMN extra"},
		{"create-index", "CREATE INDEX ik ON big (k)", "DROP INDEX ik ON big"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var during, idle []time.Duration
			var total time.Duration
			b.StopTimer()
			for i := 0; i < b.N; i++ {
				u := startUpdater(db)
				time.Sleep(500 * time.Millisecond) // the updater's baseline
				u.mark()
				b.StartTimer()
				start := time.Now()
				if _, err := s.Exec(ctx, bc.change); err != nil {
					b.Fatal(err)
				}
				took := time.Since(start)
				total += took
				before, in := u.stop()
				idle, during = append(idle, before...), append(during, in...)
				b.StopTimer()
				if _, err := s.Exec(ctx, bc.undo); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(total.Seconds()/float64(b.N), "s/change")
			b.ReportMetric(float64(p99(idle).Microseconds()), "p99-update-idle-us")
			b.ReportMetric(float64(p99(during).Microseconds()), "p99-update-during-us")
			b.ReportMetric(float64(len(during))/float64(b.N), "updates-during")
		})
	}
}

// loadBig makes big (id, k, c, pad) with rows rows, sysbench-like.
func loadBig(b *testing.B, s *plrun.Session, rows int) {
	b.Helper()
	ctx := context.Background()
	if _, err := s.ExecScript(ctx, "CREATE TABLE big (id INT PRIMARY KEY, k INT NOT NULL, c CHAR(40) NOT NULL, pad CHAR(20) NOT NULL);"+
		"CREATE TABLE hot (id INT PRIMARY KEY, v INT NOT NULL)"); err != nil {
		b.Fatal(err)
	}
	const batch = 2000
	var sb strings.Builder
	for lo := 0; lo < rows; lo += batch {
		sb.Reset()
		sb.WriteString("INSERT INTO big VALUES ")
		for i := lo; i < min(lo+batch, rows); i++ {
			if i > lo {
				sb.WriteByte(',')
			}
			n := strconv.Itoa(i)
			sb.WriteString("(" + n + "," + strconv.Itoa(i*7919%rows) + ",'c-" + n + "-0123456789','p-" + n + "')")
		}
		if _, err := s.Exec(ctx, sb.String()); err != nil {
			b.Fatal(err)
		}
	}
	sb.Reset()
	sb.WriteString("INSERT INTO hot VALUES ")
	for i := 0; i < 1000; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString("(" + strconv.Itoa(i) + ",0)")
	}
	if _, err := s.Exec(ctx, sb.String()); err != nil {
		b.Fatal(err)
	}
}

// updater runs point updates of hot until stopped, timing each; mark
// splits the latencies into before and after.
type updater struct {
	mu       sync.Mutex
	lat      []time.Duration
	split    int
	stopping atomic.Bool
	done     chan struct{}
}

func startUpdater(db *plrun.DB) *updater {
	u := &updater{done: make(chan struct{}), split: -1}
	go func() {
		defer close(u.done)
		s := db.Session()
		defer s.Close()
		ctx := context.Background()
		for n := 0; !u.stopping.Load(); n++ {
			start := time.Now()
			if _, err := s.Exec(ctx, "UPDATE hot SET v = v + 1 WHERE id = ?", n%1000); err != nil {
				panic(err)
			}
			d := time.Since(start)
			u.mu.Lock()
			u.lat = append(u.lat, d)
			u.mu.Unlock()
		}
	}()
	return u
}

func (u *updater) mark() {
	u.mu.Lock()
	u.split = len(u.lat)
	u.mu.Unlock()
}

// stop ends the updater and returns the latencies before the mark (the
// last as many as came after it, so both sets are alike in size) and
// after it.
func (u *updater) stop() (before, after []time.Duration) {
	u.stopping.Store(true)
	<-u.done
	before, after = u.lat[:u.split], u.lat[u.split:]
	if len(before) > len(after) && len(after) > 0 {
		before = before[len(before)-len(after):]
	}
	return before, after
}

func p99(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*99/100)]
}
