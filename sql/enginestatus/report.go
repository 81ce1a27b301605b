package enginestatus

import (
	"fmt"
	"strings"
	"time"
)

// Trx is a transaction as the report names it: its id, the connection
// that drives it (0 when none is known) and that connection's statement.
type Trx struct {
	ID      uint64
	Session uint64
	Query   string
}

// Row is a locked row: its table, index and key values, as
// information_schema.PLRUN_LOCKS shows them.
type Row struct {
	Table, Index, Data string
}

// LockWait is one transaction waiting for a row lock now. With
// Dependents the waiter holds Row and waits for the commits ELR released
// it from to become durable (_max_elr_dependent_trx_count); Holder is
// then empty.
type LockWait struct {
	Waiter     Trx
	Holder     Trx
	Row        Row
	Since      time.Time
	Dependents bool
}

// DeadlockTrx is one transaction of a deadlock cycle: the lock it held
// that the previous one wanted, and the lock it waited for.
type DeadlockTrx struct {
	Trx
	Holds, WaitsFor Row
}

// Deadlock is a cycle the lock manager refused. Txns[0] is the victim,
// whose statement failed with 1213 and whose transaction was rolled back.
type Deadlock struct {
	At   time.Time
	Txns []DeadlockTrx
}

// Pipeline is the commit pipeline's state.
type Pipeline struct {
	LastLSN, DurableLSN uint64
	Waiting             int64 // sessions waiting for durability now
	Commits, Groups     uint64
	Syncs, SyncNanos    uint64
	LogBytes            uint64 // framed bytes written since start
	// GroupSizeBounds and GroupSizeCounts are the commit pipeline's
	// histogram of records per log group (asynccommit.Histograms): each
	// bucket's upper bound, and one more count than bounds (the rest).
	GroupSizeBounds, GroupSizeCounts []uint64
}

// Checkpoint is the last checkpoint (LSN 0: none since start).
type Checkpoint struct {
	LSN      uint64
	At       time.Time
	Took     time.Duration
	Bytes    int64 // the table store's size on disk after it
	LogBytes int64 // the log's size now: what recovery would replay
}

// ELR is early lock release's setting and counters.
type ELR struct {
	On                                         bool
	MaxDependents                              int64
	EarlyReleases, DependentWaits, ReaderWaits uint64
}

// HotRow is hot-row grouping's setting and counters.
type HotRow struct {
	On                         bool
	Groups, Followers, Largest uint64
}

// Report is everything one SHOW ENGINE ... STATUS prints.
type Report struct {
	Now        time.Time
	LockWaits  []LockWait
	Deadlock   *Deadlock
	Pipeline   Pipeline
	Checkpoint Checkpoint
	ELR        ELR
	HotRow     HotRow
}

const timeLayout = "2006-01-02 15:04:05"

// Text is the report, laid out as InnoDB's monitor output.
func (r *Report) Text() string {
	var b strings.Builder
	b.WriteString("\n=====================================\n")
	fmt.Fprintf(&b, "%s PLRUN MONITOR OUTPUT\n", r.Now.Format(timeLayout))
	b.WriteString("=====================================\n")
	r.lockWaits(&b)
	r.deadlock(&b)
	r.pipeline(&b)
	r.checkpoint(&b)
	r.elr(&b)
	r.hotRow(&b)
	b.WriteString("----------------------------\nEND OF PLRUN MONITOR OUTPUT\n============================\n")
	return b.String()
}

func section(b *strings.Builder, title string) {
	line := strings.Repeat("-", len(title))
	fmt.Fprintf(b, "%s\n%s\n%s\n", line, title, line)
}

// query is a statement as the report prints it: an idle connection has
// none, and one of no connection is unknown.
func (t Trx) query() string {
	switch {
	case t.Session == 0:
		return "(no connection)"
	case t.Query == "":
		return "(idle)"
	}
	return t.Query
}

func (t Trx) String() string {
	if t.Session == 0 {
		return fmt.Sprintf("TRANSACTION %d", t.ID)
	}
	return fmt.Sprintf("TRANSACTION %d, connection id %d", t.ID, t.Session)
}

func (row Row) String() string {
	return fmt.Sprintf("RECORD LOCK index %s of table %s lock_mode X key (%s)", row.Index, row.Table, row.Data)
}

func (r *Report) lockWaits(b *strings.Builder) {
	section(b, "LOCK WAITS")
	if len(r.LockWaits) == 0 {
		b.WriteString("No transaction is waiting for a row lock\n")
		return
	}
	byWaiter := map[uint64]LockWait{}
	for _, w := range r.LockWaits {
		byWaiter[w.Waiter.ID] = w
	}
	for _, w := range r.LockWaits {
		if w.Dependents {
			fmt.Fprintf(b, "---%s, waiting %d sec for its ELR dependents to become durable:\n%s\n%s, held by it\n",
				w.Waiter, seconds(r.Now.Sub(w.Since)), w.Waiter.query(), w.Row)
			continue
		}
		fmt.Fprintf(b, "---%s, waiting %d sec for this lock to be granted:\n", w.Waiter, seconds(r.Now.Sub(w.Since)))
		fmt.Fprintf(b, "%s\n", w.Waiter.query())
		fmt.Fprintf(b, "%s\n", w.Row)
		fmt.Fprintf(b, "held by %s: %s\n", w.Holder, w.Holder.query())
		// the chain: the holder may itself wait (bounded: a chain
		// visits each waiter once)
		seen := map[uint64]bool{w.Waiter.ID: true}
		for next, ok := byWaiter[w.Holder.ID]; ok && !seen[next.Waiter.ID]; next, ok = byWaiter[next.Holder.ID] {
			seen[next.Waiter.ID] = true
			fmt.Fprintf(b, "  which waits %d sec for %s held by %s: %s\n", seconds(r.Now.Sub(next.Since)), next.Row, next.Holder, next.Holder.query())
		}
	}
}

