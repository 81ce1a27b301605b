package txn

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

const (
	opPut    = 1
	opDelete = 2
)

// encodeRedo writes every touched row's final state: table id, op,
// primary key, values. Rows of temporary tables are left out: a session's
// temporary table is never durable. With rows, it also lists the rows of
// backed tables for the applier as they are in memory (the values the
// commit installs, which nothing changes after), so the applier does not
// decode the record again. buf is reused (redoBuffers).
func (x *Txn) encodeRedo(buf []byte, rows bool) ([]byte, []applyRow) {
	n := x.durableRows()
	buf = binary.AppendUvarint(buf[:0], uint64(n))
	var out []applyRow
	if rows {
		out = make([]applyRow, 0, n)
	}
	start, done := len(buf), 0
	for _, r := range x.order {
		t := x.touched[r]
		if t.Def.Temporary {
			continue
		}
		p, fresh := t.PendingFresh(r)
		if p == nil || p.Owner != x.ID {
			panic(fmt.Sprintf("txn %d: touched row %q has no pending write of its own", x.ID, r.Key))
		}
		buf = binary.AppendUvarint(buf, t.Def.ID)
		if p.Vals == nil {
			buf = append(buf, opDelete)
			buf = types.AppendRow(buf, r.PK)
		} else {
			buf = append(buf, opPut)
			buf = types.AppendRow(buf, r.PK)
			buf = types.AppendRow(buf, p.Vals)
		}
		if rows && t.Backed() {
			out = append(out, applyRow{id: t.Def.ID, key: r.Key, vals: p.Vals, fresh: fresh})
		}
		if done++; done == 1 && n > 1 {
			// The rows of one statement are alike: room for the rest at
			// the first one's size saves the doublings.
			buf = slices.Grow(buf, (len(buf)-start)*(n-1)*9/8)
		}
	}
	return buf, out
}

// redoBuffers recycles encodeRedo's buffers: the pipeline copies a record
// when it is appended, so the buffer is free again right after.
var redoBuffers = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledRedo is the largest buffer kept for reuse.
const maxPooledRedo = 1 << 20

func getRedoBuffer() *[]byte { return redoBuffers.Get().(*[]byte) }

func putRedoBuffer(p *[]byte, buf []byte) {
	if cap(buf) <= maxPooledRedo {
		*p = buf[:0]
		redoBuffers.Put(p)
	}
}

// durableRows counts the touched rows that go to the log (those not of
// temporary tables).
func (x *Txn) durableRows() int {
	n := 0
	for _, r := range x.order {
		if !x.touched[r].Def.Temporary {
			n++
		}
	}
	return n
}

var errBadRedo = errors.New("txn: malformed redo record")

// ApplyRedo replays a commit record into cat (recovery). Rows of tables
// that no longer exist are skipped: a DROP after them won.
func ApplyRedo(cat *storage.Catalog, lsn uint64, payload []byte) error {
	return eachRedoRow(payload, func(id uint64, pk, vals []types.Value) error {
		t := cat.TableByID(id)
		if t == nil {
			return nil
		}
		t.Apply(storage.KeyOf(pk), pk, vals, lsn)
		if n := t.NoteAutoInc(vals); n > 0 {
			t.SeenAutoInc(n)
		}
		return nil
	})
}

// eachRedoRow calls fn for every row of a commit record's redo: its
// table id, primary key and values (nil: deleted).
func eachRedoRow(payload []byte, fn func(id uint64, pk, vals []types.Value) error) error {
	n, k := binary.Uvarint(payload)
	if k <= 0 {
		return errBadRedo
	}
	buf := payload[k:]
	for i := uint64(0); i < n; i++ {
		id, k := binary.Uvarint(buf)
		if k <= 0 || len(buf) < k+1 {
			return errBadRedo
		}
		op := buf[k]
		buf = buf[k+1:]
		pk, rest, err := types.DecodeRow(buf)
		if err != nil {
			return errBadRedo
		}
		buf = rest
		var vals []types.Value
		if op == opPut {
			vals, buf, err = types.DecodeRow(buf)
			if err != nil {
				return errBadRedo
			}
		} else if op != opDelete {
			return errBadRedo
		}
		if err := fn(id, pk, vals); err != nil {
			return err
		}
	}
	return nil
}

