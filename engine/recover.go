package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"time"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/ddl"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/storage/kv"
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

// recovered is what recovery hands Open: the catalog, the store, the
// catalog as of the store's applied LSN (the applier's start) and the
// records replayed after it, which the store does not have yet.
type recovered struct {
	cat     *storage.Catalog
	store   *kv.Store
	tables  map[uint64]*storage.Table
	pending []txn.ReplayedRecord
}

// recover opens the table store and replays the log after its applied
// LSN. A data folder without a store (new, or of the format before the
// store: a snapshot and a log) is loaded as before and written into a new
// store, which is then flushed and marked with its format (upgrade).
func (e *Engine) recover() (*recovered, error) {
	log := e.cfg.Logger
	blockCache, _ := e.cacheBudgets()
	store, err := kv.Open(filepath.Join(e.cfg.Dir, storeDir), kv.Options{CacheBytes: blockCache, Logger: log, OnFlushBegin: e.cfg.OnStoreFlush})
	if err != nil {
		if errors.Is(err, kv.ErrNewerFormat) {
			return nil, sqlerr.Wrap(err, sqlerr.ErUnknown, "cannot open data folder %s: %v", e.cfg.Dir, err)
		}
		return nil, sqlerr.Wrap(err, sqlerr.ErUnknown, "opening the table store: %v", err)
	}
	// (after the format check: a newer plrun's folder is left as it is)
	removed, err := wal.RemoveTempSnapshots(e.cfg.Dir)
	if err != nil {
		store.Close()
		return nil, sqlerr.Wrap(err, sqlerr.ErUnknown, "removing unfinished snapshots: %v", err)
	}
	for _, name := range removed {
		log.Warn("removed the temporary file of a checkpoint that did not finish", "file", name)
	}
	ok := false
	defer func() {
		if !ok {
			store.Close()
		}
	}()
	initialized, err := store.Initialized()
	if err != nil {
		return nil, sqlerr.Wrap(err, sqlerr.ErUnknown, "opening the table store: %v", err)
	}
	rec := &recovered{store: store}
	var after uint64
	if initialized {
		header, err := store.Catalog()
		if err != nil {
			return nil, sqlerr.Wrap(err, sqlerr.ErUnknown, "reading the catalog: %v", err)
		}
		cat, extra, err := storage.OpenCatalog(store, header)
		if err != nil {
			return nil, sqlerr.Wrap(err, sqlerr.ErUnknown, "reading the catalog: %v", err)
		}
		if err := e.restoreExtra(cat, extra); err != nil {
			return nil, err
		}
		rec.cat, after = cat, store.Applied()
		rec.tables = txn.TablesOf(cat)
		log.Info("recovery: table store opened", "applied_lsn", after, "tables", len(rec.tables))
	} else {
		cat, snapLSN, err := e.loadSnapshot()
		if err != nil {
			return nil, err
		}
		rec.cat, after = cat, snapLSN
	}
	if err := e.replay(rec, after, initialized); err != nil {
		return nil, err
	}
	if !initialized {
		if err := e.fillNewStore(rec); err != nil {
			e.log.Close()
			return nil, err
		}
	}
	ok = true
	return rec, nil
}

// storeDir is the table store's folder in the data folder.
const storeDir = "store"

// cacheBudgets splits plrun_cache_size: pebble's block cache (half), and
// the bytes of rows kept resident (a quarter; the rest is the applier's
// batches and rows not applied yet). A block holds a stored row in about
// a fifth of the memory of a resident one (a Row, its values, map, tree
// and index entries: about 1 KB for sbtest1), so the block cache gets
// the larger share; resident rows are for the rows being written.
func (e *Engine) cacheBudgets() (blockCache, rows int64) {
	total := e.cacheSize()
	return total / 2, total / 4
}

// cacheSize is plrun_cache_size in bytes.
func (e *Engine) cacheSize() int64 {
	n, _ := strconv.ParseInt(e.globals.Get("plrun_cache_size"), 10, 64)
	return n
}

