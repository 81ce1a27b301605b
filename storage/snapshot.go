package storage

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"

	"github.com/plrun/plrun/types"
)

// SnapshotHeader is the JSON head of a snapshot: the catalog's schema and
// whatever else the engine keeps beside tables (procedures), as raw JSON.
type SnapshotHeader struct {
	Databases []string
	Tables    []TableSnap
	NextID    uint64
	Extra     json.RawMessage `json:",omitempty"`
}

// TableSnap is a table's schema and counters in a snapshot.
type TableSnap struct {
	Def     *TableDef
	AutoInc uint64
	Rows    int    `json:",omitempty"`
	DataID  uint64 `json:",omitempty"` // the catalog header's: the key space of its rows in the store
}

// CapturedTable is a table's state for a snapshot.
type CapturedTable struct {
	T    *Table
	Rows []SnapRow
	Auto uint64
}

// CaptureSchema lists the databases and tables and their counters, without
// rows. The caller holds the commit latch so it matches one LSN, then
// reads the rows at that LSN's snapshot with ReadRows.
func (c *Catalog) CaptureSchema() (dbs []string, tables []CapturedTable, nextID uint64) {
	dbs = c.Databases()
	for _, t := range c.AllTables() {
		tables = append(tables, CapturedTable{T: t, Auto: t.AutoInc()})
	}
	c.mu.RLock()
	nextID = c.nextID
	c.mu.RUnlock()
	return dbs, tables, nextID
}

// ReadRows fills each captured table's rows as of snapshot snap. Commits
// go on meanwhile; the caller keeps snap registered so the versions it
// needs are not trimmed.
func ReadRows(tables []CapturedTable, snap uint64) {
	for i := range tables {
		tables[i].Rows = tables[i].T.CommittedRows(snap)
	}
}

// WriteSnapshot writes a captured state: a length-prefixed JSON header,
// then each table's rows in the header's order.
func WriteSnapshot(w io.Writer, dbs []string, tables []CapturedTable, nextID uint64, extra json.RawMessage) error {
	h := SnapshotHeader{Databases: dbs, NextID: nextID, Extra: extra}
	for _, ct := range tables {
		h.Tables = append(h.Tables, TableSnap{Def: ct.T.Def, AutoInc: ct.Auto, Rows: len(ct.Rows)})
	}
	hb, err := json.Marshal(h)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	bw.Write(binary.AppendUvarint(nil, uint64(len(hb))))
	bw.Write(hb)
	var buf []byte
	for _, ct := range tables {
		for _, row := range ct.Rows {
			buf = types.AppendRow(buf[:0], row.PK)
			buf = types.AppendRow(buf, row.Vals)
			bw.Write(binary.AppendUvarint(nil, uint64(len(buf))))
			if _, err := bw.Write(buf); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

// ReadSnapshot rebuilds a catalog from a snapshot and returns the Extra part.
func ReadSnapshot(r io.Reader) (*Catalog, json.RawMessage, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	n, err := binary.ReadUvarint(br)
	if err != nil {
		return nil, nil, fmt.Errorf("snapshot header: %w", err)
	}
	hb := make([]byte, n)
	if _, err := io.ReadFull(br, hb); err != nil {
		return nil, nil, fmt.Errorf("snapshot header: %w", err)
	}
	var h SnapshotHeader
	if err := json.Unmarshal(hb, &h); err != nil {
		return nil, nil, fmt.Errorf("snapshot header: %w", err)
	}
	c := &Catalog{dbs: map[string]map[string]*Table{}, dbName: map[string]string{}, byID: map[uint64]*Table{}}
	for _, db := range h.Databases {
		c.CreateDatabase(db)
	}
	for _, ts := range h.Tables {
		t, ok := c.AddTable(ts.Def)
		if !ok {
			return nil, nil, fmt.Errorf("snapshot: table %s.%s twice or without database", ts.Def.DB, ts.Def.Name)
		}
		t.SetAutoInc(ts.AutoInc)
		var buf []byte
		for i := 0; i < ts.Rows; i++ {
			l, err := binary.ReadUvarint(br)
			if err != nil {
				return nil, nil, fmt.Errorf("snapshot rows of %s: %w", ts.Def.Name, err)
			}
			if cap(buf) < int(l) {
				buf = make([]byte, l)
			}
			buf = buf[:l]
			if _, err := io.ReadFull(br, buf); err != nil {
				return nil, nil, fmt.Errorf("snapshot rows of %s: %w", ts.Def.Name, err)
			}
			pk, rest, err := types.DecodeRow(buf)
			if err != nil {
				return nil, nil, fmt.Errorf("snapshot rows of %s: %w", ts.Def.Name, err)
			}
			row, _, err := types.DecodeRow(rest)
			if err != nil {
				return nil, nil, fmt.Errorf("snapshot rows of %s: %w", ts.Def.Name, err)
			}
			t.Apply(KeyOf(pk), pk, row, 0)
		}
	}
	if h.NextID > c.nextID {
		c.nextID = h.NextID
	}
	return c, h.Extra, nil
}
