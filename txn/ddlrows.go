package txn

import (
	"encoding/binary"
	"fmt"

	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// CREATE TABLE ... SELECT is one DDL record that carries the new table's
// definition and every row it starts with (Op "create_table_rows"). The
// table and its rows thus have one LSN: a crash leaves both or neither,
// never an empty table whose rows' commit was lost, and no reader can see
// the table before its rows (they are installed under the same commit
// latch hold that adds it to the catalog). The price is that the rows are
// one log record, not chunked as a large transaction's redo is.

// EncodeTableRows encodes rows (primary key, values) for a create_table_rows record.
func EncodeTableRows(pks, rows [][]types.Value) []byte {
	buf := binary.AppendUvarint(nil, uint64(len(rows)))
	for i := range rows {
		buf = types.AppendRow(buf, pks[i])
		buf = types.AppendRow(buf, rows[i])
	}
	return buf
}

// applyTableRows adds r.Def to cat and installs its rows at lsn.
func applyTableRows(cat *storage.Catalog, r *DDLRecord, lsn uint64) error {
	if r.Def == nil {
		return errBadRedo
	}
	// A view of the name refuses it as a table does (the statement checked
	// both under the same latch hold, so replay decides alike).
	if cat.View(r.DB, r.Name) != nil {
		return fmt.Errorf("txn: %s.%s is a view", r.DB, r.Name)
	}
	t, ok := cat.AddTable(r.Def)
	if !ok {
		return fmt.Errorf("txn: table %s.%s already exists", r.DB, r.Name)
	}
	n, k := binary.Uvarint(r.Rows)
	if k <= 0 {
		return errBadRedo
	}
	buf := r.Rows[k:]
	ai := t.Def.AutoIncColumn()
	for i := uint64(0); i < n; i++ {
		pk, rest, err := types.DecodeRow(buf)
		if err != nil {
			return errBadRedo
		}
		vals, rest, err := types.DecodeRow(rest)
		if err != nil {
			return errBadRedo
		}
		buf = rest
		t.Apply(storage.KeyOf(pk), pk, vals, lsn)
		if ai >= 0 && ai < len(vals) {
			if v, ok := vals[ai].ToInt64(); ok && v > 0 {
				t.SeenAutoInc(uint64(v))
			}
		}
	}
	return nil
}

// ApplyDDLAt is ApplyDDL for a record logged at lsn: the one that also
// replays create_table_rows, whose rows carry their LSN.
func ApplyDDLAt(cat *storage.Catalog, r *DDLRecord, lsn uint64) error {
	if r.Op == "create_table_rows" {
		return applyTableRows(cat, r, lsn)
	}
	return ApplyDDL(cat, r)
}
