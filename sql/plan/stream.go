package plan

import (
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// Stream calls fn for each row a plain (not locking) read of the access
// finds, in primary-key order, without collecting them: the caller
// consumes each row before the next is read (an aggregate), so a scan of
// a table of any size holds no more than the store's current chunk. It
// serves the full scan and the primary-key range; for the other paths
// (point lookups, IN lists, index reads, ORDER BY ... LIMIT), which
// collect their rows anyway, handled is false and nothing is read: the
// caller uses Find. fn's values are the version read; they must not be
// changed.
func (a *Access) Stream(x *txn.Txn, ec *expr.Ctx, fn func(vals []types.Value) error) (handled bool, err error) {
	if a.order != nil || a.PK != nil || a.InList != nil || a.Uniq != nil || a.IdxScan >= 0 {
		return false, nil
	}
	var lo, hi *types.Value
	if a.Lo != nil || a.Hi != nil {
		var empty bool
		if lo, hi, empty, err = a.bounds(ec); err != nil || empty {
			return true, err
		}
	} else {
		ec.NoteFullScan()
	}
	return true, a.eachMatch(x, ec, lo, hi, func(it storage.ScanItem) (bool, error) {
		return true, fn(it.Vals)
	})
}
