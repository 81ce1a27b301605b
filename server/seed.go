package server

import (
	"context"
	"errors"
	"sort"

	"github.com/plrun/plrun/sql/acl"
)

// seedAccounts creates cfg.Users as the first accounts if the catalog
// has none. At a later start the catalog is the truth: a seed whose
// name has no account is reported (log), never created or changed, so
// restarting with the default --user/--password never resets a
// password set with ALTER USER. A server needs an account to serve.
func seedAccounts(cfg Config) error {
	cat := cfg.Engine.Accounts()
	seeds := make([]acl.Seed, 0, len(cfg.Users))
	for name, pw := range cfg.Users {
		seeds = append(seeds, acl.Seed{User: name, Password: pw})
	}
	sort.Slice(seeds, func(i, j int) bool { return seeds[i].User < seeds[j].User })
	if _, err := cfg.Engine.SeedAccounts(context.Background(), cfg.AuthPlugin, seeds); err != nil {
		return err
	}
	st := cat.Current()
	if st.Len() == 0 {
		return errors.New("server: no accounts (give --user/--password or --users-file at the first start)")
	}
	for _, sd := range seeds {
		if !hasUser(st, sd.User) {
			cfg.Logger.Warn("seed account not created: the data folder already has accounts (use CREATE USER)", "user", sd.User)
		}
	}
	return nil
}

func hasUser(st *acl.State, user string) bool {
	for _, a := range st.Accounts() {
		if a.User == user {
			return true
		}
	}
	return false
}
