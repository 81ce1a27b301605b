package funcs

import (
	"context"
	"net"
	"time"

	"github.com/plrun/plrun/sql/expr"

	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/types"
)

// sessionFunc compiles the functions that read the session: DATABASE(),
// USER(), CONNECTION_ID(), LAST_INSERT_ID(), ROW_COUNT(), FOUND_ROWS(),
// VERSION(), SLEEP().
func sessionFunc(f *expr.Call) (*expr.Expr, error) {
	nargs, mk := f.NArgs, f.Mk
	switch f.Name {
	case "database", "schema":
		return mk(expr.TVarchar, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if c.Env.DB == "" {
				return types.Null, nil
			}
			return types.StringValue(c.Env.DB), nil
		}), nil
	case "version":
		return mk(expr.TVarchar, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			return types.StringValue(sysvar.Defs["version"].Def), nil
		}), nil
	case "connection_id":
		return mk(types.ColType{Base: types.TBigInt, Unsigned: true}, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			return types.UintValue(c.Env.Host().ID()), nil
		}), nil
	case "current_user":
		return mk(expr.TVarchar, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			// The account the login matched ('user'@'host pattern'); a
			// session without one (embedded, REPL) is its login, as USER().
			if a := c.Env.Host().Account(); a != nil {
				return types.StringValue(a.User() + "@" + a.Host()), nil
			}
			user, host := c.Env.Host().Client()
			if h, _, err := net.SplitHostPort(host); err == nil {
				host = h
			}
			return types.StringValue(user + "@" + host), nil
		}), nil
	case "user", "session_user", "system_user":
		return mk(expr.TVarchar, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			// As MySQL: the login name and the client's host, without its port.
			user, host := c.Env.Host().Client()
			if h, _, err := net.SplitHostPort(host); err == nil {
				host = h
			}
			return types.StringValue(user + "@" + host), nil
		}), nil
	case "last_insert_id":
		if err := nargs(0, 1); err != nil {
			return nil, err
		}
		return mk(types.ColType{Base: types.TBigInt, Unsigned: true}, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if len(vs) == 1 {
				u := uint64(expr.SaturatingInt(vs[0]))
				if vs[0].K == types.KindUint {
					u = vs[0].Uint()
				}
				c.Env.LastInsertID = u
				return types.UintValue(u), nil
			}
			return types.UintValue(c.Env.LastInsertID), nil
		}), nil
	case "row_count":
		return mk(expr.TBigInt, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			return types.IntValue(c.Env.RowCount), nil
		}), nil
	case "found_rows":
		return mk(expr.TBigInt, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			return types.IntValue(c.Env.FoundRows), nil
		}), nil
	case "sleep":
		if err := nargs(1, 1); err != nil {
			return nil, err
		}
		e := mk(expr.TBigInt, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			d := time.Duration(vs[0].ToFloat() * float64(time.Second))
			ctx := c.Env.StmtCtx
			if ctx == nil {
				ctx = context.Background()
			}
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-t.C:
				return types.IntValue(0), nil
			case <-ctx.Done():
				return types.IntValue(1), nil
			}
		})
		e.IsConst = false
		return e, nil
	}
	return nil, nil
}
