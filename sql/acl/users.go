package acl

import (
	"context"
	"regexp"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sqlerr"
)

// secret is an account's authentication as a statement sets it.
type secret struct {
	plugin, auth string
}

// secretOf is the authentication IDENTIFIED [WITH plugin] [BY 'pw' | AS
// 'hash'] names; none is mysql_native_password without a password.
func secretOf(opt *ast.AuthOption) (secret, error) {
	if opt == nil {
		return secret{plugin: NativePassword}, nil
	}
	s := secret{plugin: opt.AuthPlugin}
	if s.plugin == "" {
		s.plugin = NativePassword
	}
	if s.plugin != NativePassword && s.plugin != CachingSHA2Password {
		return secret{}, sqlerr.New(sqlerr.ErPluginIsNotLoaded, "Plugin '%s' is not loaded", s.plugin)
	}
	switch {
	case opt.ByAuthString:
		return withPassword(s.plugin, opt.AuthString), nil
	case opt.ByHashString:
		return hashed(s.plugin, opt.HashString)
	}
	return s, nil
}

// withPassword hashes password for plugin.
func withPassword(plugin, password string) secret {
	s := secret{plugin: plugin}
	if plugin == CachingSHA2Password {
		s.auth = SHA2Hash(password)
	} else {
		s.auth = NativeHash(password)
	}
	return s
}

// hashed is a secret given as the plugin's stored form.
func hashed(plugin, hash string) (secret, error) {
	if plugin == CachingSHA2Password {
		if !validSHA2Hash(hash) {
			return secret{}, sqlerr.New(sqlerr.ErPasswordFormat, "The password hash doesn't have the expected format.")
		}
	} else if !validNativeHash(hash) {
		return secret{}, sqlerr.New(sqlerr.ErPasswdLength, "Password hash should be a 41-digit hexadecimal number")
	}
	return secret{plugin: plugin, auth: hash}, nil
}

// refuseOptions refuses the CREATE/ALTER USER clauses plrun does not
// keep, rather than ignore them.
func refuseOptions(tls []*ast.AuthTokenOrTLSOption, res []*ast.ResourceOption, pw []*ast.PasswordOrLockOption,
	comment *ast.CommentOrAttributeOption, group *ast.ResourceGroupNameOption) error {
	switch {
	case len(tls) > 0:
		return unsupported("REQUIRE (TLS options of an account)")
	case len(res) > 0:
		return unsupported("resource limits of an account (WITH MAX_...)")
	case len(pw) > 0:
		return unsupported("password expiry and account locking")
	case comment != nil:
		return unsupported("COMMENT / ATTRIBUTE of an account")
	case group != nil:
		return unsupported("RESOURCE GROUP")
	}
	return nil
}

func (c *Catalog) createUser(ctx context.Context, env *Env, n *ast.CreateUserStmt) ([]Note, error) {
	if n.IsCreateRole {
		return nil, unsupported("roles")
	}
	if err := refuseOptions(n.AuthTokenOrTLSOptions, n.ResourceOptions, n.PasswordOrLockOptions, n.CommentOrAttributeOption, n.ResourceGroupNameOption); err != nil {
		return nil, err
	}
	return c.apply(ctx, env.Journal, func(cur *State) (*change, error) {
		e, ch := cur.edit(), &change{}
		var failed []string
		for _, spec := range n.Specs {
			user, host, err := target(env, spec.User)
			if err != nil {
				return nil, err
			}
			sec, err := secretOf(spec.AuthOpt)
			if err != nil {
				return nil, err
			}
			if e.s.byKey[accountKey(user, host)] != nil {
				if n.IfNotExists {
					ch.notes = append(ch.notes, Note{Level: "Note", Code: sqlerr.ErUserCreateExists,
						Message: "Can't create user " + quoteAccount(user, host) + "; it already exists"})
				} else {
					failed = append(failed, quoteAccount(user, host))
				}
				continue
			}
			e.put(&Account{User: user, Host: host, Plugin: sec.plugin, Auth: sec.auth})
			ch.next = e.s
		}
		// As MariaDB: the accounts that could be created are, the others
		// are named in one 1396.
		if ch.next != nil {
			ch.next = e.done()
		}
		if len(failed) > 0 {
			return ch, opFailed("CREATE USER", failed)
		}
		return ch, nil
	})
}