// DDLRecord is a logged schema change. Every DDL statement is exactly one
// record, applied whole at run time (under the commit latch, in one catalog
// step) and at replay: a statement that changes several things names them
// all in its one record (truncate_table: drop and re-create; drop_tables:
// every table of DROP TABLE a, b, c), so a crash leaves the schema wholly
// before or wholly after it.
type DDLRecord struct {
	// Op is create_db, drop_db, create_table, drop_table (one table; logs
	// of earlier versions), drop_tables, truncate_table, alter_table,
	// rename_tables, create_proc, create_func, drop_func, drop_proc,
	// create_view, drop_views, create_table_rows (CREATE TABLE ...
	// SELECT: Def and Rows) or accounts (sql/acl: Accounts).
	Op     string             `json:"op"`
	DB     string             `json:"db,omitempty"`
	Name   string             `json:"name,omitempty"`
	Def    *storage.TableDef  `json:"def,omitempty"`
	Tables []storage.TableRef `json:"tables,omitempty"` // drop_tables
	Proc   json.RawMessage    `json:"proc,omitempty"`
	// alter_table: DB.Name is rebuilt as Def (which may name another
	// database and table: ALTER TABLE ... RENAME), its rows converted by
	// Shape, its AUTO_INCREMENT counter set to AutoInc.
	Shape   *storage.Reshape `json:"shape,omitempty"`
	AutoInc uint64           `json:"auto_inc,omitempty"`
	// Instant: the rows stay as they are (storage.SameLayout); Def keeps
	// the table's id and only its definition changes.
	Instant bool `json:"instant,omitempty"`
	// rename_tables: the steps of RENAME TABLE, in order.
	Renames []storage.Rename `json:"renames,omitempty"`
	// View is create_view's view (created or replaced); drop_views names
	// its views in Tables.
	View *storage.ViewDef `json:"view,omitempty"`
	// Rows are create_table_rows' initial rows (EncodeTableRows).
	Rows []byte `json:"rows,omitempty"`
	// Accounts is an accounts record's whole account catalog after the
	// statement (sql/acl: users, stored secrets, grants; never a password).
	Accounts json.RawMessage `json:"accounts,omitempty"`
}

// Encode marshals the record.
func (r *DDLRecord) Encode() ([]byte, error) { return json.Marshal(r) }

// DecodeDDL unmarshals a DDL record.
func DecodeDDL(b []byte) (*DDLRecord, error) {
	var r DDLRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("txn: malformed DDL record: %w", err)
	}
	return &r, nil
}

// ApplyDDL replays a table or database DDL record into cat. Procedure
// records are the caller's. Its only error is a failure to read or write
// the table store while it rebuilds a table for an alter_table record (a
// *storage.StoreError): recovery cannot go on without that table.
func ApplyDDL(cat *storage.Catalog, r *DDLRecord) error {
	switch r.Op {
	case "create_db":
		cat.CreateDatabase(r.DB)
	case "drop_db":
		cat.DropDatabase(r.DB)
	case "create_table":
		if r.Def != nil {
			cat.AddTable(r.Def)
		}
	case "drop_table":
		cat.DropTable(r.DB, r.Name)
	case "drop_tables":
		cat.DropTables(r.Tables)
	case "truncate_table":
		if r.Def != nil {
			cat.ReplaceTable(r.Def)
		}
	case "alter_table":
		return replayAlter(cat, r)
	case "rename_tables":
		cat.RenameTables(r.Renames, false)
	case "create_view":
		if r.View != nil {
			cat.PutView(r.View)
		}
	case "drop_views":
		cat.DropViews(r.Tables)
	}
	return nil
}

// replayAlter rebuilds the table as the ALTER TABLE did: the same
// conversion (Reshape.Convert) of the rows the table held at the record's
// LSN, which replay order guarantees are the rows the statement copied.
// A row that does not convert failed the statement too, which then logged
// nothing: the record is skipped. A failure to read or write the table
// store is returned: skipping the ALTER would leave the table in its old
// definition under the records that follow.
func replayAlter(cat *storage.Catalog, r *DDLRecord) (err error) {
	old := cat.Table(r.DB, r.Name)
	if old == nil || r.Def == nil || r.Shape == nil {
		return nil
	}
	if r.Instant {
		nt := old.Redefined(r.Def)
		nt.SetAutoInc(r.AutoInc)
		cat.SwapAltered(old, nt, r.Shape)
		return nil
	}
	// A failed read of the store panics with a *storage.StoreError (from
	// NewRebuild's load of the stored rows or the copy): it is the error.
	defer func() {
		if p := recover(); p != nil {
			se, ok := p.(*storage.StoreError)
			if !ok {
				panic(p)
			}
			err = alterStoreError(r, se)
		}
	}()
	b := storage.NewRebuild(old, r.Def, r.Shape, 0)
	defer b.Close()
	if err := b.Copy(); err != nil {
		var se *storage.StoreError
		if errors.As(err, &se) {
			return alterStoreError(r, err)
		}
		return nil // a row's conversion: the statement failed the same way and logged nothing
	}
	b.Finish()
	b.New.SetAutoInc(r.AutoInc)
	cat.SwapAltered(old, b.New, r.Shape)
	return nil
}

// alterStoreError is the error of an alter_table record's replay that
// could not read or write the table store.
func alterStoreError(r *DDLRecord, err error) error {
	return fmt.Errorf("txn: replaying ALTER TABLE %s.%s: %w", r.DB, r.Name, err)
}

// Replayer applies log records in LSN order during recovery, holding the
// chunks of large transactions until their commit record arrives; chunks
// whose commit record never came (a crash in between) are dropped.
type Replayer struct {
	Catalog *storage.Catalog
	// OnRedo, when set, is told each commit's redo once applied (the
	// records the table store does not have yet go to its applier).
	OnRedo func(lsn uint64, redo []byte)
	chunks map[uint64][]pendingChunk // txn id -> chunks in LSN order
}

// Commit applies a KindCommit record.
func (r *Replayer) Commit(lsn uint64, payload []byte) error {
	if err := ApplyRedo(r.Catalog, lsn, payload); err != nil {
		return err
	}
	if r.OnRedo != nil {
		r.OnRedo(lsn, payload)
	}
	return nil
}

type pendingChunk struct {
	lsn  uint64
	redo []byte
}

// Chunk buffers a KindChunk record.
func (r *Replayer) Chunk(lsn uint64, payload []byte) error {
	id, k := binary.Uvarint(payload)
	if k <= 0 {
		return errBadRedo
	}
	if r.chunks == nil {
		r.chunks = map[uint64][]pendingChunk{}
	}
	r.chunks[id] = append(r.chunks[id], pendingChunk{lsn: lsn, redo: payload[k:]})
	return nil
}

// ChunkedCommit applies the redo of the chunks it names: the transaction's
// chunks from its first chunk's LSN on. Older chunks with the same id are
// another lifetime's orphans and are dropped.
func (r *Replayer) ChunkedCommit(lsn uint64, payload []byte) error {
	id, k := binary.Uvarint(payload)
	if k <= 0 {
		return errBadRedo
	}
	first, k2 := binary.Uvarint(payload[k:])
	if k2 <= 0 {
		return errBadRedo
	}
	var redo []byte
	for _, c := range r.chunks[id] {
		if c.lsn >= first {
			redo = append(redo, c.redo...)
		}
	}
	delete(r.chunks, id)
	if redo == nil {
		return fmt.Errorf("txn: commit record at LSN %d names transaction %d's chunks from LSN %d, which are not in the log", lsn, id, first)
	}
	return r.Commit(lsn, redo)
}
