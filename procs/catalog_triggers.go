package procs

import (
	"strings"

	"github.com/plrun/plrun/sqlerr"
)

// Trigger is a created trigger as the catalog keeps it (and the log and
// snapshots carry it): its definition with the table's database filled
// in, and what SHOW TRIGGERS prints besides.
type Trigger struct {
	DB      string     `json:"db"`
	Def     TriggerDef `json:"def"`
	Created string     `json:"created"`  // 2006-01-02 15:04:05.00
	SQLMode string     `json:"sql_mode"` // the creating session's
	Definer string     `json:"definer"`
	// RunAs is the account whose rights the body runs with (the DEFINER
	// written, else the creating session's account); "" for one created
	// by an unchecked session: the operator's rights.
	RunAs string `json:"run_as,omitempty"`
	Text  string `json:"text"` // the CREATE TRIGGER as written (SHOW CREATE TRIGGER)
}

// Key is lower(db)+"."+lower(name), the trigger's identity.
func (t *Trigger) Key() string { return procKey(t.DB, t.Def.Name) }

// triggerErr is MariaDB's 4031 for FOLLOWS/PRECEDES naming no trigger of
// the same table, timing and event.
func triggerErr(name string) error {
	return sqlerr.New(sqlerr.ErReferencedTrgDoesNotExist, "Referenced trigger '%s' for the given action time and event type does not exist", name)
}

// CreateTrigger adds t, or replaces the trigger of its name when replace.
// Triggers are kept in firing order: at the end of their table's
// triggers of the same timing and event, or just after (FOLLOWS) or
// before (PRECEDES) the one named. A name already taken is 1359.
func (c *Catalog) CreateTrigger(t *Trigger, replace bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	key := t.Key()
	keep := c.triggers[:0:0]
	for _, o := range c.triggers {
		if o.Key() == key {
			if !replace {
				return sqlerr.New(sqlerr.ErTrgAlreadyExists, "Trigger '%s.%s' already exists", t.DB, t.Def.Name)
			}
			continue
		}
		keep = append(keep, o)
	}
	at := len(keep)
	if t.Def.Order != "" {
		at = -1
		for i, o := range keep {
			if o.sameGroup(t) && strings.EqualFold(o.Def.Name, t.Def.OrderOther) {
				at = i
				if t.Def.Order == "FOLLOWS" {
					at = i + 1
				}
			}
		}
		if at < 0 {
			return triggerErr(t.Def.OrderOther)
		}
	}
	keep = append(keep, nil)
	copy(keep[at+1:], keep[at:])
	keep[at] = t
	c.triggers = keep
	return nil
}

func (t *Trigger) sameGroup(o *Trigger) bool {
	return strings.EqualFold(t.DB, o.DB) && strings.EqualFold(t.Def.Table, o.Def.Table) &&
		t.Def.Timing == o.Def.Timing && t.Def.Event == o.Def.Event
}

// GetTrigger returns db.name.
func (c *Catalog) GetTrigger(db, name string) (*Trigger, bool) {
	key := procKey(db, name)
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, t := range c.triggers {
		if t.Key() == key {
			return t, true
		}
	}
	return nil, false
}

// DropTrigger removes db.name: 1360 when there is none, unless ifExists.
func (c *Catalog) DropTrigger(db, name string, ifExists bool) error {
	key := procKey(db, name)
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, t := range c.triggers {
		if t.Key() == key {
			c.triggers = append(c.triggers[:i:i], c.triggers[i+1:]...)
			return nil
		}
	}
	if ifExists {
		return nil
	}
	return sqlerr.New(sqlerr.ErTrgDoesNotExist, "Trigger does not exist")
}

// TriggersOf returns the triggers of db.table for timing and event, in
// firing order.
func (c *Catalog) TriggersOf(db, table, timing, event string) []*Trigger {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []*Trigger
	for _, t := range c.triggers {
		if t.Def.Timing == timing && t.Def.Event == event && strings.EqualFold(t.DB, db) && strings.EqualFold(t.Def.Table, table) {
			out = append(out, t)
		}
	}
	return out
}

// HasTriggers reports whether db.table has any trigger.
func (c *Catalog) HasTriggers(db, table string) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, t := range c.triggers {
		if strings.EqualFold(t.DB, db) && strings.EqualFold(t.Def.Table, table) {
			return true
		}
	}
	return false
}

// ListTriggersIn returns db's triggers in firing order (table by table as
// created).
func (c *Catalog) ListTriggersIn(db string) []*Trigger {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []*Trigger
	for _, t := range c.triggers {
		if strings.EqualFold(t.DB, db) {
			out = append(out, t)
		}
	}
	return out
}

// ActionOrder is t's place (from 1) among its table's triggers of the
// same timing and event, as SHOW TRIGGERS' ACTION_ORDER.
func (c *Catalog) ActionOrder(t *Trigger) int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	n := 0
	for _, o := range c.triggers {
		if o.sameGroup(t) {
			n++
			if o == t {
				return n
			}
		}
	}
	return n
}

// DropTableTriggers removes db.table's triggers (DROP TABLE drops them).
func (c *Catalog) DropTableTriggers(db, table string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	keep := c.triggers[:0:0]
	for _, t := range c.triggers {
		if !(strings.EqualFold(t.DB, db) && strings.EqualFold(t.Def.Table, table)) {
			keep = append(keep, t)
		}
	}
	c.triggers = keep
}

// DropDatabaseTriggers removes every trigger of db.
func (c *Catalog) DropDatabaseTriggers(db string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	keep := c.triggers[:0:0]
	for _, t := range c.triggers {
		if !strings.EqualFold(t.DB, db) {
			keep = append(keep, t)
		}
	}
	c.triggers = keep
}

// RenameTableTriggers moves db.table's triggers to newDB.newTable, as
// RENAME TABLE does (MariaDB refuses a move to another database when the
// table has triggers: the sql layer checks that first).
func (c *Catalog) RenameTableTriggers(db, table, newDB, newTable string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	moved := make([]*Trigger, len(c.triggers))
	for i, t := range c.triggers {
		moved[i] = t
		if strings.EqualFold(t.DB, db) && strings.EqualFold(t.Def.Table, table) {
			n := *t
			n.DB, n.Def.Table = newDB, newTable
			moved[i] = &n
		}
	}
	c.triggers = moved
}