// loadSnapshot reads a data folder of the format before the table store
// (or a new one): the latest snapshot, whose LSN it returns.
func (e *Engine) loadSnapshot() (*storage.Catalog, uint64, error) {
	snapLSN, r, err := wal.OpenLatestSnapshot(e.cfg.Dir)
	if err != nil {
		return nil, 0, sqlerr.Wrap(err, sqlerr.ErUnknown, "reading snapshot: %v", err)
	}
	if r == nil {
		return storage.NewCatalog(), 0, nil
	}
	cat, extra, err := storage.ReadSnapshot(r)
	r.Close()
	if err != nil {
		return nil, 0, sqlerr.Wrap(err, sqlerr.ErUnknown, "reading snapshot: %v", err)
	}
	if err := e.restoreExtra(cat, extra); err != nil {
		return nil, 0, err
	}
	e.cfg.Logger.Info("recovery: snapshot loaded (data folder of the format before the table store)", "snapshot_lsn", snapLSN,
		"file", wal.SnapshotPath(e.cfg.Dir, snapLSN))
	return cat, snapLSN, nil
}

// restoreExtra restores what the header or snapshot keeps beside tables.
func (e *Engine) restoreExtra(cat *storage.Catalog, extra json.RawMessage) error {
	if len(extra) == 0 {
		return nil
	}
	var ps procSnapshot
	if err := json.Unmarshal(extra, &ps); err != nil {
		return sqlerr.Wrap(err, sqlerr.ErUnknown, "reading snapshot procedures: %v", err)
	}
	for _, p := range ps.Procs {
		if err := e.procs.CreateIn(p.DB, p.Def, true); err != nil {
			return fmt.Errorf("restoring procedure %s.%s: %w", p.DB, p.Def.Name, err)
		}
	}
	for _, f := range ps.Funcs {
		if err := e.procs.CreateFunctionIn(f.DB, f.Def, true); err != nil {
			return fmt.Errorf("restoring function %s.%s: %w", f.DB, f.Def.Name, err)
		}
	}
	for _, t := range ps.Triggers {
		t.Def.Order, t.Def.OrderOther = "", "" // the snapshot's order is the firing order
		if err := e.procs.CreateTrigger(t, true); err != nil {
			return fmt.Errorf("restoring trigger %s.%s: %w", t.DB, t.Def.Name, err)
		}
	}
	if len(ps.Accounts) > 0 {
		if err := e.accounts.Restore(ps.Accounts); err != nil {
			return sqlerr.Wrap(err, sqlerr.ErUnknown, "reading snapshot accounts: %v", err)
		}
	}
	for _, v := range ps.Views {
		if !cat.PutView(v) {
			return fmt.Errorf("restoring view %s.%s: no database or a table of that name", v.DB, v.Name)
		}
	}
	return nil
}

// replay opens the log and applies every record after LSN after to
// rec.cat; with a store (initialized) it also lists them for the applier.
func (e *Engine) replay(rec *recovered, after uint64, initialized bool) error {
	log := e.cfg.Logger
	l, err := wal.Open(filepath.Join(e.cfg.Dir, "wal"), e.cfg.WalOptions)
	if err != nil {
		return sqlerr.Wrap(err, sqlerr.ErUnknown, "opening log: %v", err)
	}
	e.log = l
	if t := l.TornCut(); t != nil {
		log.Warn("recovery: cut a torn tail of the log (an unfinished last write)",
			"segment", t.Segment, "offset", t.Offset, "bytes", t.Bytes, "reason", t.Reason)
	}
	if last := l.LastLSN(); initialized && last < after {
		// Records the store already holds are gone from the log (cut by
		// `plrun recover`, or the log folder replaced): nothing is lost,
		// but their LSNs must not be handed out again.
		log.Warn("recovery: the log ends below the table store's applied LSN; new records continue after it",
			"log_last_lsn", last, "applied_lsn", after)
		l.AdvanceTo(after)
	}
	cat := rec.cat
	rp := &txn.Replayer{Catalog: cat}
	if initialized {
		rp.OnRedo = func(lsn uint64, redo []byte) {
			rec.pending = append(rec.pending, txn.ReplayedRecord{LSN: lsn, Redo: redo})
		}
	}
	var applied, firstLSN, lastLSN uint64
	began := time.Now()
	err = l.Replay(after, func(r wal.Record) error {
		applied++
		if firstLSN == 0 {
			firstLSN = r.LSN
		}
		lastLSN = r.LSN
		switch r.Kind {
		case wal.KindCommit:
			return rp.Commit(r.LSN, r.Payload)
		case wal.KindChunk:
			return rp.Chunk(r.LSN, r.Payload)
		case wal.KindChunkedCommit:
			return rp.ChunkedCommit(r.LSN, r.Payload)
		case wal.KindDDL:
			d, err := txn.DecodeDDL(r.Payload)
			if err != nil {
				return err
			}
			before := txn.DataIDs(cat)
			if ok, err := e.accounts.Replay(d); ok {
				if err != nil {
					return err
				}
			} else if err := ddl.ApplyAt(cat, e.procs, d, r.LSN); err != nil {
				// A table store that cannot be read or written (an ALTER
				// TABLE's rebuild) ends recovery: going on without the
				// ALTER would apply the records after it to the old table.
				var se *storage.StoreError
				if errors.As(err, &se) {
					return fmt.Errorf("LSN %d (%s): %w", r.LSN, d.Op, err)
				}
				// A create_table_rows that fails here failed when it ran
				// too (its table existed): it is skipped, as it was then.
			}
			if initialized {
				header, err := e.header(cat)
				if err != nil {
					return err
				}
				rec.pending = append(rec.pending, txn.ReplayedRecord{LSN: r.LSN, DDL: txn.DDLEffectOf(before, cat, header)})
			}
		}
		return nil
	})
	if err != nil {
		l.Close()
		log.Error("recovery: replaying the log failed", "after_lsn", after, "records_applied", applied, "err", err)
		return sqlerr.Wrap(err, sqlerr.ErUnknown, "replaying log: %v", err)
	}
	if applied > 0 {
		log.Info("recovery: log replayed", "from_lsn", firstLSN, "to_lsn", lastLSN, "records_applied", applied,
			"duration", time.Since(began))
	}
	return nil
}