func seconds(d time.Duration) int64 { return max(0, int64(d/time.Second)) }

func (r *Report) deadlock(b *strings.Builder) {
	d := r.Deadlock
	if d == nil {
		return // InnoDB prints the section only once there was one
	}
	section(b, "LATEST DETECTED DEADLOCK")
	fmt.Fprintf(b, "%s\n", d.At.Format(timeLayout))
	for i, t := range d.Txns {
		n := i + 1
		fmt.Fprintf(b, "*** (%d) TRANSACTION:\n%s\n%s\n", n, t.Trx, t.query())
		fmt.Fprintf(b, "*** (%d) HOLDS THE LOCK(S):\n%s\n", n, t.Holds)
		fmt.Fprintf(b, "*** (%d) WAITING FOR THIS LOCK TO BE GRANTED:\n%s\n", n, t.WaitsFor)
	}
	b.WriteString("*** WE ROLL BACK TRANSACTION (1)\n")
}

func (r *Report) pipeline(b *strings.Builder) {
	p := r.Pipeline
	section(b, "COMMIT PIPELINE")
	fmt.Fprintf(b, "Last LSN           %d\n", p.LastLSN)
	fmt.Fprintf(b, "Durable LSN        %d\n", p.DurableLSN)
	fmt.Fprintf(b, "%d records not yet durable, %d sessions waiting for the log\n", p.LastLSN-min(p.DurableLSN, p.LastLSN), p.Waiting)
	avg := 0.0
	if p.Groups > 0 {
		avg = float64(p.Commits) / float64(p.Groups)
	}
	fmt.Fprintf(b, "%d records in %d log groups, %.2f records per group\n", p.Commits, p.Groups, avg)
	var buckets []string
	for i, n := range p.GroupSizeCounts {
		switch {
		case n == 0:
		case i >= len(p.GroupSizeBounds):
			buckets = append(buckets, fmt.Sprintf(">%d: %d", p.GroupSizeBounds[len(p.GroupSizeBounds)-1], n))
		case i == 0 || p.GroupSizeBounds[i-1]+1 == p.GroupSizeBounds[i]:
			buckets = append(buckets, fmt.Sprintf("%d: %d", p.GroupSizeBounds[i], n))
		default:
			buckets = append(buckets, fmt.Sprintf("%d-%d: %d", p.GroupSizeBounds[i-1]+1, p.GroupSizeBounds[i], n))
		}
	}
	if len(buckets) == 0 {
		buckets = []string{"none yet"}
	}
	fmt.Fprintf(b, "Log groups by records: %s\n", strings.Join(buckets, ", "))
	syncAvg := uint64(0)
	if p.Syncs > 0 {
		syncAvg = p.SyncNanos / p.Syncs / 1000
	}
	fmt.Fprintf(b, "%d log syncs, %d us per sync on average\n", p.Syncs, syncAvg)
	fmt.Fprintf(b, "%d log bytes written\n", p.LogBytes)
}

func (r *Report) checkpoint(b *strings.Builder) {
	c := r.Checkpoint
	section(b, "CHECKPOINT")
	if c.LSN == 0 && c.At.IsZero() {
		b.WriteString("No checkpoint since start\n")
	} else {
		fmt.Fprintf(b, "Last checkpoint at LSN %d, %s, took %d ms, table store %d bytes\n",
			c.LSN, c.At.Format(timeLayout), c.Took.Milliseconds(), c.Bytes)
	}
	fmt.Fprintf(b, "%d log bytes since the last checkpoint\n", c.LogBytes)
}

func onOff(on bool) string {
	if on {
		return "ON"
	}
	return "OFF"
}

func (r *Report) elr(b *strings.Builder) {
	e := r.ELR
	section(b, "EARLY LOCK RELEASE")
	fmt.Fprintf(b, "enable_early_lock_release %s, _max_elr_dependent_trx_count %d\n", onOff(e.On), e.MaxDependents)
	fmt.Fprintf(b, "%d early releases, %d dependent-limit waits, %d reader waits\n", e.EarlyReleases, e.DependentWaits, e.ReaderWaits)
}

func (r *Report) hotRow(b *strings.Builder) {
	h := r.HotRow
	section(b, "HOT ROW GROUPS")
	avg := 0.0
	if h.Groups > 0 {
		avg = float64(h.Groups+h.Followers) / float64(h.Groups)
	}
	fmt.Fprintf(b, "hotspot %s, %d groups, %d followers, %.2f members per group, largest %d\n", onOff(h.On), h.Groups, h.Followers, avg, h.Largest)
}
