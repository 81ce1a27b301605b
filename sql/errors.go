package sql

import (
	"context"
	"errors"

	"github.com/plrun/plrun/lockmgr"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/txn"
)

var (
	errKilled  = errors.New("query killed")
	errTimeout = errors.New("maximum statement execution time exceeded")
	// errTargetAffectRow: an UPDATE's TARGET_AFFECT_ROW(n) hint asked for
	// n changed rows and the statement changed another number.
	errTargetAffectRow = errors.New("TARGET_AFFECT_ROW not met")
)

// MapError turns any error from below into an *sqlerr.Error. It is the one
// place sentinel errors become MySQL codes.
func MapError(err error) error {
	if err == nil {
		return nil
	}
	if e, ok := sqlerr.As(err); ok {
		return e
	}
	switch {
	case errors.Is(err, txn.ErrNotCommitted) && errors.Is(err, txn.ErrClosed):
		return sqlerr.Wrap(err, sqlerr.ErServerShutdown, "Server shutdown in progress; the transaction was rolled back")
	case errors.Is(err, txn.ErrNotCommitted):
		return sqlerr.Wrap(err, sqlerr.ErOutcomeUnknown, "Got error during COMMIT: the log failed earlier, so this transaction was rolled back (%v)", err)
	case errors.Is(err, lockmgr.ErrDeadlock):
		return sqlerr.Wrap(err, sqlerr.ErLockDeadlock, "Deadlock found when trying to get lock; try restarting transaction")
	case errors.Is(err, txn.ErrTableChanged), errors.Is(err, txn.ErrSnapshotTooOld):
		return sqlerr.Wrap(err, sqlerr.ErTableDefChanged, "Table definition has changed, please retry transaction")
	case errors.Is(err, lockmgr.ErrLockWaitTimeout):
		return sqlerr.Wrap(err, sqlerr.ErLockWaitTimeout, "Lock wait timeout exceeded; try restarting transaction")
	case errors.Is(err, txn.ErrOutcomeUnknown):
		return sqlerr.Wrap(err, sqlerr.ErOutcomeUnknown, "Got error during COMMIT: the log failed, the outcome of this transaction is unknown (%v)", err)
	case errors.Is(err, txn.ErrClosed):
		return sqlerr.Wrap(err, sqlerr.ErServerShutdown, "Server shutdown in progress")
	case errors.Is(err, errTargetAffectRow):
		// PolarDB's wording and number, whatever n and the count were.
		return sqlerr.Wrap(err, sqlerr.ErInventoryHintMismatch, "Inventory conditional hints didn't match with result")
	case errors.Is(err, errTimeout):
		return sqlerr.Wrap(err, sqlerr.ErQueryTimeout, "Query execution was interrupted, maximum statement execution time exceeded")
	case errors.Is(err, errKilled), errors.Is(err, context.Canceled):
		return sqlerr.Wrap(err, sqlerr.ErQueryInterrupted, "Query execution was interrupted")
	case errors.Is(err, context.DeadlineExceeded):
		return sqlerr.Wrap(err, sqlerr.ErQueryTimeout, "Query execution was interrupted, maximum statement execution time exceeded")
	}
	return sqlerr.Wrap(err, sqlerr.ErUnknown, "%v", err)
}
