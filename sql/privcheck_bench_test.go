package sql_test

import (
	"context"
	"testing"

	"github.com/plrun/plrun/sql/privilege"
)

// tableGrants holds privileges on one table only and answers without
// allocating, as the account catalog's cached grants should: the
// benchmark measures the checks' own cost.
type tableGrants struct {
	db, table string
	p         privilege.Priv
}

func (g tableGrants) Allowed(need privilege.Priv, db, table string) bool {
	return db == g.db && table == g.table && g.p&need == need
}
func (g tableGrants) Visible(db string) bool { return db == g.db }
func (g tableGrants) User() string           { return "u" }
func (g tableGrants) Host() string           { return "%" }

// BenchmarkPointSelectChecked is a point SELECT by primary key in an
// unchecked session and in one whose account holds SELECT on the table:
// the check is one Grants.Allowed call and allocates nothing.
//
//	go test ./sql -run XXX -bench PointSelectChecked -count 5 -benchmem
func BenchmarkPointSelectChecked(b *testing.B) {
	e, s := newHostileSession(b)
	mustExec(b, s, "CREATE TABLE pt (id int PRIMARY KEY, k int NOT NULL, c char(20))")
	for i := 1; i <= 1000; i++ {
		mustExec(b, s, "INSERT INTO pt VALUES ("+itoa(i)+", 0, 'x')")
	}
	ctx := context.Background()
	run := func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			r, err := s.Exec(ctx, "SELECT id, k, c FROM pt WHERE id = ?", []any{int64(i%1000 + 1)})
			if err != nil || len(r.Rows) != 1 {
				b.Fatalf("%v", err)
			}
		}
	}
	b.Run("unchecked", run)
	s.SetAccount(tableGrants{db: "test", table: "pt", p: privilege.Select})
	b.Run("checked", run)
	// the account catalog's grants (sql/acl), as a server login has them
	s.SetAccount(nil)
	mustExec(b, s, "CREATE USER bench@'%'")
	mustExec(b, s, "GRANT SELECT ON test.pt TO bench@'%'")
	s.SetAccount(e.Accounts().GrantsFor("bench", "%"))
	b.Run("checked-catalog", run)
	s.SetAccount(nil)
}

func itoa(i int) string {
	var buf [20]byte
	n := len(buf)
	for i > 0 || n == len(buf) {
		n--
		buf[n] = byte('0' + i%10)
		i /= 10
	}
	return string(buf[n:])
}
