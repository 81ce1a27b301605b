package acl

import (
	"testing"

	"github.com/plrun/plrun/sql/privilege"
)

// BenchmarkGrantsAllowed is the privilege check every statement makes:
// a global grant (root), a database grant, and a table grant (the
// deepest lookup) of an account with a few of each.
func BenchmarkGrantsAllowed(b *testing.B) {
	c, j := New(), &memJournal{}
	for _, q := range []string{
		"CREATE USER root, app",
		"GRANT ALL ON *.* TO root",
		"GRANT SELECT ON shop.* TO app",
		"GRANT SELECT ON other.* TO app",
		"GRANT INSERT, UPDATE ON shop.orders TO app",
		"GRANT INSERT ON shop.items TO app",
	} {
		if err := run(b, c, j, q); err != nil {
			b.Fatal(err)
		}
	}
	for _, bc := range []struct {
		name      string
		g         *Grants
		need      privilege.Priv
		db, table string
	}{
		{"global", c.GrantsFor("root", "%"), privilege.Update, "shop", "orders"},
		{"db", c.GrantsFor("app", "%"), privilege.Select, "shop", "orders"},
		{"table", c.GrantsFor("app", "%"), privilege.Update, "shop", "orders"},
		{"denied", c.GrantsFor("app", "%"), privilege.Delete, "shop", "orders"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				bc.g.Allowed(bc.need, bc.db, bc.table)
			}
		})
	}
}
