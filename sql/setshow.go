package sql

import (
	"context"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

func (s *Session) setSession(d *sysvar.Def, v types.Value) (*exec.Note, error) {
	if d.ReadOnly {
		return nil, sqlerr.New(sqlerr.ErReadOnlyVariable, "Variable '%s' is a read only variable", d.Name)
	}
	if d.SessionReadOnly {
		return nil, sqlerr.New(sqlerr.ErSessionReadOnly, "SESSION variable '%s' is read-only. Use SET GLOBAL to assign the value", d.Name)
	}
	if !d.Session {
		return nil, sqlerr.New(sqlerr.ErGlobalVariable, "Variable '%s' is a GLOBAL variable and should be set with SET GLOBAL", d.Name)
	}
	text, warn, err := sysvar.Normalize(d, v)
	if err != nil {
		return nil, err
	}
	if err := sysvar.CheckSession(d, text); err != nil {
		return nil, err
	}
	if d.Name == "autocommit" && text == "ON" && s.txn != nil && !s.explicit {
		// Turning autocommit on commits the implicit transaction.
		if _, err := s.finishOpen(context.Background()); err != nil {
			return nil, err
		}
	}
	if d.Name == "last_insert_id" {
		// LAST_INSERT_ID() reports it (MariaDB: one value, two names).
		s.LastInsertID, _ = strconv.ParseUint(text, 10, 64)
	}
	s.vars[d.Key()] = text
	return warn, nil
}

// setDefault is SET [GLOBAL] x = DEFAULT: the compiled-in default
// globally; for the session, the global value (MySQL's meaning), which is
// what the session reads once it has no value of its own.
func (s *Session) setDefault(d *sysvar.Def, global bool) error {
	if d.ReadOnly {
		return sqlerr.New(sqlerr.ErReadOnlyVariable, "Variable '%s' is a read only variable", d.Name)
	}
	if global || !d.Session {
		if !d.Global {
			return sqlerr.New(sqlerr.ErLocalVariable, "Variable '%s' is a SESSION variable and can't be used with SET GLOBAL", d.Name)
		}
		s.database.Engine.ResetGlobal(d)
		s.setDynamically(d.Name)
		return nil
	}
	if d.Name == "autocommit" {
		_, err := s.setSession(d, types.StringValue(s.database.Globals.Get(d.Key())))
		return err
	}
	delete(s.vars, d.Key())
	return nil
}

func (s *Session) execSet(ctx context.Context, p *parse.Stmt, n *ast.SetStmt, args []types.Value) (*exec.Result, error) {
	sc := &expr.Scope{DB: s.DB, Funcs: s.Functions()}
	ec := &expr.Ctx{Env: &s.Env, Args: args}
	res := &exec.Result{}
	oneShot := reSetTransaction.MatchString(parse.StripLeading(p.Text))
	for _, v := range n.Variables {
		name := strings.ToLower(v.Name)
		if v.Name == ast.SetNames || v.Name == ast.SetCharset {
			if err := s.setNames(v.Name == ast.SetNames, v); err != nil {
				return nil, err
			}
			continue
		}
		if name == "tx_isolation_one_shot" && oneShot {
			// the TiDB parser's name for SET TRANSACTION ISOLATION LEVEL
			// (typed by a user, it is no variable: 1193 below)
			name = "tx_isolation"
		}
		var val types.Value
		isDefault := false
		if v.Value != nil {
			if _, isDefault = v.Value.(*ast.DefaultExpr); isDefault {
				if d, ok := sysvar.Defs[name]; ok {
					val = sysvar.Literal(d.Def)
				}
			} else if cn, ok := v.Value.(*ast.ColumnNameExpr); ok && v.IsSystem {
				// SET x = ON / OFF / word: an identifier is a string here.
				val = types.StringValue(cn.Name.Name.O)
			} else {
				ce, err := sc.Compile(v.Value)
				if err != nil {
					return nil, err
				}
				if val, err = ce.Fn(ec); err != nil {
					return nil, err
				}
			}
		}
		if !v.IsSystem {
			s.UserVars[name] = val
			continue
		}
		if strings.Contains(name, ".") {
			// SET @@PERSIST.x = v and @@PERSIST_ONLY.x (setpersist.go)
			warn, err := s.setPersistItem(p, v, name, isDefault, val)
			if err != nil {
				return nil, err
			}
			if warn != nil {
				res.Notes = append(res.Notes, *warn)
				res.Warnings++
			}
			continue
		}
		d, err := sysvar.Lookup(name)
		if err != nil {
			return nil, err
		}
		var warn *exec.Note
		switch {
		case isDefault:
			err = s.setDefault(d, v.IsGlobal)
		case oneShot && !v.IsGlobal && (d.Key() == "transaction_isolation" || d.Key() == "transaction_read_only"):
			text, _, err := sysvar.Normalize(d, val)
			if err == nil {
				err = s.setOneShot(d.Key(), text)
			}
			if err != nil {
				return nil, err
			}
		case v.IsGlobal:
			if warn, err = s.database.Engine.SetGlobal(name, val); err == nil {
				s.setDynamically(name)
			}
		case !d.Session && d.Global && !d.ReadOnly && !d.GlobalOnly:
			// OceanBase and PolarDB settings are global; a plain SET of one
			// sets it globally, as their tenants' SET does.
			if warn, err = s.database.Engine.SetGlobal(name, val); err == nil {
				s.setDynamically(name)
			}
		default:
			warn, err = s.setSession(d, val)
		}
		if err != nil {
			return nil, err
		}
		if warn != nil {
			res.Notes = append(res.Notes, *warn)
			res.Warnings++
		}
	}
	return res, nil
}

// setDynamically records that this session set global variable name now
// (performance_schema.variables_info: DYNAMIC, SET_TIME, SET_USER,
// SET_HOST), as MySQL does for SET GLOBAL and SET PERSIST.
func (s *Session) setDynamically(name string) {
	d, err := sysvar.Lookup(name)
	if err != nil {
		return
	}
	user, host := s.Client()
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h // PROCESSLIST's host:port; variables_info names the host
	}
	s.database.Globals.SetOrigin(d.Key(), sysvar.Origin{Source: sysvar.SourceDynamic, SetTime: time.Now(), User: user, Host: host})
}
