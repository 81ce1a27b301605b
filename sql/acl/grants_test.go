package acl

import (
	"context"
	"testing"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	_ "github.com/pingcap/tidb/pkg/parser/test_driver" // value expressions for the parser
	"github.com/plrun/plrun/sql/privilege"
	"github.com/plrun/plrun/txn"
)

// memJournal logs nothing and applies at once (the catalog's own
// behaviour is under test, not the log's).
type memJournal struct{ records int }

func (j *memJournal) LogDDL(_ context.Context, rec *txn.DDLRecord, apply func() error) error {
	j.records++
	return apply()
}

func run(t *testing.T, c *Catalog, j Journal, q string) error {
	t.Helper()
	n, err := parser.New().ParseOneStmt(q, "", "")
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	_, err = c.Exec(context.Background(), &Env{Journal: j, DB: "test", Text: q,
		TableExists:   func(db, table string) bool { return true },
		RoutineExists: func(db, name string, fn bool) bool { return true }}, n.(ast.StmtNode))
	return err
}

// Grants answers from the catalog's state at each call: a GRANT or
// REVOKE shows at once, and a dropped account may do nothing.
func TestGrantsFollowTheCatalog(t *testing.T) {
	c, j := New(), &memJournal{}
	for _, q := range []string{
		"CREATE USER u",
		"GRANT SELECT ON db1.* TO u",
		"GRANT INSERT ON db2.t TO u",
		"GRANT EXECUTE ON PROCEDURE db3.p TO u",
	} {
		if err := run(t, c, j, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	g := c.GrantsFor("u", "%")
	for _, tc := range []struct {
		need      privilege.Priv
		db, table string
		want      bool
	}{
		{privilege.Select, "db1", "any", true},
		{privilege.Select, "DB1", "", true},
		{privilege.Select | privilege.Insert, "db1", "x", false},
		{privilege.Insert, "db2", "t", true},
		{privilege.Insert, "db2", "T", true},
		{privilege.Insert, "db2", "u", false},
		{privilege.Insert, "db2", "", false},
		{privilege.Select, "", "", false},
		{privilege.Execute, "db3", "p", false}, // a routine grant is not a table grant
	} {
		if got := g.Allowed(tc.need, tc.db, tc.table); got != tc.want {
			t.Errorf("Allowed(%v, %q, %q) = %v, want %v", tc.need, tc.db, tc.table, got, tc.want)
		}
	}
	if !g.AllowedRoutine(privilege.Execute, "db3", "P", false) || g.AllowedRoutine(privilege.Execute, "db3", "p", true) {
		t.Error("AllowedRoutine does not follow GRANT EXECUTE ON PROCEDURE")
	}
	for db, want := range map[string]bool{"db1": true, "db2": true, "db3": true, "db4": false} {
		if got := g.Visible(db); got != want {
			t.Errorf("Visible(%s) = %v, want %v", db, got, want)
		}
	}
	if g.User() != "u" || g.Host() != "%" {
		t.Errorf("account %s@%s", g.User(), g.Host())
	}
	if err := run(t, c, j, "REVOKE SELECT ON db1.* FROM u"); err != nil {
		t.Fatal(err)
	}
	if g.Allowed(privilege.Select, "db1", "any") || g.Visible("db1") {
		t.Error("a REVOKE did not show at the next check")
	}
	if err := run(t, c, j, "GRANT ALL ON *.* TO u"); err != nil {
		t.Fatal(err)
	}
	if !g.Allowed(privilege.All, "", "") || g.Allowed(privilege.GrantOption, "", "") {
		t.Error("GRANT ALL ON *.* is every privilege but GRANT OPTION")
	}
	if err := run(t, c, j, "DROP USER u"); err != nil {
		t.Fatal(err)
	}
	if g.Allowed(privilege.Select, "db1", "") || g.Visible("db2") {
		t.Error("a dropped account still may")
	}
	if j.records != 7 {
		t.Errorf("%d records for 7 changes", j.records)
	}
}

// A statement that changes nothing logs nothing.
func TestFailedStatementsLogNothing(t *testing.T) {
	c, j := New(), &memJournal{}
	for _, q := range []string{"DROP USER nobody", "REVOKE SELECT ON *.* FROM nobody", "GRANT SELECT ON *.* TO nobody", "CREATE USER IF NOT EXISTS x", "CREATE USER IF NOT EXISTS x"} {
		_ = run(t, c, j, q)
	}
	if j.records != 1 {
		t.Errorf("%d records, want 1 (the first CREATE USER IF NOT EXISTS)", j.records)
	}
}

// Logins match the most specific host first; a loopback client matches
// 'localhost'; user@tenant falls back to user.
func TestMatchLogin(t *testing.T) {
	c, j := New(), &memJournal{}
	if err := run(t, c, j, "CREATE USER a@'%', a@'10.%', a@'10.0.0.1', a@localhost, b@'%'"); err != nil {
		t.Fatal(err)
	}
	st := c.Current()
	for _, tc := range []struct{ login, host, want string }{
		{"a", "10.0.0.1", "10.0.0.1"},
		{"a", "10.0.0.2", "10.%"},
		{"a", "11.0.0.1", "%"},
		{"a", "127.0.0.1", "localhost"},
		{"a", "::1", "localhost"},
		{"a@t1", "10.0.0.2", "10.%"},
		{"b", "10.0.0.1", "%"},
		{"c", "10.0.0.1", ""},
		{"@", "10.0.0.1", ""},
	} {
		got := ""
		if a := st.MatchLogin(tc.login, tc.host); a != nil {
			got = a.Host
		}
		if got != tc.want {
			t.Errorf("MatchLogin(%q, %q) = %q, want %q", tc.login, tc.host, got, tc.want)
		}
	}
}
