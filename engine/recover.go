package engine

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/ddl"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/wal"
)

// procSnapshot is what a snapshot keeps of the procedure catalog.
type procSnapshot struct {
	Procs []procEntry        `json:"procs"`
	Funcs []procEntry        `json:"funcs,omitempty"` // stored functions
	Views []*storage.ViewDef `json:"views,omitempty"`
	// Triggers in firing order (each restored at the end of its group)
	Triggers []*procs.Trigger `json:"triggers,omitempty"`
	// Accounts is the account catalog (acl.State.Encode).
	Accounts json.RawMessage `json:"accounts,omitempty"`
}

type procEntry struct {
	DB  string            `json:"db"`
	Def *procs.Definition `json:"def"`
}

// recover loads the latest snapshot and replays the log after it.
func (e *Engine) recover() (*storage.Catalog, error) {
	log := e.cfg.Logger
	removed, err := wal.RemoveTempSnapshots(e.cfg.Dir)
	if err != nil {
		return nil, sqlerr.Wrap(err, sqlerr.ErUnknown, "removing unfinished snapshots: %v", err)
	}
	for _, name := range removed {
		log.Warn("removed the temporary file of a checkpoint that did not finish", "file", name)
	}
	snapLSN, r, err := wal.OpenLatestSnapshot(e.cfg.Dir)
	if err != nil {
		return nil, sqlerr.Wrap(err, sqlerr.ErUnknown, "reading snapshot: %v", err)
	}
	cat := storage.NewCatalog()
	if r != nil {
		c, extra, err := storage.ReadSnapshot(r)
		r.Close()
		if err != nil {
			return nil, sqlerr.Wrap(err, sqlerr.ErUnknown, "reading snapshot: %v", err)
		}
		cat = c
		if len(extra) > 0 {
			var ps procSnapshot
			if err := json.Unmarshal(extra, &ps); err != nil {
				return nil, sqlerr.Wrap(err, sqlerr.ErUnknown, "reading snapshot procedures: %v", err)
			}
			for _, p := range ps.Procs {
				if err := e.procs.CreateIn(p.DB, p.Def, true); err != nil {
					return nil, fmt.Errorf("restoring procedure %s.%s: %w", p.DB, p.Def.Name, err)
				}
			}
			for _, f := range ps.Funcs {
				if err := e.procs.CreateFunctionIn(f.DB, f.Def, true); err != nil {
					return nil, fmt.Errorf("restoring function %s.%s: %w", f.DB, f.Def.Name, err)
				}
			}
			for _, t := range ps.Triggers {
				t.Def.Order, t.Def.OrderOther = "", "" // the snapshot's order is the firing order
				if err := e.procs.CreateTrigger(t, true); err != nil {
					return nil, fmt.Errorf("restoring trigger %s.%s: %w", t.DB, t.Def.Name, err)
				}
			}
			if len(ps.Accounts) > 0 {
				if err := e.accounts.Restore(ps.Accounts); err != nil {
					return nil, sqlerr.Wrap(err, sqlerr.ErUnknown, "reading snapshot accounts: %v", err)
				}
			}
			for _, v := range ps.Views {
				if !cat.PutView(v) {
					return nil, fmt.Errorf("restoring view %s.%s: no database or a table of that name", v.DB, v.Name)
				}
			}
		}
	}
	if r != nil {
		log.Info("recovery: snapshot loaded", "snapshot_lsn", snapLSN, "file", wal.SnapshotPath(e.cfg.Dir, snapLSN))
	}
	l, err := wal.Open(filepath.Join(e.cfg.Dir, "wal"), e.cfg.WalOptions)
	if err != nil {
		return nil, sqlerr.Wrap(err, sqlerr.ErUnknown, "opening log: %v", err)
	}
	e.log = l
	if t := l.TornCut(); t != nil {
		log.Warn("recovery: cut a torn tail of the log (an unfinished last write)",
			"segment", t.Segment, "offset", t.Offset, "bytes", t.Bytes, "reason", t.Reason)
	}
	rp := &txn.Replayer{Catalog: cat}
	var applied, firstLSN, lastLSN uint64
	began := time.Now()
	err = l.Replay(snapLSN, func(rec wal.Record) error {
		applied++
		if firstLSN == 0 {
			firstLSN = rec.LSN
		}
		lastLSN = rec.LSN
		switch rec.Kind {
		case wal.KindCommit:
			return txn.ApplyRedo(cat, rec.LSN, rec.Payload)
		case wal.KindChunk:
			return rp.Chunk(rec.LSN, rec.Payload)
		case wal.KindChunkedCommit:
			return rp.ChunkedCommit(rec.LSN, rec.Payload)
		case wal.KindDDL:
			d, err := txn.DecodeDDL(rec.Payload)
			if err != nil {
				return err
			}
			if ok, err := e.accounts.Replay(d); ok {
				return err
			}
			// A create_table_rows that fails here failed when it ran too
			// (its table existed): it is skipped, as it was then.
			_ = ddl.ApplyAt(cat, e.procs, d, rec.LSN)
		}
		return nil
	})
	if err != nil {
		l.Close()
		log.Error("recovery: replaying the log failed", "after_lsn", snapLSN, "records_applied", applied, "err", err)
		return nil, sqlerr.Wrap(err, sqlerr.ErUnknown, "replaying log: %v", err)
	}
	if applied > 0 {
		log.Info("recovery: log replayed", "from_lsn", firstLSN, "to_lsn", lastLSN, "records_applied", applied,
			"duration", time.Since(began))
	}
	return cat, nil
}

// procsJSON serializes the procedure catalog for a snapshot.
func (e *Engine) procsJSON() ([]byte, error) {
	var ps procSnapshot
	for _, db := range e.txm.Catalog().Databases() {
		for _, d := range e.procs.ListIn(db) {
			ps.Procs = append(ps.Procs, procEntry{DB: db, Def: d})
		}
		for _, d := range e.procs.ListFunctionsIn(db) {
			ps.Funcs = append(ps.Funcs, procEntry{DB: db, Def: d})
		}
		ps.Triggers = append(ps.Triggers, e.procs.ListTriggersIn(db)...)
	}
	// Views ride with the procedures: both are read under the commit
	// latch, so they match the snapshot's LSN.
	ps.Views = e.txm.Catalog().AllViews()
	acc, err := e.accounts.Current().Encode()
	if err != nil {
		return nil, err
	}
	ps.Accounts = acc
	return json.Marshal(ps)
}
