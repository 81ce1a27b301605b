package storage

import (
	"sort"
	"strings"
	"sync"

	"github.com/plrun/plrun/storage/kv"
)

// Catalog is the set of databases and their tables.
type Catalog struct {
	mu     sync.RWMutex
	dbs    map[string]map[string]*Table // lower(db) -> lower(table) -> table
	dbName map[string]string            // lower(db) -> name as created
	byID   map[uint64]*Table
	nextID uint64
	views  map[string]map[string]*ViewDef // lower(db) -> lower(view) -> view (views.go)
	// store, when set, holds the tables' rows (backing.go); tables made
	// from here on keep theirs there.
	store *kv.Store
}

// SetStore makes the catalog's tables keep their rows in s: every table
// already in it (their rows are all resident and none is in s yet) and
// every table made from now on.
func (c *Catalog) SetStore(s *kv.Store) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.store = s
	for _, t := range c.byID {
		t.mu.Lock()
		if t.store == nil {
			t.attach(s, t.Def.ID, true)
			t.recountLocked()
		}
		t.mu.Unlock()
	}
}

// Store is the catalog's table store (nil: memory only).
func (c *Catalog) Store() *kv.Store { return c.store }

// NewCatalog returns a catalog holding the default database "test".
func NewCatalog() *Catalog {
	c := &Catalog{dbs: map[string]map[string]*Table{}, dbName: map[string]string{}, byID: map[uint64]*Table{}}
	c.CreateDatabase("test")
	return c
}

// CreateDatabase adds db; false if it exists.
func (c *Catalog) CreateDatabase(db string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := strings.ToLower(db)
	if _, ok := c.dbs[k]; ok {
		return false
	}
	c.dbs[k] = map[string]*Table{}
	c.dbName[k] = db
	return true
}

// DropDatabase removes db and its tables; false if it does not exist.
func (c *Catalog) DropDatabase(db string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := strings.ToLower(db)
	ts, ok := c.dbs[k]
	if !ok {
		return false
	}
	for _, t := range ts {
		t.MarkDropped()
		delete(c.byID, t.Def.ID)
	}
	delete(c.dbs, k)
	delete(c.dbName, k)
	delete(c.views, k)
	return true
}

// HasDatabase reports whether db exists.
func (c *Catalog) HasDatabase(db string) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	_, ok := c.dbs[strings.ToLower(db)]
	return ok
}

// Databases lists database names, sorted.
func (c *Catalog) Databases() []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]string, 0, len(c.dbName))
	for _, n := range c.dbName {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Table returns db.name or nil.
func (c *Catalog) Table(db, name string) *Table {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.dbs[strings.ToLower(db)][strings.ToLower(name)]
}

// TableByID returns a live table by its id (recovery, redo).
func (c *Catalog) TableByID(id uint64) *Table {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.byID[id]
}

// Tables lists db's tables sorted by name.
func (c *Catalog) Tables(db string) []*Table {
	c.mu.RLock()
	defer c.mu.RUnlock()
	ts := c.dbs[strings.ToLower(db)]
	out := make([]*Table, 0, len(ts))
	for _, t := range ts {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Def.Name < out[j].Def.Name })
	return out
}

// AllTables lists every table (snapshots).
func (c *Catalog) AllTables() []*Table {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]*Table, 0, len(c.byID))
	for _, t := range c.byID {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Def.ID < out[j].Def.ID })
	return out
}

// AllocTableID returns a fresh table id.
func (c *Catalog) AllocTableID() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nextID++
	return c.nextID
}

// AddTable installs a table built from def; false if the name is taken or
// the database is missing.
func (c *Catalog) AddTable(def *TableDef) (*Table, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ts, ok := c.dbs[strings.ToLower(def.DB)]
	if !ok {
		return nil, false
	}
	k := strings.ToLower(def.Name)
	if _, exists := ts[k]; exists {
		return nil, false
	}
	return c.installLocked(ts, k, def), true
}

// installLocked builds def's table and names it k in ts.
func (c *Catalog) installLocked(ts map[string]*Table, k string, def *TableDef) *Table {
	if def.ID > c.nextID {
		c.nextID = def.ID
	}
	t := NewTable(def)
	if c.store != nil {
		t.attach(c.store, def.ID, true)
	}
	ts[k] = t
	c.byID[def.ID] = t
	return t
}

// DropTable removes db.name; false if missing.
func (c *Catalog) DropTable(db, name string) bool {
	return c.DropTables([]TableRef{{DB: db, Name: name}}) == 1
}

// ReplaceTable swaps db.name for a new, empty table built from def (TRUNCATE)
// in one step under the catalog's lock, so a concurrent lookup finds the old
// table or the new one, never neither. false if db.name does not exist.
func (c *Catalog) ReplaceTable(def *TableDef) (*Table, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ts := c.dbs[strings.ToLower(def.DB)]
	k := strings.ToLower(def.Name)
	old, ok := ts[k]
	if !ok {
		return nil, false
	}
	old.MarkDropped()
	delete(c.byID, old.Def.ID)
	return c.installLocked(ts, k, def), true
}

// TableRef names a table.
type TableRef struct {
	DB   string `json:"db"`
	Name string `json:"name"`
}

// DropTables removes every named table that exists, in one step under the
// catalog's lock (DROP TABLE a, b, c), and returns how many it removed.
func (c *Catalog) DropTables(refs []TableRef) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, r := range refs {
		ts := c.dbs[strings.ToLower(r.DB)]
		t, ok := ts[strings.ToLower(r.Name)]
		if !ok {
			continue
		}
		t.MarkDropped()
		delete(ts, strings.ToLower(r.Name))
		delete(c.byID, t.Def.ID)
		n++
	}
	return n
}

// DatabaseName returns db as created (case preserved).
func (c *Catalog) DatabaseName(db string) string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if n, ok := c.dbName[strings.ToLower(db)]; ok {
		return n
	}
	return db
}
