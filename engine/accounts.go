package engine

import (
	"context"

	"github.com/plrun/plrun/sql"
	"github.com/plrun/plrun/sql/acl"
)

// Accounts is the account catalog: the server checks logins against it.
func (e *Engine) Accounts() *acl.Catalog { return e.accounts }

// SeedAccounts creates the first accounts (plrun serve's --user,
// --password, --users-file) if the catalog has none (acl.SeedAccounts):
// it reports how many it created, 0 when accounts already existed.
func (e *Engine) SeedAccounts(ctx context.Context, plugin string, seeds []acl.Seed) (int, error) {
	n, err := e.accounts.SeedAccounts(ctx, e.txm, plugin, seeds)
	if err != nil {
		return 0, sql.MapError(err)
	}
	return n, nil
}
