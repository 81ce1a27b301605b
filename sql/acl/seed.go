package acl

import (
	"context"
	"sort"

	"github.com/plrun/plrun/sql/privilege"
)

// Seed is a first account given at start (plrun serve's --user and
// --password, or a line of --users-file).
type Seed struct {
	User, Password string
}

// SeedAccounts creates the seeds, each 'user'@'%' with ALL PRIVILEGES ON
// *.* WITH GRANT OPTION and its password hashed for plugin, in one
// accounts record, but only into an empty catalog: once accounts exist
// (seeded at an earlier start or made by CREATE USER) they are the
// truth, and a restart with other flags changes nothing (created is 0;
// the caller says so in its log). As mysql_install_db, seeding happens
// once.
func (c *Catalog) SeedAccounts(ctx context.Context, j Journal, plugin string, seeds []Seed) (created int, err error) {
	if plugin == "" {
		plugin = NativePassword
	}
	sort.Slice(seeds, func(i, k int) bool { return seeds[i].User < seeds[k].User })
	_, err = c.apply(ctx, j, func(cur *State) (*change, error) {
		if cur.Len() > 0 || len(seeds) == 0 {
			return &change{}, nil
		}
		e, ch := cur.edit(), &change{}
		for _, s := range seeds {
			sec := withPassword(plugin, s.Password)
			e.put(&Account{User: s.User, Host: "%", Plugin: sec.plugin, Auth: sec.auth,
				Global: privilege.All | privilege.GrantOption})
			created++
		}
		ch.next = e.done()
		return ch, nil
	})
	if err != nil {
		return 0, err
	}
	return created, nil
}
