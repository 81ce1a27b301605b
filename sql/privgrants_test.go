package sql_test

import (
	"strings"
	"sync"

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

// testAccounts is the account catalog DEFINERs are found in.
type testAccounts struct {
	mu sync.Mutex
	m  map[string]*testGrants // user@host
}

func (a *testAccounts) Grants(user, host string) (privilege.Grants, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	g, ok := a.m[user+"@"+host]
	if !ok {
		return nil, false
	}
	return g, true
}

func (a *testAccounts) account(user, host string) *testGrants {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.m == nil {
		a.m = map[string]*testGrants{}
	}
	g := a.m[user+"@"+host]
	if g == nil {
		g = newTestGrants(user, host)
		a.m[user+"@"+host] = g
	}
	return g
}
