package sql_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/sql"
	"github.com/plrun/plrun/sql/privilege"
)

// testGrants is a privilege.Grants for tests, until the account catalog
// answers them: grants at global ("*.*"), database ("db.*") and table
// ("db.t") level, replaced whole by set (a GRANT or REVOKE shows at the
// next statement, as the catalog's do).
type testGrants struct {
	user, host string
	mu         sync.Mutex
	levels     map[string]privilege.Priv // "*.*", "db.*", "db.t", lower case
}

func newTestGrants(user, host string) *testGrants {
	return &testGrants{user: user, host: host, levels: map[string]privilege.Priv{}}
}

// set replaces the grants with spec's lines: "SELECT, INSERT ON db.*".
func (g *testGrants) set(spec string) {
	levels := map[string]privilege.Priv{}
	for _, line := range strings.Split(spec, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		privs, on, ok := strings.Cut(line, " ON ")
		if !ok {
			panic("bad grant line: " + line)
		}
		var p privilege.Priv
		for _, name := range strings.Split(privs, ",") {
			bit, ok := privilege.Parse(name)
			if !ok {
				panic("bad privilege: " + name)
			}
			p |= bit
		}
		levels[strings.ToLower(strings.TrimSpace(on))] |= p
	}
	g.mu.Lock()
	g.levels = levels
	g.mu.Unlock()
}

func (g *testGrants) Allowed(need privilege.Priv, db, table string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	have := g.levels["*.*"]
	if db != "" {
		db = strings.ToLower(db)
		have |= g.levels[db+".*"]
		if table != "" {
			have |= g.levels[db+"."+strings.ToLower(table)]
		}
	}
	return have&need == need
}

func (g *testGrants) Visible(db string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	db = strings.ToLower(db)
	for on, p := range g.levels {
		if p != 0 && (on == "*.*" || strings.HasPrefix(on, db+".")) {
			return true
		}
	}
	return false
}

func (g *testGrants) User() string { return g.user }
func (g *testGrants) Host() string { return g.host }

// limitedSession is a session of account user@'%', created by the
// operator session op with the GRANT statements given, logged in as the
// server logs it in (from localhost).
func limitedSession(t testing.TB, e *engine.Engine, op *sql.Session, user string, grants ...string) *sql.Session {
	t.Helper()
	ctx := context.Background()
	if _, err := op.Exec(ctx, "CREATE USER "+user+"@'%' IDENTIFIED BY 'p'", nil); err != nil {
		t.Fatal(err)
	}
	for _, g := range grants {
		if _, err := op.Exec(ctx, "GRANT "+g+" TO "+user+"@'%'", nil); err != nil {
			t.Fatalf("GRANT %s: %v", g, err)
		}
	}
	s := e.NewSession()
	t.Cleanup(s.Close)
	s.SetClient(user, "localhost:40000")
	s.SetAccount(e.Accounts().GrantsFor(user, "%"))
	return s
}
