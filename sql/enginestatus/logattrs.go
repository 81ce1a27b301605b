package enginestatus

import (
	"fmt"
	"log/slog"
	"time"
)

// The error log's lines for deadlocks and lock-wait timeouts: one WARN
// each, with the same transactions, statements and rows the report
// shows, as slog attributes (text or JSON, as the log is set up).

// LogDeadlock writes d as one WARN line: each transaction (trx1 is the
// victim) with its connection, statement, the lock it held and the one it
// waited for, and which was rolled back.
func LogDeadlock(log *slog.Logger, d *Deadlock) {
	attrs := make([]any, 0, len(d.Txns)+2)
	for i, t := range d.Txns {
		attrs = append(attrs, slog.Group(fmt.Sprintf("trx%d", i+1),
			slog.Uint64("id", t.ID), slog.Uint64("connection", t.Session), slog.String("statement", t.query()),
			slog.String("holds", t.Holds.String()), slog.String("waits_for", t.WaitsFor.String())))
	}
	attrs = append(attrs, slog.Uint64("rolled_back_trx", d.Txns[0].ID), slog.Uint64("rolled_back_connection", d.Txns[0].Session))
	log.Warn("Deadlock found when trying to get lock; rolled back transaction (1)", attrs...)
}

// LogLockWaitTimeout writes a wait that ended in 1205 as one WARN line:
// the waiter and the holder, their connections and statements, and the
// row.
func LogLockWaitTimeout(log *slog.Logger, w LockWait, waited time.Duration) {
	waiter := slog.Group("waiter", slog.Uint64("trx", w.Waiter.ID), slog.Uint64("connection", w.Waiter.Session), slog.String("statement", w.Waiter.query()))
	// A holder of id 0 is a dependent wait: the waiter held the row and
	// waited for the commits ELR had released it from to become durable.
	holder := slog.String("waiting_for", "ELR dependents to become durable")
	if w.Holder.ID != 0 {
		holder = slog.Group("holder", slog.Uint64("trx", w.Holder.ID), slog.Uint64("connection", w.Holder.Session), slog.String("statement", w.Holder.query()))
	}
	log.Warn("Lock wait timeout exceeded", waiter, holder,
		slog.String("table", w.Row.Table), slog.String("index", w.Row.Index), slog.String("key", w.Row.Data),
		slog.Duration("waited", waited))
}
