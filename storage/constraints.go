package storage

import (
	"sort"
	"strings"
)

// RefAction is what a FOREIGN KEY does to child rows when their parent
// row is deleted or its referenced columns change. "" is the default,
// RESTRICT, which MariaDB does not print; "NO ACTION" is printed as
// written (InnoDB checks it at once, like RESTRICT).
type RefAction string

const (
	RefRestrict RefAction = ""
	RefNoAction RefAction = "NO ACTION"
	RefCascade  RefAction = "CASCADE"
	RefSetNull  RefAction = "SET NULL"
)

// Rule is the action as information_schema.REFERENTIAL_CONSTRAINTS'
// UPDATE_RULE / DELETE_RULE print it ("RESTRICT" for the default).
func (a RefAction) Rule() string {
	if a == RefRestrict {
		return "RESTRICT"
	}
	return string(a)
}

// ForeignKey is one FOREIGN KEY of a (child) table: its columns Cols
// reference the parent's columns RefCols, by name, so the parent may be
// created after the child (foreign_key_checks=0, as dumps do).
type ForeignKey struct {
	Name     string    `json:"name"`
	Cols     []int     `json:"cols"`
	RefDB    string    `json:"ref_db"`
	RefTable string    `json:"ref_table"`
	RefCols  []string  `json:"ref_cols"`
	OnDelete RefAction `json:"on_delete,omitempty"`
	OnUpdate RefAction `json:"on_update,omitempty"`
}

// References reports whether fk's parent is db.name.
func (fk *ForeignKey) References(db, name string) bool {
	return strings.EqualFold(fk.RefDB, db) && strings.EqualFold(fk.RefTable, name)
}

// Check is one CHECK constraint: Expr is its text as SHOW CREATE TABLE
// prints it. Column names a column-level check (printed after the
// column, reported as `table.column`).
type Check struct {
	Name   string `json:"name"`
	Expr   string `json:"expr"`
	Column string `json:"column,omitempty"`
}

// ChildFK is a foreign key seen from its parent: the child table and
// which of its keys.
type ChildFK struct {
	Child *Table
	FK    *ForeignKey
}

// ReferencingFKs lists the foreign keys of every table that reference
// db.name (self-references included), the newest table's first, the
// order InnoDB finds them in (error 1701 names the newest). It walks the catalog: parent
// writes are rarer than child inserts, and a walk cannot go stale when
// another DDL statement changes a table.
func (c *Catalog) ReferencingFKs(db, name string) []ChildFK {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []ChildFK
	for _, t := range c.byID {
		for i := range t.Def.ForeignKeys {
			if fk := &t.Def.ForeignKeys[i]; fk.References(db, name) {
				out = append(out, ChildFK{Child: t, FK: fk})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Child.Def.ID > out[j].Child.Def.ID })
	return out
}

// SQL is fk as SHOW CREATE TABLE and InnoDB's errors print it:
// CONSTRAINT `n` FOREIGN KEY (`a`, `b`) REFERENCES `p` (`x`, `y`) and
// its actions, the parent qualified by its database when it is in
// another one than child, or always when qualify is set (error 1701).
func (fk *ForeignKey) SQL(child *TableDef, qualify bool) string {
	var b strings.Builder
	b.WriteString("CONSTRAINT " + quoteIdent(fk.Name) + " FOREIGN KEY (")
	for i, c := range fk.Cols {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quoteIdent(child.Columns[c].Name))
	}
	b.WriteString(") REFERENCES ")
	if qualify || !strings.EqualFold(fk.RefDB, child.DB) {
		b.WriteString(quoteIdent(fk.RefDB) + ".")
	}
	b.WriteString(quoteIdent(fk.RefTable) + " (")
	for i, c := range fk.RefCols {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quoteIdent(c))
	}
	b.WriteString(")")
	if fk.OnDelete != RefRestrict {
		b.WriteString(" ON DELETE " + string(fk.OnDelete))
	}
	if fk.OnUpdate != RefRestrict {
		b.WriteString(" ON UPDATE " + string(fk.OnUpdate))
	}
	return b.String()
}

func quoteIdent(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }
