package storage

import (
	"encoding/json"
	"fmt"

	"github.com/plrun/plrun/storage/kv"
)

// The catalog header is the schema as one JSON document, stored in the
// table store with every DDL record the applier applies (txn/applier.go):
// databases, each table's definition, the key space of its rows (DataID)
// and AUTO_INCREMENT counter, the next table id, and what the engine
// keeps beside tables (procedures, views, triggers, accounts) as Extra.

// Header encodes the catalog's schema as of now. The caller holds the
// commit latch exclusively, so it matches one LSN.
func (c *Catalog) Header(extra json.RawMessage) ([]byte, error) {
	dbs, tables, nextID := c.CaptureSchema()
	h := SnapshotHeader{Databases: dbs, NextID: nextID, Extra: extra}
	for _, ct := range tables {
		h.Tables = append(h.Tables, TableSnap{Def: ct.T.Def, AutoInc: ct.T.DDLAutoInc(), DataID: ct.T.dataID})
	}
	return json.Marshal(h)
}

// OpenCatalog rebuilds the catalog a header describes over store s: no
// row is resident, each table reads its rows from s. It returns the
// header's Extra.
func OpenCatalog(s *kv.Store, header []byte) (*Catalog, json.RawMessage, error) {
	var h SnapshotHeader
	if err := json.Unmarshal(header, &h); err != nil {
		return nil, nil, fmt.Errorf("catalog header: %w", err)
	}
	c := &Catalog{dbs: map[string]map[string]*Table{}, dbName: map[string]string{}, byID: map[uint64]*Table{}}
	for _, db := range h.Databases {
		c.CreateDatabase(db)
	}
	c.store = s
	for _, ts := range h.Tables {
		t, ok := c.AddTable(ts.Def)
		if !ok {
			return nil, nil, fmt.Errorf("catalog header: table %s.%s twice or without database", ts.Def.DB, ts.Def.Name)
		}
		id := ts.DataID
		if id == 0 {
			id = ts.Def.ID
		}
		t.attach(s, id, false)
		n, err := s.Count(id)
		if err != nil {
			return nil, nil, err
		}
		t.count = n
		auto, err := s.AutoInc(id)
		if err != nil {
			return nil, nil, err
		}
		t.SetAutoInc(max(ts.AutoInc, auto))
		if t.Def.PrimaryKey() == nil {
			if err := t.loadHiddenCounter(); err != nil {
				return nil, nil, err
			}
		}
	}
	if h.NextID > c.nextID {
		c.nextID = h.NextID
	}
	return c, h.Extra, nil
}

// loadHiddenCounter sets a table without a primary key's row-id counter
// past its last stored row.
func (t *Table) loadHiddenCounter() error {
	p := kv.RowPrefix(nil, t.dataID)
	it, err := t.store.NewIter(p, kv.PrefixEnd(p))
	if err != nil {
		return err
	}
	defer it.Close()
	if it.Last() {
		r := t.storedRow(string(it.Key()[len(p):]), nil, 0)
		t.hidden = max(t.hidden, r.hidden)
	}
	return it.Error()
}
