package acl

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/plrun/plrun/sql/privilege"
)

// State is one immutable version of the account catalog. A statement
// builds the next State from a copy (clone) and the catalog publishes it
// whole; readers hold a *State without locks and never see it change.
type State struct {
	// ordered is every account in match order (matchLess).
	ordered []*Account
	byKey   map[string]*Account
}

// Account is one 'user'@'host' with its authentication and grants.
// Accounts inside a published State are never modified: a change clones
// the account first (Account.clone).
type Account struct {
	User   string `json:"user"`
	Host   string `json:"host"`
	Plugin string `json:"plugin"`
	// Auth is the plugin's stored secret (authentication_string): never
	// the password.
	Auth   string         `json:"auth,omitempty"`
	Global privilege.Priv `json:"global,omitempty"`
	// DBs, Tables and Routines are the grants below *.*, keyed by
	// dbKey/tableKey/routineKey (names fold case, as plrun's catalog
	// does); each keeps the names as GRANT spelled them.
	DBs      map[string]*Grant `json:"dbs,omitempty"`
	Tables   map[string]*Grant `json:"tables,omitempty"`
	Routines map[string]*Grant `json:"routines,omitempty"`
}

// Grant is the privileges held on one database, table or routine.
type Grant struct {
	DB   string         `json:"db"`
	Name string         `json:"name,omitempty"` // table or routine
	Func bool           `json:"func,omitempty"` // a FUNCTION, not a PROCEDURE
	Priv privilege.Priv `json:"priv"`
	// Seq orders an account's grants as they were first made (SHOW
	// GRANTS lists a database's grants in that order, as MariaDB).
	Seq uint64 `json:"seq,omitempty"`
}

func accountKey(user, host string) string { return user + "\x00" + strings.ToLower(host) }
func dbKey(db string) string              { return strings.ToLower(db) }
func tableKey(db, table string) string    { return strings.ToLower(db) + "\x00" + strings.ToLower(table) }
func routineKey(db, name string, fn bool) string {
	kind := "P"
	if fn {
		kind = "F"
	}
	return kind + strings.ToLower(db) + "\x00" + strings.ToLower(name)
}

// Name is the account as errors and SHOW GRANTS's header write it.
func (a *Account) Name() string { return fmt.Sprintf("'%s'@'%s'", a.User, a.Host) }

func (a *Account) clone() *Account {
	c := *a
	c.DBs = cloneGrants(a.DBs)
	c.Tables = cloneGrants(a.Tables)
	c.Routines = cloneGrants(a.Routines)
	return &c
}

func cloneGrants(m map[string]*Grant) map[string]*Grant {
	if len(m) == 0 {
		return nil
	}
	c := make(map[string]*Grant, len(m))
	for k, g := range m {
		cg := *g
		c[k] = &cg
	}
	return c
}

func emptyState() *State { return &State{byKey: map[string]*Account{}} }

// Len is the number of accounts.
func (s *State) Len() int { return len(s.ordered) }

// Lookup is the account 'user'@'host' exactly (host case-insensitive).
func (s *State) Lookup(user, host string) *Account { return s.byKey[accountKey(user, host)] }

// Match is the account a login as user from client host authenticates
// as: the first in MySQL's order whose user is user and whose host
// pattern matches, or nil.
func (s *State) Match(user, host string) *Account {
	for _, a := range s.ordered {
		if a.User == user && hostMatches(a.Host, host) {
			return a
		}
	}
	return nil
}

// Accounts are the accounts in match order.
func (s *State) Accounts() []*Account { return s.ordered }

// edit is a State being built from another; done publishes its order.
type edit struct{ s *State }

func (s *State) edit() *edit {
	n := &State{byKey: make(map[string]*Account, len(s.byKey))}
	for k, a := range s.byKey {
		n.byKey[k] = a
	}
	return &edit{s: n}
}

// account is the editable copy of 'user'@'host' (nil if absent).
func (e *edit) account(user, host string) *Account {
	k := accountKey(user, host)
	a := e.s.byKey[k]
	if a == nil {
		return nil
	}
	a = a.clone()
	e.s.byKey[k] = a
	return a
}

func (e *edit) put(a *Account)           { e.s.byKey[accountKey(a.User, a.Host)] = a }
func (e *edit) remove(user, host string) { delete(e.s.byKey, accountKey(user, host)) }

func (e *edit) done() *State {
	s := e.s
	s.ordered = make([]*Account, 0, len(s.byKey))
	for _, a := range s.byKey {
		s.ordered = append(s.ordered, a)
	}
	sort.Slice(s.ordered, func(i, j int) bool { return matchLess(s.ordered[i], s.ordered[j]) })
	return s
}

// matchLess is MySQL's order for matching logins: the most specific host
// first, then a named user before the anonymous one.
func matchLess(a, b *Account) bool {
	if ra, rb := hostRank(a.Host), hostRank(b.Host); ra != rb {
		return ra > rb
	}
	if (a.User == "") != (b.User == "") {
		return a.User != ""
	}
	if a.Host != b.Host {
		return a.Host < b.Host
	}
	return a.User < b.User
}

// Encode is the State as stored in an accounts log record and in a
// snapshot: the accounts with their plugins, stored secrets and grants.
func (s *State) Encode() ([]byte, error) {
	return json.Marshal(struct {
		Accounts []*Account `json:"accounts"`
	}{s.ordered})
}

// decodeState reads what Encode wrote.
func decodeState(b []byte) (*State, error) {
	var v struct {
		Accounts []*Account `json:"accounts"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("acl: malformed account catalog: %w", err)
	}
	e := emptyState().edit()
	for _, a := range v.Accounts {
		e.put(a)
	}
	return e.done(), nil
}

// MatchLogin is Match for a login name as a client sends it: a name
// "user@tenant" (OceanBase's form, which seed 000's ob_elr.py uses as
// root@test) that matches no account as itself authenticates as "user";
// both parts must be non-empty.
func (s *State) MatchLogin(login, host string) *Account {
	if a := s.Match(login, host); a != nil {
		return a
	}
	if i := strings.IndexByte(login, '@'); i > 0 && i < len(login)-1 {
		return s.Match(login[:i], host)
	}
	return nil
}
