package acl

import (
	"context"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/privilege"
)

// Routine grants follow their routines, as MariaDB's
// automatic_sp_privileges (ON, its default): the account that creates a
// routine gets EXECUTE and ALTER ROUTINE on it unless it holds them
// already, and dropping a routine drops every grant on it, so one
// created again later with the same name starts with none.

// GrantCreator gives the creating account (user@host) EXECUTE and ALTER
// ROUTINE on routine db.name (fn: a FUNCTION), if it lacks them.
func (c *Catalog) GrantCreator(ctx context.Context, j Journal, user, host, db, name string, fn bool) error {
	const creator = privilege.Execute | privilege.AlterRoutine
	if c.GrantsFor(user, host).AllowedRoutine(creator, db, name, fn) {
		return nil
	}
	_, err := c.apply(ctx, j, func(cur *State) (*change, error) {
		e := cur.edit()
		a := e.account(user, host)
		if a == nil {
			return &change{}, nil
		}
		lv := level{kind: ast.GrantLevelTable, db: db, name: name, routine: true, fn: fn}
		a.setAt(lv, a.heldAt(lv)|creator)
		return &change{next: e.done()}, nil
	})
	return err
}

// DropRoutineGrants removes every account's grant on routine db.name.
func (c *Catalog) DropRoutineGrants(ctx context.Context, j Journal, db, name string, fn bool) error {
	k := routineKey(db, name, fn)
	_, err := c.apply(ctx, j, func(cur *State) (*change, error) {
		e, ch := cur.edit(), &change{}
		for _, a := range cur.ordered {
			if a.Routines[k] == nil {
				continue
			}
			ed := e.account(a.User, a.Host)
			delete(ed.Routines, k)
			ch.next = e.s
		}
		if ch.next != nil {
			ch.next = e.done()
		}
		return ch, nil
	})
	return err
}
