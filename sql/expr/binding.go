package expr

import "github.com/plrun/plrun/storage"

// TableBinding maps a plan's placeholder table to the table one execution
// filled. A derived table or a CTE is planned once, against a placeholder
// that holds only its definition (plans are shared by sessions and reused
// by executions, so they never hold rows); each execution materializes
// the rows into a fresh transient table and binds it here, in the Ctx the
// rest of the query runs in. Bindings form a chain: an inner query's
// bindings end in its enclosing query's.
type TableBinding struct {
	Placeholder *storage.Table
	Rows        *storage.Table
	Next        *TableBinding
}

// Bind returns the chain b with placeholder bound to rows in front.
func (b *TableBinding) Bind(placeholder, rows *storage.Table) *TableBinding {
	return &TableBinding{Placeholder: placeholder, Rows: rows, Next: b}
}

// TableOf is the table t's rows are read from in this execution: the
// materialized rows of a placeholder, or t itself.
func (c *Ctx) TableOf(t *storage.Table) *storage.Table {
	for b := c.Tables; b != nil; b = b.Next {
		if b.Placeholder == t {
			return b.Rows
		}
	}
	return t
}

// IsTransient reports whether t's rows are materialized per execution
// (a derived table or CTE): it has no row locks and no log.
func (c *Ctx) IsTransient(t *storage.Table) bool { return c.TableOf(t) != t }

// ViewColumns are a view's columns for a statement that writes through
// it: each view column (lower-case name) as an expression over the base
// table's row.
type ViewColumns struct {
	Name string
	Cols map[string]*Expr
}
