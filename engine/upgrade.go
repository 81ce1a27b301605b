package engine

import "github.com/plrun/plrun/wal"

// removeLeftoverSnapshots removes the snapshots of the format before the
// table store that an upgrade killed after its store flush, before their
// removal, left beside the store. Once the store carries its format
// marker (always, after recovery) nothing reads them: they are only disk
// space, and a trap for whoever takes them for the data. A failure to
// remove one is logged, not fatal.
func (e *Engine) removeLeftoverSnapshots() {
	old, err := wal.RemoveSnapshots(e.cfg.Dir)
	if err != nil {
		e.cfg.Logger.Warn("upgrade: could not remove a snapshot of the old format left beside the table store", "err", err)
		return
	}
	if len(old) > 0 {
		e.cfg.Logger.Info("upgrade: removed snapshots of the old format an interrupted upgrade left (the table store holds their data)",
			"files", old)
	}
}
