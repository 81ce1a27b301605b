package storage

import (
	"sort"
	"strings"
)

// ViewDef is a view: its name, its column names when the CREATE VIEW
// listed them, and its SELECT as plrun stores it (the text SHOW CREATE
// VIEW prints and every query over the view plans). Views share the
// tables' namespace and are dropped with their database; DDL records and
// checkpoints carry them whole.
type ViewDef struct {
	DB        string
	Name      string
	Columns   []string `json:",omitempty"`
	Select    string
	Algorithm string // UNDEFINED, MERGE or TEMPTABLE
	Definer   string // `user`@`host`
	Security  string // DEFINER or INVOKER
	// CheckOption is NONE, CASCADED or LOCAL (WITH [CASCADED | LOCAL]
	// CHECK OPTION).
	CheckOption string
	// Updatable is whether the SELECT is one MySQL can write through
	// (one table, no aggregate, DISTINCT, GROUP BY, UNION ...).
	Updatable bool
	Charset   string // character_set_client when created
	Collation string // collation_connection when created
}

// View returns db.name's view or nil.
func (c *Catalog) View(db, name string) *ViewDef {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.views[strings.ToLower(db)][strings.ToLower(name)]
}

// Views lists db's views by name.
func (c *Catalog) Views(db string) []*ViewDef {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []*ViewDef
	for _, v := range c.views[strings.ToLower(db)] {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// AllViews lists every view, by database and name.
func (c *Catalog) AllViews() []*ViewDef {
	var out []*ViewDef
	for _, db := range c.Databases() {
		out = append(out, c.Views(db)...)
	}
	return out
}

// PutView creates or replaces a view; false if its database does not
// exist or a table has its name.
func (c *Catalog) PutView(v *ViewDef) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	db := strings.ToLower(v.DB)
	if _, ok := c.dbs[db]; !ok {
		return false
	}
	if c.dbs[db][strings.ToLower(v.Name)] != nil {
		return false
	}
	if c.views == nil {
		c.views = map[string]map[string]*ViewDef{}
	}
	if c.views[db] == nil {
		c.views[db] = map[string]*ViewDef{}
	}
	c.views[db][strings.ToLower(v.Name)] = v
	return true
}

// DropViews removes the named views that exist and returns how many.
func (c *Catalog) DropViews(refs []TableRef) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, r := range refs {
		vs := c.views[strings.ToLower(r.DB)]
		if vs[strings.ToLower(r.Name)] != nil {
			delete(vs, strings.ToLower(r.Name))
			n++
		}
	}
	return n
}