// fillNewStore writes a catalog loaded the old way (or a new, empty one)
// into the new store as of the log's last LSN, flushes it, marks it with
// its format, and removes the old snapshots it replaces.
func (e *Engine) fillNewStore(rec *recovered) error {
	cat, store := rec.cat, rec.store
	at := e.log.LastLSN()
	cat.SetStore(store)
	header, err := e.header(cat)
	if err != nil {
		return err
	}
	b := store.NewBatch()
	defer func() { b.Close() }()
	tables := cat.AllTables()
	rows := int64(0)
	for _, t := range tables {
		var n int64
		b, n, err = t.FillStore(b, storage.Newest, func(full *kv.Batch) (*kv.Batch, error) {
			return store.NewBatch(), full.Commit(0)
		})
		if err != nil {
			return sqlerr.Wrap(err, sqlerr.ErUnknown, "writing the table store: %v", err)
		}
		// the counter as the old format recovered it (its snapshot's,
		// raised by every value replayed, deleted rows' too)
		if err := b.RaiseAutoInc(t.DataID(), t.AutoInc()); err != nil {
			return err
		}
		rows += n
	}
	if err := b.SetCatalog(header); err != nil {
		return err
	}
	if err := b.SetFormat(); err != nil {
		return err
	}
	if err := b.Commit(at); err != nil {
		return sqlerr.Wrap(err, sqlerr.ErUnknown, "writing the table store: %v", err)
	}
	if _, err := store.Flush(); err != nil {
		return sqlerr.Wrap(err, sqlerr.ErUnknown, "writing the table store: %v", err)
	}
	for _, t := range tables {
		t.Filled()
	}
	rec.tables = txn.TablesOf(cat)
	old, err := wal.RemoveSnapshots(e.cfg.Dir)
	if err != nil {
		return sqlerr.Wrap(err, sqlerr.ErUnknown, "removing old snapshots: %v", err)
	}
	if len(old) > 0 || rows > 0 {
		e.cfg.Logger.Info("upgrade: data folder moved into the table store", "tables", len(tables), "rows", rows,
			"applied_lsn", at, "snapshots_removed", len(old))
	}
	return nil
}

// header is the catalog header of cat with the engine's procedures,
// views, triggers and accounts.
func (e *Engine) header(cat *storage.Catalog) ([]byte, error) {
	extra, err := e.extraJSON(cat)
	if err != nil {
		return nil, err
	}
	return cat.Header(extra)
}

// extraJSON serializes what the catalog header keeps beside cat's
// tables: procedures, functions, triggers, views and accounts.
func (e *Engine) extraJSON(cat *storage.Catalog) ([]byte, error) {
	var ps procSnapshot
	for _, db := range cat.Databases() {
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
	ps.Views = cat.AllViews()
	acc, err := e.accounts.Current().Encode()
	if err != nil {
		return nil, err
	}
	ps.Accounts = acc
	return json.Marshal(ps)
}