func (c *Catalog) dropUser(ctx context.Context, env *Env, n *ast.DropUserStmt) ([]Note, error) {
	if n.IsDropRole {
		return nil, unsupported("roles")
	}
	return c.apply(ctx, env.Journal, func(cur *State) (*change, error) {
		e, ch := cur.edit(), &change{}
		var failed []string
		for _, u := range n.UserList {
			user, host, err := target(env, u)
			if err != nil {
				return nil, err
			}
			if e.s.byKey[accountKey(user, host)] == nil {
				if n.IfExists {
					ch.notes = append(ch.notes, Note{Level: "Note", Code: sqlerr.ErUserDropExists,
						Message: "Can't drop user " + quoteAccount(user, host) + "; it doesn't exist"})
				} else {
					failed = append(failed, quoteAccount(user, host))
				}
				continue
			}
			e.remove(user, host)
			ch.next = e.s
		}
		if ch.next != nil {
			ch.next = e.done()
		}
		if len(failed) > 0 {
			return ch, opFailed("DROP USER", failed)
		}
		return ch, nil
	})
}

func (c *Catalog) alterUser(ctx context.Context, env *Env, n *ast.AlterUserStmt) ([]Note, error) {
	if err := refuseOptions(n.AuthTokenOrTLSOptions, n.ResourceOptions, n.PasswordOrLockOptions, n.CommentOrAttributeOption, n.ResourceGroupNameOption); err != nil {
		return nil, err
	}
	specs := n.Specs
	if n.CurrentAuth != nil {
		specs = []*ast.UserSpec{{AuthOpt: n.CurrentAuth}} // ALTER USER USER() IDENTIFIED BY
	}
	return c.apply(ctx, env.Journal, func(cur *State) (*change, error) {
		e, ch := cur.edit(), &change{}
		var failed []string
		for _, spec := range specs {
			user, host, err := target(env, spec.User)
			if err != nil {
				return nil, err
			}
			if spec.AuthOpt == nil {
				return nil, unsupported("ALTER USER without IDENTIFIED")
			}
			sec, err := secretOf(spec.AuthOpt)
			if err != nil {
				return nil, err
			}
			a := e.account(user, host)
			if a == nil {
				if n.IfExists {
					ch.notes = append(ch.notes, Note{Level: "Note", Code: sqlerr.ErCannotUser,
						Message: "Operation ALTER USER failed for " + quoteAccount(user, host)})
				} else {
					failed = append(failed, quoteAccount(user, host))
				}
				continue
			}
			a.Plugin, a.Auth = sec.plugin, sec.auth
			ch.next = e.s
		}
		if ch.next != nil {
			ch.next = e.done()
		}
		if len(failed) > 0 {
			return ch, opFailed("ALTER USER", failed)
		}
		return ch, nil
	})
}

// passwordCall finds MariaDB's SET PASSWORD ... = PASSWORD('pw') form;
// without it the string is the stored hash itself.
var passwordCall = regexp.MustCompile(`(?is)=\s*(OLD_)?PASSWORD\s*\(`)

func (c *Catalog) setPassword(ctx context.Context, env *Env, n *ast.SetPwdStmt) ([]Note, error) {
	user, host, err := target(env, n.User)
	if err != nil {
		return nil, err
	}
	clear := passwordCall.MatchString(env.Text)
	return c.apply(ctx, env.Journal, func(cur *State) (*change, error) {
		e := cur.edit()
		a := e.account(user, host)
		if a == nil {
			return nil, errNoSuchUser
		}
		sec := withPassword(a.Plugin, n.Password)
		if !clear {
			if sec, err = hashed(a.Plugin, n.Password); err != nil {
				return nil, err
			}
		}
		a.Auth = sec.auth
		return &change{next: e.done()}, nil
	})
}

func (c *Catalog) renameUser(ctx context.Context, env *Env, n *ast.RenameUserStmt) ([]Note, error) {
	return c.apply(ctx, env.Journal, func(cur *State) (*change, error) {
		e, ch := cur.edit(), &change{}
		var failed []string
		for _, uu := range n.UserToUsers {
			ou, oh, err := target(env, uu.OldUser)
			if err != nil {
				return nil, err
			}
			nu, nh, err := target(env, uu.NewUser)
			if err != nil {
				return nil, err
			}
			a := e.account(ou, oh)
			if a == nil || e.s.byKey[accountKey(nu, nh)] != nil {
				failed = append(failed, quoteAccount(ou, oh))
				continue
			}
			e.remove(ou, oh)
			a.User, a.Host = nu, nh
			e.put(a)
			ch.next = e.s
		}
		if ch.next != nil {
			ch.next = e.done()
		}
		if len(failed) > 0 {
			return ch, opFailed("RENAME USER", failed)
		}
		return ch, nil
	})
}
